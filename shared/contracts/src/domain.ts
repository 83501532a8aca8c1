// Plain facts of the product that the server and the pages share, apart from the
// schemas: a page's start-up imports these without zod.

/** The pools, in the order of the menu (spec §2: stable, coin, dex). */
export const POOL_NAMES = ['stable', 'coin', 'dex'] as const;
export type PoolName = (typeof POOL_NAMES)[number];

export function isPoolName(value: unknown): value is PoolName {
  return typeof value === 'string' && (POOL_NAMES as readonly string[]).includes(value);
}

/**
 * The one chain deposits, payouts, sign-in (SIWE) and votes (EIP-712) use: Ethereum mainnet
 * (spec §5, §9). The local chain answers the same id, so nothing is told apart by it.
 */
export const SUPPORTED_CHAIN_ID = 1;
