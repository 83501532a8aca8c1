import { expect, test } from '../support/fixtures';
import { mailOfKind } from '../support/accounts';
import { operatorPost } from '../support/calendar';
import { deposit, dismissNotices, openPool, sentHash } from '../support/pool';

// Issue 27, finding 5: a withdrawal is quoted (amount, fee, what arrives, approval or hold), confirmed,
// and followed on a timeline to "paid"; what the quote said arrives is what the chain moved.

const WEI = 10n ** 18n;
/** An odd fee, so that every digit of the arithmetic shows: 0.000012345678901234 ETH. */
const FEE = 12_345_678_901_234n;
const AMOUNT = '0.005';

/** Wei as ETH with every digit (the test's own arithmetic): 4987654321098766n → "0.004987654321098766". */
const eth = (wei: bigint) => {
  const fraction = String(wei % WEI).padStart(18, '0').replace(/0+$/, '');
  return `${wei / WEI}${fraction ? `.${fraction}` : ''}`;
};
/** The same as a mail writes it: a whole number keeps one decimal place ("1.0"). */
const mailEth = (wei: bigint) => (eth(wei).includes('.') ? eth(wei) : `${eth(wei)}.0`);

test('finding 5: the withdrawal quote shows amount, fee and what arrives; the timeline reaches paid, and the chain moved exactly the quoted amount; the deposit and the payout are mailed once each', async ({ page }) => {
  test.setTimeout(120_000);
  const { wallet, panel, login } = await openPool(page, 'coin');
  await deposit(panel, 'ETH', '60');
  const deposited = (await wallet.chain.getTransaction(await sentHash(page)))!.value;
  await expect(page.getByTestId('deposit-progress')).toContainText('Credited', { timeout: 30_000 });

  const set = await operatorPost(page.request, 'payouts', { currency: 'ETH', fee: String(FEE) });
  expect(set.status(), await set.text()).toBe(200);
  try {
    await dismissNotices(page);
    await page.getByRole('tab', { name: 'Withdraw' }).click();
    const withdraw = page.getByRole('tabpanel', { name: 'Withdraw' });
    await withdraw.getByLabel('Amount in ETH').fill(AMOUNT);
    await withdraw.getByRole('button', { name: 'Request withdrawal' }).click();

    const amount = 5n * 10n ** 15n;
    const receive = amount - FEE;
    const quote = withdraw.getByTestId('withdraw-quote');
    await expect(quote.getByTestId('quote-amount')).toHaveText(`${eth(amount)}\u00a0ETH`);
    await expect(quote.getByTestId('quote-fee')).toHaveText(`${eth(FEE)}\u00a0ETH`);
    await expect(quote.getByTestId('quote-receive')).toHaveText(`${eth(receive)}\u00a0ETH`);
    expect(eth(receive)).toBe('0.004987654321098766');
    await expect(quote.getByTestId('quote-next')).toHaveText(/No approval is needed/);
    // Nothing is requested before the confirmation.
    expect(((await (await page.request.get('/api/v1/dashboard/withdrawals?pool=coin', { headers: await bearer(page) })).json()) as { items: unknown[] }).items).toEqual([]);

    const before = await wallet.chain.getBalance(wallet.address);
    await quote.getByRole('button', { name: 'Confirm withdrawal' }).click();

    const row = page.getByTestId('withdrawal-row').first();
    const timeline = row.getByTestId('withdrawal-timeline');
    await expect(timeline.locator('[data-step="requested"]')).toHaveAttribute('data-state', 'done', { timeout: 10_000 });
    await expect(timeline.locator('[data-step="paid"]')).toHaveAttribute('data-state', 'current', { timeout: 60_000 });
    await expect(timeline.locator('[data-step="sending"]')).toHaveAttribute('data-state', 'done');
    const link = timeline.getByTestId('timeline-link-paid');
    await expect(link).toHaveAttribute('href', /^https:\/\/etherscan\.io\/tx\/0x[0-9a-f]{64}$/);
    const hash = /0x[0-9a-f]{64}/.exec((await link.getAttribute('href'))!)![0];

    // The chain: the payout sent exactly what the quote said would arrive, to this wallet.
    const tx = await wallet.chain.getTransaction(hash);
    expect(tx?.to?.toLowerCase()).toBe(wallet.address.toLowerCase());
    expect(tx?.value).toBe(receive);
    expect((await wallet.chain.getBalance(wallet.address)) - before).toBe(receive);

    // Issue 27: mail when money moves, read from MailDev: one mail per event, with the amounts the
    // chain moved and the payout's transaction.
    const credited = await mailOfKind(page.request, login, 'deposit-credited');
    expect(credited.subject).toMatch(/: your deposit is credited$/);
    expect(credited.text).toContain(`Your deposit of ${mailEth(deposited)} ETH to the coin pool is credited`);
    const paid = await mailOfKind(page.request, login, 'withdrawal-paid');
    expect(paid.subject).toMatch(/: your withdrawal is paid$/);
    expect(paid.text).toContain(`Your withdrawal of ${mailEth(receive)} ETH from the coin pool is paid to your wallet.`);
    expect(paid.text).toContain(`The transaction: https://etherscan.io/tx/${hash}`);
  } finally {
    await operatorPost(page.request, 'payouts', { currency: 'ETH', fee: '0' });
  }
});

/** The page's own access token is in memory only: a session of the API for the same account reads the list. */
async function bearer(page: import('@playwright/test').Page): Promise<Record<string, string>> {
  const refreshed = await page.request.post('/api/v1/refresh');
  const { token } = (await refreshed.json()) as { token: string };
  return { Authorization: `Bearer ${token}` };
}
