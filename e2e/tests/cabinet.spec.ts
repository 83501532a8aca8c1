// The cabinet with real money movements: deposits through the pool pages, 30 days of interest accrued
// by the operator, and every figure on the dashboard checked against an independent computation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from '../support/axe';
import { signedUpAndConfirmed } from '../support/accounts';
import { deposit, dismissNotices, notification, openPool, sentHash } from '../support/pool';
import { dataDir } from '../support/paths';
import { earned } from '../support/interest';

const ETH = 10n ** 18n;
const USDT = 10n ** 6n;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Whole units cut to `digits` places, grouped en-US: what the page prints. */
function whole(units: bigint, decimals: number, digits = 6): string {
  const cut = units / 10n ** BigInt(decimals - digits);
  const int = (cut / 10n ** BigInt(digits)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = (cut % 10n ** BigInt(digits)).toString().padStart(digits, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}
const cents = (units: bigint, priceCents: bigint, decimals: number) => (units * priceCents) / 10n ** BigInt(decimals);
const dollars = (c: bigint) => `$ ${(c / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${String(c % 100n).padStart(2, '0')}`;

async function operator(page: Page, path: string, data: unknown) {
  const key = readFileSync(join(dataDir, 'api', 'operator-key'), 'utf8').trim();
  const res = await page.request.post(`/api/v1/operator/${path}`, { data, headers: { 'x-operator-key': key } });
  expect(res.status(), await res.text()).toBe(200);
}

async function scrollToBottom(page: Page) {
  for (let i = 0; i < 6; i++) {
    await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(100);
  }
}

test.describe.configure({ mode: 'serial' });

test('a new user deposits 1 ETH and 100 USDT, 30 days accrue: the dashboard, chart table, CSV and ROI agree with an independent computation; a withdrawal is paid without a reload', async ({ page }) => {
  test.setTimeout(240_000);
  const day0 = new Date().toISOString().slice(0, 10);
  const { wallet, panel } = await openPool(page, 'coin');

  // The empty state, and the wallet back after a reload without a prompt (eth_accounts only).
  const prompts = wallet.calls.filter((c) => c === 'eth_requestAccounts').length;
  await page.goto('/cabinet/dashboard');
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expect(page.getByTestId('tutorial')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Connect wallet' })).toHaveCount(0);
  expect(wallet.calls.filter((c) => c === 'eth_requestAccounts').length).toBe(prompts);
  expect(wallet.calls).toContain('eth_accounts');

  await operator(page, 'apy', { pool: 'coin', apy: '0.08', effectiveFrom: day0 });
  await operator(page, 'apy', { pool: 'stable', apy: '0.05', effectiveFrom: day0 });

  await page.goto('/cabinet/pools/coin');
  const ethHash = await (async () => {
    await deposit(panel, 'ETH', '3000');
    return sentHash(page);
  })();
  await expect(page.getByTestId('deposit-progress')).toContainText('Credited', { timeout: 30_000 });
  await dismissNotices(page);
  await page.goto('/cabinet/pools/stable');
  await deposit(panel, 'USDT', '100');
  const usdtHash = await sentHash(page);
  await expect(page.getByTestId('deposit-progress')).toContainText('Credited', { timeout: 30_000 });

  await operator(page, 'accrue', { until: addDays(day0, 29) });

  // The deposits' own day, held only in part, earns nothing (a day pays on its lowest balance): 29 days.
  const held = 29;
  const eEth = earned(ETH, 8n, 100n, held);
  const eUsdt = earned(100n * USDT, 5n, 100n, held);
  const dayEth = eEth - earned(ETH, 8n, 100n, held - 1);
  const dayUsdt = eUsdt - earned(100n * USDT, 5n, 100n, held - 1);
  const valueC = cents(ETH + eEth, 300000n, 18) + cents(100n * USDT + eUsdt, 100n, 6);
  const interestC = cents(eEth, 300000n, 18) + cents(eUsdt, 100n, 6);

  await page.goto('/cabinet/dashboard');
  await expect(page.getByTestId('total-value')).toContainText(dollars(valueC));
  await expect(page.getByTestId('total-principal')).toContainText('$ 3,100.00');
  await expect(page.getByTestId('total-interest-all')).toContainText(dollars(interestC));
  await expect(page.getByTestId('total-interest-month')).toContainText(dollars(interestC));
  await expect(page.getByTestId('total-interest-day')).toContainText(dollars(cents(dayEth, 300000n, 18) + cents(dayUsdt, 100n, 6)));
  await expect(page.getByTestId('total-profit')).toContainText(dollars(interestC));
  await expect(page.getByTestId('empty-state')).toHaveCount(0);
  const coinCard = page.getByTestId('pool-card-coin');
  await expect(coinCard.getByTestId('apy')).toHaveText('8 %');
  await expect(coinCard.getByTestId('position-ETH').getByTestId('balance')).toHaveText(`${whole(ETH + eEth, 18)} ETH`);
  await expect(coinCard.getByTestId('position-ETH').getByTestId('earned')).toHaveText(`${whole(eEth, 18)} ETH`);
  await expect(page.getByTestId('pool-card-stable').getByTestId('position-USDT').getByTestId('balance')).toHaveText(`${whole(100n * USDT + eUsdt, 6)} USDT`);
  await expect(page.getByTestId('reward-coin-ETH')).toContainText(`${whole(dayEth, 18)} ETH`);
  await expect(page.getByTestId('reward-stable-USDT')).toContainText(`${whole(dayUsdt, 6)} USDT`);

  // The balance chart's table: one row a day from the first deposit to the last credited interest.
  await scrollToBottom(page);
  const history = page.getByTestId('balance-history');
  await history.getByRole('button', { name: 'All' }).click();
  await history.getByRole('button', { name: 'Show as table' }).click();
  const rows = history.locator('tbody tr');
  await expect(rows).toHaveCount(31);
  await expect(rows.first().locator('th')).toHaveText(day0);
  await expect(rows.last().locator('th')).toHaveText(addDays(day0, 30));
  await expect(rows.last().locator('td')).toHaveText(dollars(valueC));

  // Activity: every movement in the CSV (2 deposits and 29 days of interest in each of 2 pools).
  const activity = page.getByTestId('activity');
  await expect(activity.getByText('Page 1 of 6')).toBeVisible();
  const download = page.waitForEvent('download');
  await activity.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8').trim().split('\r\n');
  expect(csv).toHaveLength(61);
  expect(csv.filter((l) => l.includes(',interest,'))).toHaveLength(2 * held);
  expect(csv).toContainEqual(expect.stringMatching(new RegExp(`,deposit,coin,ETH,1,credited,${ethHash}$`)));
  expect(csv).toContainEqual(expect.stringMatching(new RegExp(`,deposit,stable,USDT,100,credited,${usdtHash}$`)));

  // The ROI calculator's days held on 1 ETH equal what the engine credited; it says why the deposit's own day is not one.
  await page.goto('/cabinet/pools/coin');
  const roi = page.getByTestId('roi');
  await roi.getByLabel('Amount to project').fill('1');
  await roi.getByLabel('Period, days').fill(String(held));
  await expect(roi.getByTestId('roi-held')).toContainText('each UTC day earns on the lowest balance held during that day');
  await expect(roi.getByTestId('roi-earned')).toContainText(`${whole(eEth, 18, 18)} ETH`);

  // A withdrawal: requested, then paid with an explorer link, without a reload.
  await dismissNotices(page);
  await page.getByRole('tab', { name: 'Withdraw' }).click();
  const withdraw = page.getByRole('tabpanel', { name: 'Withdraw' });
  await withdraw.getByLabel('Amount in ETH').fill('0.5');
  await withdraw.getByRole('button', { name: 'Request withdrawal' }).click();
  await expect(notification(page, /Withdrawal request/)).toBeVisible();
  const withdrawal = page.getByTestId('withdrawal-row').first();
  await expect(withdrawal).toBeVisible({ timeout: 10_000 });
  await expect(withdrawal.getByTestId('withdrawal-status')).toHaveText('Paid', { timeout: 30_000 });
  await expect(withdrawal.getByTestId('withdrawal-link')).toHaveAttribute('href', /^https:\/\/etherscan\.io\/tx\/0x[0-9a-f]{64}$/);
});

test('the dashboard and pool pages under /ru, in the dark theme, at 390 px: Russian, no sideways scrolling, axe', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await signedUpAndConfirmed(page.request);
  for (const [path, heading] of [
    ['/ru/cabinet/dashboard', 'Панель'],
    ['/ru/cabinet/pools', 'Пулы'],
    ['/ru/cabinet/pools/coin', /^Пул /],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await scrollToBottom(page);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(sideways, path).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page), path).toEqual([]);
  }
  await expect(page.getByTestId('converter')).toContainText('Конвертер');
  // The strategy is the server's text, in the page's language (the seeded Russian text).
  await expect(page.getByTestId('strategy-text')).toHaveText('ETH и крупные монеты в стейкинге и в займах.');
});
