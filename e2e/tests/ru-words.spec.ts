import { expect, test } from '../support/fixtures';
import { expectRemoteReady } from '../support/page';
import { localized, routes } from '../support/routes';

// Issue 27, finding 10: under /ru no English product word shows (pool names, ranks, FAQ terms).
// Every page's text is scanned for Latin words; only names are allowed: the brand, the coins and
// networks, wallets and services by their own names, and abbreviations Russian uses as they are.
const ALLOWED = new Set([
  // the brand (shared/contracts/src/brands.json)
  'Invest', 'Pools',
  // coins, networks, explorers and wallets, by their names
  'ETH', 'USDT', 'USDC', 'BUSD', 'SOL', 'BNB', 'WAVES', 'Ether', 'Ethereum', 'Etherscan', 'MetaMask', 'Metamask', 'IPT',
  // abbreviations used in Russian as they are
  'DEX', 'DAO', 'APY', 'APR', 'TVL', 'ROI', 'UTC', 'CSV', 'QR', 'ENG', 'RUS', 'e-mail', 'E-mail', 'Snapshot', 'EIP', 'ID', 'id',
  // services and file formats by their names; the language list names each language in itself
  'Telegram', 'Twitter', 'Discord', 'JPEG', 'PNG', 'WebP', 'English',
  // the Telegram field's example handle (@myname)
  'myname',
  // the sidebar's documentation link, which the brand's social links (issue 25) replace
  'Docs',
]);

/**
 * Latin words of a page's text, leaving out links, e-mail addresses and anything with a digit in it
 * (addresses, hashes, short addresses), and single letters (the ROI formula's r).
 */
function latinWords(text: string): string[] {
  const cleaned = text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S+@\S+/g, ' ')
    .replace(/[^\s…]*\d[^\s…]*/g, ' ');
  return [...new Set(cleaned.match(/[A-Za-z][A-Za-z-]*[A-Za-z]/g) ?? [])];
}

/**
 * The page's text without what people wrote or were given rather than the product: the sessions'
 * browsers, proposals' titles (their authors' words), the user's referral code.
 */
const pageText = (page: import('@playwright/test').Page) =>
  page.evaluate(() => {
    const own = [...document.querySelectorAll<HTMLElement>('[data-testid="sessions"], [data-testid="proposal"] a, [data-testid="referral-id"]')];
    for (const el of own) el.style.display = 'none';
    const text = document.body.innerText;
    for (const el of own) el.style.display = '';
    return text;
  });

test('finding 10: no English product word on any Russian page; only names from the allow-list', async ({ page, signIn }) => {
  test.setTimeout(120_000);
  await signIn();
  const found: string[] = [];
  for (const r of routes.filter((x) => x.layout === 'inner' && x.path === x.settlesAt)) {
    await page.goto(localized(r.path, 'ru'));
    await expectRemoteReady(page, r.heading.ru);
    await page.waitForLoadState('networkidle');
    const words = latinWords(await pageText(page)).filter((w) => !ALLOWED.has(w));
    if (words.length) found.push(`${r.path}: ${words.join(', ')}`);
  }
  await page.context().clearCookies();
  for (const r of routes.filter((x) => x.layout === 'auth')) {
    await page.goto(localized(r.path, 'ru'));
    await expectRemoteReady(page, r.heading.ru);
    await page.waitForLoadState('networkidle');
    const words = latinWords(await pageText(page)).filter((w) => !ALLOWED.has(w));
    if (words.length) found.push(`${r.path}: ${words.join(', ')}`);
  }
  expect(found).toEqual([]);
});
