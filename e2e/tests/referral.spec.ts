// The referral programme end to end: real API, real chain, the operator's CLI. A invites B through
// the copied link, B invites C, C invites D; each deposits USDT into the dex pool; the operator
// accrues days; every reward on the pages is checked against an independent bigint computation,
// the claim is paid on chain to A's wallet, and B withdrawing everything lowers A's capital.
// The programme's days are counted from the stack's accrual calendar as found (e2e/support/calendar.ts).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, request as requests, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { seriousViolations } from '../support/axe';
import { expectAmount } from '../support/amounts';
import { PASSWORD, mailedCode, signedUpAndConfirmed, uniqueEmail } from '../support/accounts';
import { dailyInterest, dailyRate } from '@app/web3/testing';
import { addDays, apyFromFirstOpenDay, asOf, today } from '../support/calendar';
import { repoRoot } from '../support/paths';
import { localOperator, totpOf } from '../support/operators';
import { USDT, deposit, dismissNotices, fund, notification, sentHash, word } from '../support/pool';
import { TestWallet } from '../support/testWallet';
import { baseURL, operatorApiURL } from '../stack.config';

/** The programme this file configures: levels 8 %, 4 %, 2 %; a rank bonus of 1 % from $10,000 (14 % + 3 × 1 % ≤ 18 %). */
const LEVELS = [800n, 400n, 200n];
const RANKS = ['Starter:0:0', 'Bronze:10000:100', 'Silver:50000:100'];
const DEPOSITS = { B: 100n, C: 200n, D: 300n };
const UNIT = 10n ** 6n;
/** The dex pool's APY this file sets, as the fraction 26/100. */
const DEX_APY = { text: '0.26', num: 26n, den: 100n };
/** Days the programme runs under this file's configuration. */
const DAYS = 10;

/** The operator's CLI against the stack under test, as its operator alice; answers its exit code and what it printed. */
function operator(...args: string[]): { status: number; out: string } {
  const alice = localOperator('alice');
  const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'api/src/operator/cli.ts', ...args, '--api', operatorApiURL], {
    cwd: repoRoot,
    env: { ...process.env, OPERATOR_KEY: `${alice.name}.${alice.key}`, OPERATOR_TOTP: totpOf(alice) },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status ?? 1, out: `${run.stdout}${run.stderr}` };
}
function operatorOk(...args: string[]): string {
  const r = operator(...args);
  expect(r.status, r.out).toBe(0);
  return r.out;
}

/** A referrer's reward on a referee's days: floor(interest × bps / 10000) each day (USDT interest, USDT payout). */
const rewardOn = (interest: bigint[], bps: bigint) => interest.reduce((sum, i) => sum + (i * bps) / 10000n, 0n);

async function usdtBalance(wallet: TestWallet, address: string): Promise<bigint> {
  return BigInt(await wallet.chain.call({ to: USDT, data: `0x70a08231${word(BigInt(address))}` }));
}

interface Member {
  login: string;
  context: BrowserContext;
  page: Page;
  wallet: TestWallet;
}

/** A browser of its own with a funded test wallet, signed in to an account made through the API (with an invite, when given). */
async function member(browser: Browser, tag: string, invite?: string): Promise<Member> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const wallet = TestWallet.random(page);
  await wallet.install();
  await fund(wallet);
  const login = uniqueEmail(tag);
  if (invite) {
    const registered = await page.request.post('/api/v1/register', { data: { login, password: PASSWORD, invite } });
    expect(registered.status(), await registered.text()).toBe(200);
    const confirmed = await page.request.post('/api/v1/confirm-login', { data: { login, code: await mailedCode(page.request, login) } });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
  } else {
    await signedUpAndConfirmed(page.request, login);
  }
  return { login, context, page, wallet };
}

/** Connects the header's wallet and waits until the server linked it. */
async function linkWallet(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Connect wallet' }).click();
  // Linked: the header shows the address. (The notice saying so lasts 3 s, and a busy machine can miss it.)
  await expect(page.getByRole('banner').getByTestId('linked-wallet')).toBeVisible({ timeout: 30_000 });
  await dismissNotices(page);
}

