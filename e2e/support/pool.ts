// The pool page as a person drives it: a funded test wallet, a signed-in account, a deposit in dollars.
import { expect, type Locator, type Page } from '@playwright/test';
import type { PoolName } from '@app/contracts';
import { signedUpAndConfirmed } from './accounts';
import { TestWallet } from './testWallet';

export const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
/** The local tokens' minter (chain/src/tokens.ts); the node signs for it once impersonated. */
export const MINTER = '0x000000000000000000000000000000000000a11c';
export const word = (value: bigint) => value.toString(16).padStart(64, '0');

/** 100 ETH and 100,000 USDT for the test wallet, over the local chain's RPC. */
export async function fund(wallet: TestWallet): Promise<void> {
  await wallet.chain.send('anvil_setBalance', [wallet.address, `0x${(100n * 10n ** 18n).toString(16)}`]);
  await wallet.chain.send('anvil_impersonateAccount', [MINTER]);
  await wallet.chain.send('anvil_setBalance', [MINTER, `0x${(10n ** 21n).toString(16)}`]);
  const data = `0x40c10f19${word(BigInt(wallet.address))}${word(100_000n * 10n ** 6n)}`;
  for (let attempt = 1; ; attempt++) {
    try {
      const hash: string = await wallet.chain.send('eth_sendTransaction', [{ from: MINTER, to: USDT, data }]);
      // Bounded: a mint that lost a race with another worker's must not hang the test.
      await wallet.chain.waitForTransaction(hash, 1, 15_000);
      return;
    } catch (error) {
      // Another test minting at the same moment takes the minter's nonce: try again.
      if (attempt >= 20 || !/nonce|underpriced|already known|timeout/i.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

export const notifications = (page: Page) => page.getByRole('region', { name: /Notifications|Уведомления/ });
export const notification = (page: Page, text: string | RegExp) => notifications(page).getByText(text);

/** Dismisses the notices: for their 3000 ms they sit over the top of the page (the tabs). */
export async function dismissNotices(page: Page): Promise<void> {
  const dismiss = notifications(page).getByRole('button', { name: 'Dismiss' });
  for (let n = await dismiss.count(); n > 0; n = await dismiss.count()) {
    await dismiss.first().click({ timeout: 2000 }).catch(() => undefined);
  }
}

export interface PoolVisit {
  /** Fund the wallet with ETH and every token. */
  fund?: boolean;
  /** Connect the wallet from the header and wait until it is linked to the account. */
  connect?: boolean;
}

export async function openPool(page: Page, pool: PoolName, { fund: fundWallet = true, connect = true }: PoolVisit = {}) {
  const wallet = TestWallet.random(page);
  await wallet.install();
  if (fundWallet) await fund(wallet);
  const { login } = await signedUpAndConfirmed(page.request);
  await page.goto(`/cabinet/pools/${pool}`);
  await expect(page.getByRole('tab', { name: 'Deposit' })).toHaveAttribute('aria-selected', 'true');
  if (connect) {
    await page.getByRole('banner').getByRole('button', { name: 'Connect wallet' }).click();
    // Linked: the header shows the address. (The notice saying so lasts 3 s, and a busy machine can miss it.)
    await expect(page.getByRole('banner').getByTestId('linked-wallet')).toHaveAttribute('title', new RegExp(`^${wallet.address}$`, 'i'), { timeout: 30_000 });
  }
  return { wallet, login, panel: page.getByRole('tabpanel', { name: 'Deposit' }) };
}

/**
 * Types a dollar amount, waits for the coin amount it becomes, and sends it, once the wallet's
 * balance of the coin has been read (as a person waits for it: before that it shows as 0).
 */
export async function deposit(panel: Locator, currency: string, usd: string): Promise<string> {
  await panel.getByLabel('Currency').selectOption(currency);
  await expect(panel.getByText(new RegExp(`^Wallet balance: [0-9,.]*[1-9][0-9,.]*\\s${currency}\\b`))).toBeVisible({ timeout: 30_000 });
  await panel.getByLabel('Amount in US dollars').fill(usd);
  await expect(panel.getByLabel('Amount in US dollars')).toHaveValue(`$ ${usd}`);
  const preview = panel.getByText(new RegExp(`^≈ [0-9.]+\\s${currency}$`));
  await expect(preview).toBeVisible();
  const coins = /≈ ([0-9.]+)/.exec((await preview.textContent()) ?? '')![1]!;
  await panel.getByRole('button', { name: 'Deposit' }).click();
  return coins;
}

/** The hash from the success notice, which links to the block explorer. */
export async function sentHash(page: Page): Promise<string> {
  const notice = notification(page, /^Transaction sent: 0x[0-9a-f]{64}$/);
  await expect(notice).toBeVisible();
  const hash = /0x[0-9a-f]{64}/.exec((await notice.textContent()) ?? '')![0];
  await expect(notifications(page).getByRole('link', { name: 'View on Etherscan' })).toHaveAttribute('href', `https://etherscan.io/tx/${hash}`);
  return hash;
}

