// Installs the project's ERC-20 at the real Ethereum mainnet addresses of the six tokens, so that the
// token table in @app/web3 is the same locally and in production.

import { TOKENS, TOKEN_CURRENCIES, parseUnits, type TokenCurrency } from '@app/web3';
import artifactJson from '../artifacts/LocalToken.json';
import { DEV_ACCOUNTS } from './accounts';
import type { TokenArtifact } from './compile';
import { RpcError, rpc, toQuantity } from './rpc';

export const TOKEN_ARTIFACT = artifactJson as TokenArtifact;

export interface LocalToken {
  readonly currency: TokenCurrency;
  readonly address: `0x${string}`;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
}

// The names the real contracts report, so wallets show what they would on mainnet.
const NAMES: Record<TokenCurrency, string> = {
  USDT: 'Tether USD',
  USDC: 'USD Coin',
  WAVES: 'WAVES',
  BUSD: 'Binance USD',
  SOL: 'SOL (Wormhole)',
  BNB: 'BNB',
};

export const LOCAL_TOKENS: readonly LocalToken[] = TOKEN_CURRENCIES.map((currency) => {
  const token = TOKENS[1][currency];
  if (!token) throw new Error(`the token table has no ${currency} on chain 1`);
  return { currency, address: token.address, name: NAMES[currency], symbol: currency, decimals: token.decimals };
});

/**
 * The only account allowed to mint. Not a dev account: it is impersonated on anvil, so minting never
 * competes with a test's own transactions for a dev account's nonce.
 */
export const MINTER = '0x000000000000000000000000000000000000a11c' as const;

/** What each dev account receives of every token when the tokens are installed, in whole tokens. */
export const DEV_TOKEN_FUNDING = '1000000';

const MINT_SELECTOR = '0x40c10f19'; // mint(address,uint256)

/** Storage words for a token: short strings inline (length * 2 in the low byte), packed value types. */
export function tokenStorage(token: LocalToken, minter: string = MINTER): Map<string, bigint> {
  const values: Record<string, bigint> = {
    name: shortString(token.name),
    symbol: shortString(token.symbol),
    decimals: BigInt(token.decimals),
    minter: BigInt(minter),
  };
  const words = new Map<string, bigint>();
  for (const entry of TOKEN_ARTIFACT.storageLayout) {
    const value = values[entry.label];
    if (value === undefined) continue;
    const slot = toQuantity(BigInt(entry.slot));
    // A string's word is the whole slot; value types sit `offset` bytes up from the low end.
    const shifted = entry.type.startsWith('t_string') ? value : value << BigInt(entry.offset * 8);
    words.set(slot, (words.get(slot) ?? 0n) | shifted);
  }
  return words;
}

function shortString(text: string): bigint {
  const bytes = new TextEncoder().encode(text);
  // Longer strings move to keccak-addressed slots; none of the six names need that.
  if (bytes.length > 31) throw new Error(`"${text}" is too long to store inline`);
  const word = new Uint8Array(32);
  word.set(bytes);
  word[31] = bytes.length * 2;
  return BigInt(`0x${Buffer.from(word).toString('hex')}`);
}

const word32 = (value: bigint): string => `0x${value.toString(16).padStart(64, '0')}`;

/** True when the token's code is the current artifact (older code is replaced on start). */
async function hasCurrentCode(rpcUrl: string, address: string): Promise<boolean> {
  const code = await rpc<string>(rpcUrl, 'eth_getCode', [address, 'latest']);
  return code.toLowerCase() === TOKEN_ARTIFACT.deployedBytecode.toLowerCase();
}

/**
 * Places any missing token and funds the dev accounts with it; tokens already there (a chain restored
 * from its state file) are left alone, balances included. Returns the currencies it installed.
 */
export async function installTokens(rpcUrl: string): Promise<TokenCurrency[]> {
  const installed: TokenCurrency[] = [];
  for (const token of LOCAL_TOKENS) {
    if (await hasCurrentCode(rpcUrl, token.address)) continue;
    await rpc(rpcUrl, 'anvil_setCode', [token.address, TOKEN_ARTIFACT.deployedBytecode]);
    for (const [slot, value] of tokenStorage(token)) {
      await rpc(rpcUrl, 'anvil_setStorageAt', [token.address, word32(BigInt(slot)), word32(value)]);
    }
    const amount = parseUnits(DEV_TOKEN_FUNDING, token.decimals);
    for (const account of DEV_ACCOUNTS) await mintToken(rpcUrl, token, account.address, amount);
    installed.push(token.currency);
  }
  return installed;
}

/**
 * Mints through a real transaction, so balances, totalSupply and the Transfer log all agree. Mints
 * are queued per chain in this process; a nonce clash with another process minting at the same moment
 * ("nonce too low", "replacement transaction underpriced") is retried, since anvil picks the
 * impersonated minter's nonce when the request arrives.
 */
export function mintToken(rpcUrl: string, token: LocalToken, to: string, units: bigint): Promise<void> {
  const previous = mintQueues.get(rpcUrl) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => mintNow(rpcUrl, token, to, units));
  mintQueues.set(rpcUrl, next);
  return next;
}

const mintQueues = new Map<string, Promise<void>>();

// Every mint offers the same fees. Two mints that drew the same nonce then never replace one another
// (the second is refused as underpriced and retried); with fees from the base fee of the moment, a
// later one could replace an earlier one in the pool, and the earlier hash would never be mined.
const MINT_FEES = { maxFeePerGas: toQuantity(10n ** 12n), maxPriorityFeePerGas: toQuantity(10n ** 9n) };

async function mintNow(rpcUrl: string, token: LocalToken, to: string, units: bigint): Promise<void> {
  await rpc(rpcUrl, 'anvil_impersonateAccount', [MINTER]);
  // Gas money for the minter; setting is idempotent, unlike a transfer.
  await rpc(rpcUrl, 'anvil_setBalance', [MINTER, toQuantity(10n ** 21n)]);
  const data = MINT_SELECTOR + word32(BigInt(to)).slice(2) + word32(units).slice(2);
  for (let attempt = 1; ; attempt++) {
    try {
      const hash = await rpc<string>(rpcUrl, 'eth_sendTransaction', [{ from: MINTER, to: token.address, data, ...MINT_FEES }]);
      await waitForReceipt(rpcUrl, hash, `mint of ${token.symbol}`);
      return;
    } catch (error) {
      if (attempt >= 20 || !(error instanceof RpcError) || !/nonce|underpriced|already known|dropped/i.test(error.message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/** Resolves once `hash` is mined; an RpcError saying "dropped" if the node no longer knows it (replaced). */
export async function waitForReceipt(rpcUrl: string, hash: string, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await rpc<{ status: string } | null>(rpcUrl, 'eth_getTransactionReceipt', [hash]);
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error(`${what} failed (transaction ${hash})`);
      return;
    }
    // Only reached when the chain does not auto-mine (a block time was set), or the transaction is gone.
    if ((await rpc<unknown>(rpcUrl, 'eth_getTransactionByHash', [hash])) === null) {
      throw new RpcError(`${what}: transaction ${hash} was dropped`);
    }
    if (Date.now() > deadline) throw new Error(`${what} was not mined within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