/** US dollars into a pool in USDT through the pool page, credited. */
async function depositUsdt(m: Member, usd: bigint, pool: 'dex' | 'stable' = 'dex') {
  await m.page.goto(`/cabinet/pools/${pool}`);
  await expect(m.page.getByRole('tab', { name: 'Deposit' })).toHaveAttribute('aria-selected', 'true');
  if (await m.page.getByRole('banner').getByRole('button', { name: 'Connect wallet' }).isVisible()) await linkWallet(m.page);
  const panel = m.page.getByRole('tabpanel', { name: 'Deposit' });
  expect(await deposit(panel, 'USDT', String(usd))).toBe(String(usd));
  await sentHash(m.page);
  await expect(m.page.getByTestId('deposit-progress')).toContainText('Credited', { timeout: 30_000 });
  await dismissNotices(m.page);
}

/** A session of its own for the test's reads (the page keeps its own, whose refresh token rotates). */
const tokens = new Map<string, string>();
async function tokenOf(m: Member): Promise<string> {
  const known = tokens.get(m.login);
  if (known) return known;
  const api = await requests.newContext({ baseURL });
  const res = await api.post('/api/v1/login', { data: { login: m.login, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await api.dispose();
  tokens.set(m.login, token);
  return token;
}
async function apiGet<T>(m: Member, path: string): Promise<T> {
  const res = await m.page.request.get(`/api/v1${path}`, { headers: { Authorization: `Bearer ${await tokenOf(m)}` } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

/** The referee's daily interest in the dex pool as the server credited it: one CSV row a day. */
async function interestDays(m: Member): Promise<number> {
  const { csv } = await apiGet<{ csv: string }>(m, '/cabinet/activity/export');
  return csv.split('\r\n').filter((l) => l.includes(',interest,dex,USDT,')).length;
}

test.describe.configure({ mode: 'serial' });

test('the referral programme: link, sign-up, rewards by level, claim paid on chain, capital attracted', async ({ browser }) => {
  test.setTimeout(420_000);

  // A, the root of the network, holds a position in the dex pool before anyone A invites: an accrual
  // then brings the pool up to the calendar (A's interest rewards nobody). From the calendar's first
  // open day on, the dex pool earns at this file's APY and the programme is this file's.
  const A = await member(browser, 'ref-a');
  await depositUsdt(A, 10n);
  operatorOk('accrue', '--until', addDays(await asOf(A.login), -1));
  const from = await asOf(A.login);
  expect(await apyFromFirstOpenDay(A.page.request, 'dex', DEX_APY.text)).toBe(from);
  operatorOk('referral', 'levels', 'set', ...LEVELS.map(String), '--from', from);
  operatorOk('referral', 'ranks', 'set', ...RANKS, '--from', from);
  // The rewards are claimed right after the accrual below: no vesting period in this file.
  operatorOk('referral', 'vesting', 'set', '0', '--from', from);

  // The operator's limits: over 18 % in all is refused, with the exit code and the reason.
  const refused = operator('referral', 'levels', 'set', '1000', '500', '400', '--from', from);
  expect(refused.status, refused.out).toBe(2);
  expect(refused.out).toMatch(/refused \(400\): .*add up to 2200 bps, over 1800 bps/);
  // 8 + 4 + 2 % with a rank bonus of 2 % at each of the three levels is 20 %.
  const refusedWithBonus = operator('referral', 'ranks', 'set', 'Starter:0:0', 'Gold:1000:200', '--from', from);
  expect(refusedWithBonus.status, refusedWithBonus.out).toBe(2);
  expect(refusedWithBonus.out).toMatch(/refused \(400\): .*add up to 2000 bps, over 1800 bps/);
  expect(operatorOk('referral', 'show')).toContain('Bronze');

  // A: the referral page with the id, the link, the QR code and the promise.
  await A.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await A.page.goto('/cabinet/refferal');
  await expect(A.page.getByRole('heading', { level: 1, name: 'Referral program' })).toBeVisible();
  await expect(A.page.getByText(/up to 18% additional rewards/)).toBeVisible();
  await expect(A.page.getByTestId('referral-qr')).toBeVisible();
  await expect(A.page.getByTestId('network-empty')).toBeVisible();
  const levels = A.page.getByTestId('levels');
  for (const [i, bps] of LEVELS.entries()) await expect(levels.getByTestId(`level-${i + 1}`).getByTestId('rate')).toHaveText(`${Number(bps) / 100}\u00a0%`);
  const code = (await A.page.getByTestId('referral-id').textContent())!;
  const link = await A.page.getByRole('textbox', { name: 'Referral link' }).inputValue();
  expect(link).toBe(`${baseURL}/sign-up?invite=${code}`);
  await A.page.getByRole('button', { name: 'Copy' }).click();
  await expect(notification(A.page, 'copied to clipboard!')).toBeVisible();
  expect(await A.page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // B follows the copied link, signs up with the checked invite and confirms by the mailed code.
  const bContext = await browser.newContext({ baseURL });
  const bPage = await bContext.newPage();
  const bWallet = TestWallet.random(bPage);
  await bWallet.install();
  await fund(bWallet);
  await bPage.goto(link);
  await expect.poll(async () => (await bContext.cookies()).find((c) => c.name === 'invite')?.value).toBe(code);
  await bPage.goto('/sign-up');
  await expect(bPage.getByLabel('Invite code')).toHaveValue(code);
  await expect(bPage.getByText('The invite code is verified.')).toBeVisible();
  const bLogin = uniqueEmail('ref-b');
  await bPage.getByLabel('E-mail').fill(bLogin);
  await bPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await bPage.getByLabel('Repeat the password').fill(PASSWORD);
  await bPage.getByLabel('I agree to the privacy policy and the terms and conditions').check();
  await bPage.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(bPage).toHaveURL(/\/registration-confirm$/);
  await bPage.getByLabel('Code from the e-mail').fill(await mailedCode(bPage.request, bLogin, 'approve'));
  await bPage.getByRole('button', { name: 'Confirm' }).click();
  await expect(bPage).toHaveURL(/\/cabinet\/dashboard$/);
  const B: Member = { login: bLogin, context: bContext, page: bPage, wallet: bWallet };

  // C through B's invite, D through C's: A ← B ← C ← D.
  const bCode = (await apiGet<{ referralId: string }>(B, '/referrals')).referralId;
  const C = await member(browser, 'ref-c', bCode);
  const D = await member(browser, 'ref-d', (await apiGet<{ referralId: string }>(C, '/referrals')).referralId);

  // A cycle cannot be made: the referrer is bound once, at sign-up, to an account that existed before.
  const dCode = (await apiGet<{ referralId: string }>(D, '/referrals')).referralId;
  const again = await (await requests.newContext({ baseURL })).post('/api/v1/register', { data: { login: A.login, password: PASSWORD, invite: dCode } });
  expect(again.status()).toBeGreaterThanOrEqual(400);
  expect((await apiGet<{ members: number }>(D, '/referrals')).members).toBe(0);

  for (const [m, usd] of [[B, DEPOSITS.B], [C, DEPOSITS.C], [D, DEPOSITS.D]] as const) await depositUsdt(m, usd);

  // A day pays on its lowest balance: deposits made during the first open day (today on a fresh
  // stack) earn from the day after; made before it (the calendar ahead), from that day.
  const earnFrom = from > today() ? from : addDays(from, 1);
  operatorOk('accrue', '--until', addDays(earnFrom, DAYS - 1));
  for (const m of [B, C, D]) expect(await interestDays(m), m.login).toBe(DAYS);

  const rate = dailyRate(DEX_APY.num, DEX_APY.den);
  const interest = (usd: bigint) => dailyInterest(usd * UNIT, rate, DAYS);
  const fromB = rewardOn(interest(DEPOSITS.B), LEVELS[0]!);
  const fromC = rewardOn(interest(DEPOSITS.C), LEVELS[1]!);
  const fromD = rewardOn(interest(DEPOSITS.D), LEVELS[2]!);
  const total = fromB + fromC + fromD;
  expect(fromB > 0n && fromC > 0n && fromD > 0n).toBe(true);

  // A's page: members by level, the rewards, and each level's member earning its level's rate.
  await A.page.goto('/cabinet/refferal');
  await expect(A.page.getByTestId('network-members')).toContainText('3');
  for (const level of [1, 2, 3]) await expect(levels.getByTestId(`level-${level}`).getByTestId('members')).toHaveText('1');
  await expectAmount(A.page.getByTestId('reward-all-time'), total, 6, 'USDT');
  await expectAmount(A.page.getByTestId('reward-available'), total, 6, 'USDT');
  await expectAmount(A.page.getByTestId('reward-in-payment'), 0n, 6, 'USDT');
  await expect(A.page.getByTestId('rank-current')).toHaveText('Your rank: Starter');

  await A.page.goto('/cabinet/affiliates');
  for (const [level, m, reward] of [[1, B, fromB], [2, C, fromC], [3, D, fromD]] as const) {
    await A.page.getByRole('combobox', { name: 'Level', exact: true }).selectOption(String(level));
    const row = A.page.getByTestId('affiliate');
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('affiliate-member')).toHaveText(`${m.login[0]}***@example.com`);
    await expectAmount(row.getByTestId('affiliate-rewards'), reward, 6, 'USDT');
  }
  // B earns from C at level 1 and from D at level 2.
  const bHarvest = await apiGet<{ allTime: string }>(B, '/referrals/harvest');
  expect(BigInt(bHarvest.allTime)).toBe(rewardOn(interest(DEPOSITS.C), LEVELS[0]!) + rewardOn(interest(DEPOSITS.D), LEVELS[1]!));

  // The claim is paid from the float, signed by the signer; A deposits in the stable pool as well.
  // A's wallet is linked on the way. The payout waits for the operator's approval, so the payment is in progress for a while.
  await depositUsdt(A, 10n, 'stable');
  await A.page.goto('/cabinet/refferal');
  const walletBefore = await usdtBalance(A.wallet, A.wallet.address);
  operatorOk('payouts', 'set', 'USDT', '--threshold', '0');
  try {
    // Held on its way until the sending state has been seen: a fixed delay is shorter than a click on a busy machine.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await A.page.route('**/api/v1/referrals/withdraw', async (route) => {
      await held;
      await route.continue();
    });
    const claim = A.page.getByRole('button', { name: /Claim rewards|Sending Request\.\.\./ });
    await claim.click();
    await expect(A.page.getByTestId('claim-state')).toHaveText('Sending Request...');
    release();
    await expect(A.page.getByTestId('claim-state')).toHaveText('Withdrawal request has been successfully sent! Payment will be processed soon.');
    await expectAmount(A.page.getByTestId('reward-in-payment'), total, 6, 'USDT');
    await expectAmount(A.page.getByTestId('reward-available'), 0n, 6, 'USDT');
    await A.page.unroute('**/api/v1/referrals/withdraw');

    await claim.click();
    await expect(A.page.getByTestId('claim-state')).toHaveText('Please wait for the current payment to complete before making a new claim');
    // The server refuses it too, whatever the page knows.
    const second = await A.page.request.post('/api/v1/referrals/withdraw', { headers: { Authorization: `Bearer ${await tokenOf(A)}` } });
    expect(second.status()).toBe(409);
    expect(((await second.json()) as { message: string }).message).toBe('Please wait for the current payment to complete before making a new claim');

    const waiting = operatorOk('withdrawals', 'list', '--status', 'awaiting_approval');
    const id = waiting.split('\n').find((l) => l.includes(A.wallet.address.toLowerCase()))?.trim().split(/\s+/)[0];
    expect(id, waiting).toMatch(/^\d+$/);
    operatorOk('withdrawals', 'approve', id!);
  } finally {
    operatorOk('payouts', 'set', 'USDT', '--threshold', 'none');
  }
  await expect(A.page.getByTestId('latest-claim-status')).toHaveText('Paid', { timeout: 60_000 });
  await expectAmount(A.page.getByTestId('reward-paid'), total, 6, 'USDT');
  await expect(A.page.getByTestId('latest-claim-link')).toHaveAttribute('href', /^https:\/\/etherscan\.io\/tx\/0x[0-9a-f]{64}$/);
  expect(await usdtBalance(A.wallet, A.wallet.address)).toBe(walletBefore + total);

  // B withdraws everything: A's capital attracted drops by B's position.
  const capital = async () => (await apiGet<{ capitalAttractedUsd: string }>(A, '/referrals')).capitalAttractedUsd;
  const capitalBefore = await capital();
  await expect(A.page.getByTestId('network-capital')).toContainText(`$\u00a0${Number(capitalBefore).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
  await B.page.goto('/cabinet/pools/dex');
  await B.page.getByRole('tab', { name: 'Withdraw' }).click();
  const withdraw = B.page.getByRole('tabpanel', { name: 'Withdraw' });
  await withdraw.getByLabel('Currency').selectOption('USDT');
  await withdraw.getByRole('button', { name: 'Max' }).click();
  await withdraw.getByRole('button', { name: 'Request withdrawal' }).click();
  // The quote comes first (issue 27): the request goes once it is confirmed.
  await withdraw.getByRole('button', { name: 'Confirm withdrawal' }).click();
  await expect(notification(B.page, 'Withdrawal request has been successfully sent! Payment will be processed soon.')).toBeVisible();
  await expect.poll(capital).not.toBe(capitalBefore);
  const capitalAfter = await capital();
  expect(Number(capitalAfter)).toBeLessThan(Number(capitalBefore));
  await A.page.reload();
  await expect(A.page.getByTestId('network-capital')).toContainText(`$\u00a0${Number(capitalAfter).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);

  for (const m of [A, B, C, D]) await m.context.close();
});

test('the referral pages in Russian and English, light and dark, at 390 px: no sideways scrolling, keyboard, axe', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signedUpAndConfirmed(page.request);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [path, heading, copy] of [
      ['/cabinet/refferal', 'Referral program', 'Copy'],
      ['/ru/cabinet/refferal', 'Реферальная программа', 'Копировать'],
      ['/cabinet/affiliates', 'Affiliates', null],
      ['/ru/cabinet/affiliates', 'Партнёры', null],
    ] as const) {
      // The language a page was last seen in is remembered; an English address after a Russian one would be sent to /ru.
      if (!path.startsWith('/ru')) await page.context().clearCookies({ name: 'lang' });
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      if (copy) {
        await expect(page.getByTestId('referral-qr')).toBeVisible();
        await expect(page.getByTestId('rewards')).toContainText(path.startsWith('/ru') ? 'Доступно к получению' : 'Available to claim');
        // By keyboard: the Copy button takes focus and works with Enter.
        await page.getByRole('textbox', { name: path.startsWith('/ru') ? 'Реферальная ссылка' : 'Referral link' }).focus();
        await page.keyboard.press('Tab');
        await expect(page.getByRole('button', { name: copy })).toBeFocused();
      } else {
        await expect(page.getByTestId('affiliates-empty')).toBeVisible();
      }
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      // What sticks out, named in the failure.
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} "${(e.textContent ?? '').slice(0, 30)}"`),
      );
      expect(sideways, `${path} ${scheme}: ${wide.join(', ')}`).toBeLessThanOrEqual(0);
      if (process.env.REFERRAL_SCREENSHOTS) await page.screenshot({ path: `${process.env.REFERRAL_SCREENSHOTS}/${path.replace(/\//g, '_')}-390-${scheme}.png`, fullPage: true });
      expect(await seriousViolations(page), `${path} ${scheme}`).toEqual([]);
    }
  }
});
