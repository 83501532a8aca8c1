import { expect, test } from '../support/fixtures';
import { openPool, sentHash } from '../support/pool';

// Issue 27, finding 4: the deposit keeps the spec's dollar field and adds the exact coin amount
// beside it; "1 ETH" typed there is exactly 10^18 wei on chain.

test('finding 4: a deposit of exactly 1 ETH by its coin amount sends exactly 10^18 wei, and the dollar field follows', async ({ page }) => {
  const { wallet, panel } = await openPool(page, 'coin');
  await expect(panel.getByText(/^Wallet balance: [0-9,.]*[1-9][0-9,.]*\sETH\b/)).toBeVisible({ timeout: 30_000 });
  await panel.getByLabel('Or the amount in ETH').fill('1');
  // The local price of ETH is $3000 (api/src/db/seed.ts): the dollar field shows it, precision 1.
  await expect(panel.getByLabel('Amount in US dollars')).toHaveValue('$ 3000');
  await panel.getByRole('button', { name: 'Deposit' }).click();
  const hash = await sentHash(page);
  const tx = await wallet.chain.getTransaction(hash);
  expect(tx?.value).toBe(10n ** 18n);
  await expect(page.getByTestId('deposit-progress')).toContainText('Credited', { timeout: 30_000 });
});
