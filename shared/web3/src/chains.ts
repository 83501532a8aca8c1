// Currencies and chains of the product (spec §3, §9); the pools and the supported chain id live in
// @app/contracts. No ethers here: the frontends import this module on first load, so it must stay tiny.

/** Every currency a user can deposit, in the order the spec lists them (spec §1). ETH is the native coin. */
export const CURRENCIES = ['USDT', 'USDC', 'WAVES', 'BUSD', 'SOL', 'BNB', 'ETH'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** The currencies that are ERC-20 tokens (everything but the native ETH). */
export const TOKEN_CURRENCIES = ['USDT', 'USDC', 'WAVES', 'BUSD', 'SOL', 'BNB'] as const;
export type TokenCurrency = (typeof TOKEN_CURRENCIES)[number];

/** The stablecoins: the only currencies that also exist on chains other than Ethereum (spec §3). */
export const STABLECOINS = ['USDT', 'USDC', 'BUSD'] as const satisfies readonly TokenCurrency[];

/** Keys of the wallet's balances, in the spec's order (spec §3 "Wallet state", §9). */
export const BALANCE_CURRENCIES = ['BNB', 'BUSD', 'ETH', 'SOL', 'USDC', 'USDT', 'WAVES'] as const satisfies readonly Currency[];

/** Chains that have token addresses in the table (spec §3, §9). */
export const CHAIN_IDS = [1, 137, 56, 250] as const;
export type ChainId = (typeof CHAIN_IDS)[number];

export interface ChainInfo {
  readonly id: ChainId;
  readonly name: string;
  /** Symbol of the chain's native coin, what a wallet shows for gas. */
  readonly nativeSymbol: string;
  /** Block explorer, without a trailing slash. */
  readonly explorerUrl: string;
}

export const CHAINS: Readonly<Record<ChainId, ChainInfo>> = {
  1: { id: 1, name: 'Ethereum', nativeSymbol: 'ETH', explorerUrl: 'https://etherscan.io' },
  137: { id: 137, name: 'Polygon', nativeSymbol: 'POL', explorerUrl: 'https://polygonscan.com' },
  56: { id: 56, name: 'BNB Smart Chain', nativeSymbol: 'BNB', explorerUrl: 'https://bscscan.com' },
  250: { id: 250, name: 'Fantom Opera', nativeSymbol: 'FTM', explorerUrl: 'https://ftmscan.com' },
};

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

export function isTokenCurrency(value: unknown): value is TokenCurrency {
  return typeof value === 'string' && (TOKEN_CURRENCIES as readonly string[]).includes(value);
}

/** True for a chain in the table; wallets report ids as numbers, bigints or hex strings. */
export function isKnownChain(chainId: number | bigint | string): boolean {
  return toChainId(chainId) !== undefined;
}

/** Normalises a wallet's chain id (number, bigint, decimal or 0x-hex string) to a known ChainId. */
export function toChainId(chainId: number | bigint | string): ChainId | undefined {
  let id: number;
  if (typeof chainId === 'string') {
    const text = chainId.trim();
    if (!/^(0x[0-9a-f]+|[0-9]+)$/i.test(text)) return undefined;
    id = Number(text);
  } else {
    id = Number(chainId);
  }
  return (CHAIN_IDS as readonly number[]).includes(id) ? (id as ChainId) : undefined;
}

/** Link to a transaction on the chain's block explorer (the deposit notice shows it). */
export function explorerTxUrl(chainId: ChainId, hash: string): string {
  return `${CHAINS[chainId].explorerUrl}/tx/${hash}`;
}

export function explorerAddressUrl(chainId: ChainId, address: string): string {
  return `${CHAINS[chainId].explorerUrl}/address/${address}`;
}
