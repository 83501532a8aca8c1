// Funding any address on the local chain, e.g. the browser tests' wallets.

import { ETH_DECIMALS, parseUnits, type TokenCurrency } from '@app/web3';
import { rpc, toQuantity } from './rpc';
import { LOCAL_TOKENS, mintToken } from './tokens';

export interface Funding {
  /** Whole ETH to add to the balance, as a decimal string. */
  eth?: string;
  /** Whole tokens to mint per currency, as decimal strings. */
  tokens?: Partial<Record<TokenCurrency, string>>;
}

/** What fundAccount gives when asked for nothing in particular: enough for any test deposit. */
export const DEFAULT_FUNDING: Required<Funding> = {
  eth: '100',
  tokens: { USDT: '100000', USDC: '100000', BUSD: '100000', SOL: '1000', BNB: '1000', WAVES: '100000' },
};

/**
 * Adds ETH and mints tokens to `address`. ETH is added with anvil_setBalance (no transaction, so no
 * dev account's nonce is touched); tokens are minted with a real transaction and Transfer log.
 */
export async function fundAccount(rpcUrl: string, address: string, funding: Funding = DEFAULT_FUNDING): Promise<void> {
  if (funding.eth !== undefined) {
    const current = BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [address, 'latest']));
    const added = parseUnits(funding.eth, ETH_DECIMALS);
    await rpc(rpcUrl, 'anvil_setBalance', [address, toQuantity(current + added)]);
  }
  for (const [currency, amount] of Object.entries(funding.tokens ?? {}) as [TokenCurrency, string][]) {
    const token = LOCAL_TOKENS.find((t) => t.currency === currency);
    if (!token) throw new Error(`no local token ${currency}`);
    await mintToken(rpcUrl, token, address, parseUnits(amount, token.decimals));
  }
}
