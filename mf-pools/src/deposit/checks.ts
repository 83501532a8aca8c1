// The checks before a deposit is sent, in the order the person meets them (spec §5, §8): a wallet
// first, then the network, then an amount, then a pool that can take the coin, then enough money.
import { type WalletState, SUPPORTED_CHAIN_ID } from '@app/contracts';
import { isDepositable, type PoolCoin } from '../pool/poolCoins';
import { depositUnits } from './amounts';

export type DepositRefusal =
  | { reason: 'notConnected' }
  | { reason: 'unsupportedNetwork'; chainId: number | null }
  | { reason: 'amountRequired' }
  | { reason: 'coinUnavailable'; coin: string }
  | { reason: 'notEnoughMoney'; coin: string }
  /** A token deposit with no ETH in the wallet to pay the network fee: refused before anything is sent. */
  | { reason: 'noGas'; coin: string }
  /** The wallet or node refused the transaction; said in the product's words beside the form. */
  | { reason: 'walletFailed'; failure: import('../errors').WalletFailure };

export type DepositCheck = { ok: true; units: bigint } | ({ ok: false } & DepositRefusal);

/** The wallet's balance of a currency in base units (spec §3: a missing balance is 0). */
export function walletBalance(wallet: WalletState, currency: string): bigint {
  const text = wallet.balances[currency];
  return text && /^\d+$/.test(text) ? BigInt(text) : 0n;
}

export function checkDeposit(wallet: WalletState, usd: string, coin: PoolCoin, exact: bigint | null = null): DepositCheck {
  if (!wallet.connected || !wallet.account) return { ok: false, reason: 'notConnected' };
  if (wallet.chainId !== SUPPORTED_CHAIN_ID) return { ok: false, reason: 'unsupportedNetwork', chainId: wallet.chainId };
  if (exact === null ? !/[1-9]/.test(usd) : exact <= 0n) return { ok: false, reason: 'amountRequired' };
  if (!isDepositable(coin)) return { ok: false, reason: 'coinUnavailable', coin: coin.currency };
  // A coin amount typed by the user is sent as it is; a dollar amount becomes coins rounded up.
  const units = exact ?? depositUnits(usd, coin);
  if (units === null) return { ok: false, reason: 'coinUnavailable', coin: coin.currency };
  if (units > walletBalance(wallet, coin.currency)) return { ok: false, reason: 'notEnoughMoney', coin: coin.currency };
  // A token transfer's fee is paid in ETH: with none, the wallet would fail it after asking.
  if (coin.currency !== 'ETH' && walletBalance(wallet, 'ETH') <= 0n) return { ok: false, reason: 'noGas', coin: coin.currency };
  return { ok: true, units };
}
