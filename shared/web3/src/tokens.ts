// The token table: per chain and currency, the public ERC-20 contract and its decimals (spec §3).
// The local chain places the project's test tokens at the same Ethereum addresses, so this one table
// serves development, tests and production alike. No ethers here (first-load module).

import { CHAIN_IDS, type ChainId, type Currency, type TokenCurrency } from './chains';

export interface TokenInfo {
  /** EIP-55 checksummed contract address. */
  readonly address: `0x${string}`;
  readonly decimals: number;
}

/** Decimals of ETH, the native coin: amounts are in wei (spec §9: wei scale 10^18). */
export const ETH_DECIMALS = 18;
export const WEI_SCALE = 10n ** 18n;

/**
 * Real public contracts. Only the stablecoins exist off Ethereum (spec §3); on BNB Smart Chain their
 * Binance-Peg contracts have 18 decimals, not 6.
 */
export const TOKENS: Readonly<Record<ChainId, Readonly<Partial<Record<TokenCurrency, TokenInfo>>>>> = {
  1: {
    USDT: { address: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 },
    USDC: { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 },
    BUSD: { address: '0x4Fabb145d64652a948d72533023f6E7A623C7C53', decimals: 18 },
    // Wormhole's wrapped SOL keeps Solana's 9 decimals.
    SOL: { address: '0xD31a59c85aE9D8edEFeC411D448f90841571b89c', decimals: 9 },
    // The original BNB ERC-20 from Binance's 2017 token sale.
    BNB: { address: '0xB8c77482e45F1F44dE1745F52C74426C631bDD52', decimals: 18 },
    WAVES: { address: '0x1cF4592ebfFd730c7dc92c1bdFFDfc3B9EfCf29a', decimals: 18 },
  },
  137: {
    USDT: { address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
    // Circle's native USDC (the older bridged USDC.e lives at 0x2791Bca1…84174).
    USDC: { address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', decimals: 6 },
    BUSD: { address: '0xdAb529f40E671A1D4bF91361c21bf9f0C9712ab7', decimals: 18 },
  },
  56: {
    USDT: { address: '0x55d398326f99059fF775485246999027B3197955', decimals: 18 },
    USDC: { address: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18 },
    BUSD: { address: '0xe9e7CEA3DedcA5984780Bafc599bD69ADd087D56', decimals: 18 },
  },
  250: {
    USDT: { address: '0x049d68029688eAbF473097a2fC38ef61633A3C7A', decimals: 6 },
    USDC: { address: '0x04068DA6C83AFCFA0e13ba15A6696662335D5B75', decimals: 6 },
    BUSD: { address: '0xC931f61B1534EB21D8c11B24f3f5Ab2471d4aB50', decimals: 18 },
  },
};

/** The token contract of a currency on a chain; undefined for ETH or where the token does not exist. */
export function tokenOf(currency: Currency, chainId: ChainId): TokenInfo | undefined {
  if (currency === 'ETH') return undefined;
  return TOKENS[chainId][currency];
}

/**
 * Decimals of a currency's base unit on a chain (ETH: 18). Undefined where the currency does not
 * exist, so a caller cannot silently scale by the wrong power of ten.
 */
export function decimalsOf(currency: Currency, chainId: ChainId): number | undefined {
  if (currency === 'ETH') return ETH_DECIMALS;
  return TOKENS[chainId][currency]?.decimals;
}

/** The currencies a wallet on this chain can hold and deposit, ETH first. */
export function currenciesOn(chainId: ChainId): Currency[] {
  return ['ETH', ...(Object.keys(TOKENS[chainId]) as TokenCurrency[])];
}

/** Which currency a token contract is, matching addresses case-insensitively (logs are lower-case). */
export function currencyOfToken(chainId: ChainId, address: string): TokenCurrency | undefined {
  const wanted = address.toLowerCase();
  for (const [currency, token] of Object.entries(TOKENS[chainId]) as [TokenCurrency, TokenInfo][]) {
    if (token.address.toLowerCase() === wanted) return currency;
  }
  return undefined;
}

/** Every (chain, currency, token) triple, handy for seeding and for tests. */
export function allTokens(): { chainId: ChainId; currency: TokenCurrency; token: TokenInfo }[] {
  return CHAIN_IDS.flatMap((chainId) =>
    (Object.entries(TOKENS[chainId]) as [TokenCurrency, TokenInfo][]).map(([currency, token]) => ({
      chainId,
      currency,
      token,
    })),
  );
}
