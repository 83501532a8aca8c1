import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { PASSWORD, uniqueEmail } from '../support/accounts';
import { expectAccessibleInBothThemes } from '../support/axe';
import { expectRemoteReady } from '../support/page';
import { remoteText, type Locale } from '../support/routes';

// Issue 27, finding 1: the public home page. A first visit lands on it (no redirect, no "Please
// login" message), reads each pool's figures exactly as the API gives them, and signs up from it.

type Overview = {
  pools: { pool: string; title: string; riskReason: string; apy: string; apr: string; tvlUsd: string }[];
  withdrawal: { currency: string; fee: string; minimum: string }[];
};

const text = (locale: Locale, key: string) => remoteText('mf-auth', locale, key);

/** Digits grouped by three with `sep`: the test's own grouping, not the page's formatter. */
const group = (whole: string, sep: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, sep);

/** "0.1234" → "12.34 %" (en) / "12,34 %" (ru), a no-break space before the sign: the fraction × 100, cut to two places, zeros dropped. */
function percent(fraction: string, locale: Locale): string {
  const [whole = '0', frac = ''] = fraction.split('.');
  const digits = `${whole}${frac.padEnd(2, '0')}`;
  const int = digits.slice(0, whole.length + 2).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(whole.length + 2, whole.length + 4).replace(/0+$/, '');
  const sep = locale === 'en' ? '.' : ',';
  return `${group(int, locale === 'en' ? ',' : '\u00a0')}${rest ? sep + rest : ''}\u00a0%`;
}

/** "4750.00" → "$ 4,750.00" (en) / "$ 4 750,00" (ru), a no-break space after the sign. */
function dollars(usd: string, locale: Locale): string {
  const [whole = '0', cents = '00'] = usd.split('.');
  return `$\u00a0${group(whole, locale === 'en' ? ',' : '\u00a0')}${locale === 'en' ? '.' : ','}${cents}`;
}

async function overview(page: Page, locale: Locale): Promise<Overview> {
  const res = await page.request.get('/api/v1/pools/overview', { headers: { 'Accept-Language': locale } });
  expect(res.status()).toBe(200);
  return (await res.json()) as Overview;
}

/** Each pool card shows the API's figures; read again until both agree (other tests deposit meanwhile). */
async function expectFiguresOfApi(page: Page, locale: Locale) {
  let first = true;
  await expect(async () => {
    // Another test may deposit meanwhile: a second try reads the page afresh, then the API.
    if (!first) {
      await page.reload();
      await expectRemoteReady(page, text(locale, 'home.title'));
    }
    first = false;
    const api = await overview(page, locale);
    expect(api.pools.map((p) => p.pool)).toEqual(['stable', 'coin', 'dex']);
    for (const p of api.pools) {
      const card = page.getByTestId(`home-pool-${p.pool}`);
      await expect(card.getByRole('heading', { level: 3 })).toHaveText(p.title, { timeout: 1000 });
      await expect(card.getByTestId('apy')).toHaveText(percent(p.apy, locale), { timeout: 1000 });
      await expect(card.getByTestId('apr')).toHaveText(percent(p.apr, locale), { timeout: 1000 });
      await expect(card.getByTestId('tvl')).toHaveText(dollars(p.tvlUsd, locale), { timeout: 1000 });
      await expect(card.getByTestId('risk-reason')).toHaveText(p.riskReason, { timeout: 1000 });
    }
  }).toPass({ timeout: 20_000 });
}

test('finding 1: a first visit shows the pools with live figures equal to the API\'s, then signs up from the home page', async ({ page }) => {
  await page.goto('/');
  await expectRemoteReady(page, text('en', 'home.title'));
  await expect(page).toHaveURL('/');
  await expect(page.getByText('Please login to access this page!')).toHaveCount(0);
  await expectFiguresOfApi(page, 'en');
  // A fee the operator set is listed with its currency (the local stack opens withdrawals).
  const api = await overview(page, 'en');
  for (const w of api.withdrawal) await expect(page.getByTestId(`fee-${w.currency}`)).toBeVisible();
  await expect(page.getByTestId('home-reserves')).toBeVisible();
  // The public proof of solvency, beside the reserves.
  await expect(page.getByRole('main').getByRole('link', { name: text('en', 'home.solvencyLink'), exact: true })).toHaveAttribute('href', '/solvency');

  await page.getByRole('main').getByRole('link', { name: text('en', 'home.signUp'), exact: true }).click();
  await expect(page).toHaveURL('/sign-up');
  const login = uniqueEmail('home');
  const field = (key: string) => page.getByLabel(text('en', key), { exact: true });
  await field('form.email').fill(login);
  await field('form.password').fill(PASSWORD);
  await field('form.passwordRepeat').fill(PASSWORD);
  await field('signUp.agree').check();
  await page.getByRole('button', { name: text('en', 'signUp.submit'), exact: true }).click();
  await expect(page).toHaveURL('/registration-confirm');
});

test('finding 1: the Russian home page at 390 px shows the same figures in Russian, with no horizontal scroll, and passes axe in both themes', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/ru');
  await expectRemoteReady(page, text('ru', 'home.title'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expectFiguresOfApi(page, 'ru');
  await expect(page.getByTestId('home-reserves')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: text('ru', 'home.solvencyLink'), exact: true })).toHaveAttribute('href', '/ru/solvency');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectAccessibleInBothThemes(page);
});

test('finding 1: a signed-in user opening the home page goes on to the dashboard', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/');
  await expect(page).toHaveURL('/cabinet/dashboard');
});
