import type { DashboardPoolResponse } from '@app/contracts';
import { isCurrency, type Currency } from '@app/web3';

/** A coin a pool accepts: where to send it and its price in US dollars (spec §3 "Pools state"). */
export interface PoolCoin {
  currency: Currency;
  /** The pool's receiving address for this coin. */
  address: string;
  /** US dollars per whole coin, as a decimal string ("0" when the pool has no estimate). */
  toFiat: string;
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** Spec §3: when a pool is missing, the coin list is one entry ETH with toFiat 0 and address 0x0. */
export const MISSING_POOL_COINS: readonly PoolCoin[] = [{ currency: 'ETH', address: ZERO_ADDRESS, toFiat: '0' }];

/** The coins of a pool answer, in the server's order; currencies the product does not know are left out. */
export function poolCoins(pool: DashboardPoolResponse | null | undefined): readonly PoolCoin[] {
  if (!pool) return MISSING_POOL_COINS;
  const coins = Object.entries(pool.addresses)
    .filter((entry): entry is [Currency, string] => isCurrency(entry[0]))
    .map(([currency, address]) => ({ currency, address, toFiat: pool.estimate[currency] ?? '0' }));
  return coins.length ? coins : MISSING_POOL_COINS;
}

/** True when the pool can take this coin: a real address and a price to convert dollars with. */
export function isDepositable(coin: PoolCoin): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(coin.address) && coin.address !== ZERO_ADDRESS && /[1-9]/.test(coin.toFiat);
}
