import { and, eq } from 'drizzle-orm';
import { Interface, Transaction } from 'ethers';
import { ERC20_ABI, TOKENS } from '@app/web3';
import type { Db } from '../db/client';
import { hotWalletNonces } from '../db/schema';
import { ChainUnavailable, type ChainReader } from '../chain';

/** What the payouts and the treasury send: ETH, or a token's `transfer`. */
export const erc20 = new Interface(ERC20_ABI as unknown as string[]);

/** The gas estimate is raised by this share (per cent) against a change of state before mining... */
const GAS_MARGIN_PERCENT = 25n;
/** ...and never above this: the house does not pay for whatever a recipient's code chooses to burn. */
export const GAS_CAP = 200_000n;

export type RawReceipt = { status: string; blockNumber: string; blockHash: string; gasUsed: string; effectiveGasPrice: string } | null;
export type Transfer = { to: string; value: bigint; data: string };

export const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;

export function tokenOf(currency: string) {
  if (currency === 'ETH') return null;
  const token = TOKENS[1][currency as keyof (typeof TOKENS)[1]];
  if (!token) throw new Error(`no token contract for ${currency}`);
  return token;
}

/** The call that moves `amount` of `currency` to `to`. */
export function transferOf(currency: string, to: string, amount: bigint): Transfer {
  const token = tokenOf(currency);
  return token ? { to: token.address, value: 0n, data: erc20.encodeFunctionData('transfer', [to, amount]) } : { to, value: amount, data: '0x' };
}

/** Base units of `currency` held by `address` (latest block). */
export async function balanceOf(chain: ChainReader, address: string, currency: string): Promise<bigint> {
  if (currency === 'ETH') return BigInt(await chain.call<string>('eth_getBalance', [address, 'latest']));
  const token = tokenOf(currency)!;
  return BigInt(await chain.call<string>('eth_call', [{ to: token.address, data: erc20.encodeFunctionData('balanceOf', [address]) }, 'latest']));
}

/** The fee caps of a new transaction: room for the base fee to double before it is stuck. */
export async function feeCaps(chain: ChainReader) {
  const gasPrice = BigInt(await chain.call<string>('eth_gasPrice', []));
  return { maxPriorityFeePerGas: gasPrice / 10n + 1n, maxFeePerGas: gasPrice * 2n + 1n };
}

export type Estimate = { gasLimit: bigint } | { refused: string } | { unfunded: true };

/**
 * The gas a transfer needs, with a margin and under the cap. A transfer the node says would revert,
 * or that needs more than the cap, is refused by its recipient (or token); one the sender cannot
 * fund is unfunded. A node that cannot be reached throws, and the caller tries again later.
 */
export async function estimateGas(chain: ChainReader, from: string, t: Transfer): Promise<Estimate> {
  let gas: bigint;
  try {
    gas = BigInt(await chain.call<string>('eth_estimateGas', [{ from, to: t.to, value: hex(t.value), data: t.data }]));
  } catch (err) {
    const msg = err instanceof ChainUnavailable ? err.message.toLowerCase() : '';
    if (/insufficient funds|exceeds balance/.test(msg)) return { unfunded: true };
    if (/revert|out of gas|gas required exceeds|invalid opcode/.test(msg)) return { refused: msg.slice(0, 200) };
    throw err;
  }
  if (gas > GAS_CAP) return { refused: `needs ${gas} gas, above the cap` };
  const padded = gas + (gas * GAS_MARGIN_PERCENT) / 100n;
  return { gasLimit: padded > GAS_CAP ? GAS_CAP : padded };
}

/** What a signed transaction can take from its sender at most: its value and token amount, and gas at the fee cap. */
export function maxCost(signed: string, currency: string): { eth: bigint; token: bigint } {
  const t = Transaction.from(signed);
  const gas = t.gasLimit * (t.maxFeePerGas ?? t.gasPrice ?? 0n);
  if (currency === 'ETH' || t.data === '0x') return { eth: t.value + gas, token: 0n };
  const [, amount] = erc20.decodeFunctionData('transfer', t.data) as unknown as [string, bigint];
  return { eth: gas, token: amount };
}

/**
 * The next nonce of a sending address, under a row lock of the nonce manager (`hot_wallet_nonces`),
 * never below the chain's pending count: the address may have been used by hand.
 */
export async function nextNonce(tx: Pick<Db, 'select' | 'insert' | 'update'>, chain: ChainReader, chainId: number, address: string): Promise<number> {
  const onChain = Number(BigInt(await chain.call<string>('eth_getTransactionCount', [address, 'pending'])));
  await tx.insert(hotWalletNonces).values({ chainId, address, nextNonce: onChain }).onConflictDoNothing();
  const where = and(eq(hotWalletNonces.chainId, chainId), eq(hotWalletNonces.address, address));
  const [row] = await tx.select().from(hotWalletNonces).where(where).for('update');
  const nonce = Math.max(row!.nextNonce, onChain);
  await tx.update(hotWalletNonces).set({ nextNonce: nonce + 1 }).where(where);
  return nonce;
}

/**
 * The transaction that used `nonce` of `from`, found on chain: the first block at whose end the
 * address's count passed it (a binary search from `since`), and in that block the transaction from
 * `from` with that nonce. Null when no block holds one (a node whose count ran ahead of its blocks,
 * or state it no longer keeps): then nobody may conclude the nonce was taken.
 */
export async function transactionAtNonce(chain: ChainReader, from: string, nonce: number, since: number, latest: number): Promise<{ hash: string; block: number } | null> {
  const count = async (block: number) => Number(BigInt(await chain.call<string>('eth_getTransactionCount', [from, hex(block)])));
  let lo = Math.max(0, since - 1);
  let hi = latest;
  try {
    if ((await count(hi)) <= nonce) return null;
    if ((await count(lo)) > nonce) return null;
    // count(lo) <= nonce < count(hi): the first block past it lies in (lo, hi].
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if ((await count(mid)) > nonce) hi = mid;
      else lo = mid;
    }
    const block = await chain.call<{ transactions: { hash: string; from: string; nonce: string }[] } | null>('eth_getBlockByNumber', [hex(hi), true]);
    const tx = block?.transactions.find((t) => t.from.toLowerCase() === from.toLowerCase() && Number(BigInt(t.nonce)) === nonce);
    return tx ? { hash: tx.hash, block: hi } : null;
  } catch (err) {
    // A node without the old state cannot answer: nothing is concluded.
    if (err instanceof ChainUnavailable && /state|pruned|missing trie|not available/i.test(err.message)) return null;
    throw err;
  }
}

/**
 * Gives a nonce back when nothing was signed at it and it is the last one taken (the usual case: the
 * job signs one transaction at a time). Otherwise the gap stays: rare, two runs signing at once.
 */
export async function releaseNonce(tx: Pick<Db, 'update'>, chainId: number, address: string, nonce: number) {
  await tx
    .update(hotWalletNonces)
    .set({ nextNonce: nonce })
    .where(and(eq(hotWalletNonces.chainId, chainId), eq(hotWalletNonces.address, address), eq(hotWalletNonces.nextNonce, nonce + 1)));
}
