import type { FastifyBaseLogger } from 'fastify';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { SUPPORTED_CHAIN_ID } from '@app/contracts';
import { TOKENS, TRANSFER_TOPIC, currencyOfToken } from '@app/web3';
import type { Db } from '../db/client';
import { deposits, poolAddresses, treasuryTransfers, unclaimedTransfers, users, watcherBlocks, watcherCursor } from '../db/schema';
import type { ChainReader } from '../chain';

export type WatcherSettings = { chainId: typeof SUPPORTED_CHAIN_ID; startBlock: number | null; batchBlocks: number; confirmations: number; houseAddresses?: string[] };
export type WatchResult = { from: number; to: number; head: number; transfers: number; deposits: number; unclaimed: number; rewoundTo: number | null };

type RawTx = { hash: string; from: string; to: string | null; value: string };
type RawBlock = { number: string; hash: string; parentHash: string; transactions: RawTx[] };
type RawLog = { address: string; topics: string[]; data: string; blockNumber: string; blockHash: string; transactionHash: string; logIndex: string };
type RawReceipt = { status: string; logs: { logIndex: string }[] } | null;

type Transfer = { txHash: string; position: number; from: string; to: string; token: string | null; currency: string; amount: bigint; blockNumber: number; blockHash: string };

const num = (hex: string) => Number(BigInt(hex));
const pad = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
/** Blocks whose hashes are kept for finding where a reorg forked. */
const KEPT_BLOCKS = 256;

/**
 * Follows the chain and records every transfer into a pool's receiving address: ETH from the blocks'
 * transactions, tokens from the allowlisted contracts' Transfer logs filtered by the `to` topic.
 * A transfer from a linked wallet becomes a pending deposit (the same row a browser's report makes,
 * keyed by chain, transaction and log position in the transaction; the deposit job credits it after
 * N confirmations). One from an unknown wallet is kept in `unclaimed_transfers`.
 *
 * The cursor (number and hash) lives in the database and moves in the same transaction as the rows
 * it found, so a restart resumes without missing or doubling a block. When the block at the cursor
 * has another hash, the chain reorganised: the watcher rewinds to the newest block whose stored hash
 * the chain still has, forgets unclaimed transfers above it and reads on from there. One replica
 * runs it at a time (the job runner's lease).
 */
export function createWatcher(db: Db, chain: ChainReader, settings: WatcherSettings, log: FastifyBaseLogger) {
  const chainId = settings.chainId;
  const tokens = Object.values(TOKENS[1]).map((t) => t.address.toLowerCase());

  const block = (n: number, full: boolean) => chain.call<RawBlock | null>('eth_getBlockByNumber', [`0x${n.toString(16)}`, full]);

  async function cursor(head: number): Promise<{ number: number; hash: string }> {
    const [c] = await db.select().from(watcherCursor).where(eq(watcherCursor.chainId, chainId));
    if (c) return { number: c.blockNumber, hash: c.blockHash };
    const start = Math.min(settings.startBlock ?? head, head);
    const before = start - 1;
    const b = before >= 0 ? await block(before, false) : null;
    return { number: before, hash: b?.hash ?? '' };
  }

  /** Finds the newest kept block still on the chain and moves the cursor there. */
  async function rewind(from: number): Promise<number> {
    const kept = await db
      .select()
      .from(watcherBlocks)
      .where(and(eq(watcherBlocks.chainId, chainId), lt(watcherBlocks.blockNumber, from)))
      .orderBy(sql`${watcherBlocks.blockNumber} desc`);
    let to = -1;
    let hash = '';
    for (const k of kept) {
      const b = await block(k.blockNumber, false);
      if (b && b.hash === k.blockHash) {
        to = k.blockNumber;
        hash = k.blockHash;
        break;
      }
    }
    if (to < 0) {
      // Deeper than what was kept: start over from the configured start (rows are keyed, nothing doubles).
      to = (settings.startBlock ?? 0) - 1;
      hash = to >= 0 ? ((await block(to, false))?.hash ?? '') : '';
    }
    await db.transaction(async (tx) => {
      await tx.delete(watcherBlocks).where(and(eq(watcherBlocks.chainId, chainId), gt(watcherBlocks.blockNumber, to)));
      // Found in blocks that are gone: forgotten; read again if the transaction is re-included.
      await tx.delete(unclaimedTransfers).where(and(eq(unclaimedTransfers.chainId, chainId), eq(unclaimedTransfers.status, 'unclaimed'), gt(unclaimedTransfers.blockNumber, to)));
      await upsertCursor(tx, to, hash);
    });
    log.warn({ from, to }, 'chain reorganisation: watcher rewound');
    return to;
  }

  async function upsertCursor(tx: Pick<Db, 'insert'>, number: number, hash: string) {
    await tx
      .insert(watcherCursor)
      .values({ chainId, blockNumber: number, blockHash: hash })
      .onConflictDoUpdate({ target: watcherCursor.chainId, set: { blockNumber: number, blockHash: hash, updatedAt: new Date() } });
  }

  /** The position of a log within its own transaction (deposits are keyed by it). */
  async function receiptOf(hash: string, cache: Map<string, RawReceipt>) {
    if (!cache.has(hash)) cache.set(hash, await chain.call<RawReceipt>('eth_getTransactionReceipt', [hash]));
    return cache.get(hash)!;
  }

  async function run(): Promise<WatchResult> {
    const head = await chain.blockNumber();
    let c = await cursor(head);
    let rewoundTo: number | null = null;
    if (c.number >= 0 && c.hash) {
      const atCursor = await block(c.number, false);
      if (!atCursor || atCursor.hash !== c.hash) {
        rewoundTo = await rewind(c.number);
        c = await cursor(head);
      }
    }
    const from = c.number + 1;
    const to = Math.min(head, c.number + settings.batchBlocks);
    const result: WatchResult = { from, to, head, transfers: 0, deposits: 0, unclaimed: 0, rewoundTo };
    if (from > to) return result;

    const addresses = await db.select().from(poolAddresses).where(eq(poolAddresses.chainId, chainId));
    const poolOf = (address: string, currency: string) => {
      const found = addresses.filter((a) => a.address.toLowerCase() === address && a.currency === currency);
      return found.length === 1 ? found[0]!.pool : null; // shared by two pools: the operator decides
    };
    const watched = [...new Set(addresses.map((a) => a.address.toLowerCase()))];
    if (!watched.length) {
      await upsertCursor(db, to, (await block(to, false))?.hash ?? '');
      return result;
    }

    // Blocks in order, each one's parent the one before: a fork met while reading stops the step.
    const blocks: RawBlock[] = [];
    let parent = c.hash;
    for (let n = from; n <= to; n++) {
      const b = await block(n, true);
      if (!b || (parent && b.parentHash !== parent)) break;
      blocks.push(b);
      parent = b.hash;
    }
    if (!blocks.length) return result;
    const last = blocks[blocks.length - 1]!;
    const hashes = new Map(blocks.map((b) => [num(b.number), b.hash]));

    const receipts = new Map<string, RawReceipt>();
    const transfers: Transfer[] = [];
    for (const b of blocks) {
      for (const t of b.transactions) {
        const toAddr = t.to?.toLowerCase();
        if (!toAddr || !watched.includes(toAddr) || BigInt(t.value) === 0n) continue;
        const r = await receiptOf(t.hash, receipts);
        if (r?.status !== '0x1') continue;
        transfers.push({ txHash: t.hash.toLowerCase(), position: -1, from: t.from.toLowerCase(), to: toAddr, token: null, currency: 'ETH', amount: BigInt(t.value), blockNumber: num(b.number), blockHash: b.hash });
      }
    }
    const logs = await chain.call<RawLog[]>('eth_getLogs', [
      { fromBlock: `0x${from.toString(16)}`, toBlock: last.number, address: tokens, topics: [TRANSFER_TOPIC, null, watched.map(pad)] },
    ]);
    for (const l of logs) {
      if (hashes.get(num(l.blockNumber)) !== l.blockHash || l.topics.length !== 3 || !/^0x[0-9a-fA-F]{64}$/.test(l.data)) continue;
      const currency = currencyOfToken(1, l.address);
      if (!currency) continue;
      const r = await receiptOf(l.transactionHash, receipts);
      if (r?.status !== '0x1') continue;
      const position = r.logs.findIndex((x) => x.logIndex === l.logIndex);
      if (position < 0) continue;
      transfers.push({
        txHash: l.transactionHash.toLowerCase(),
        position,
        from: `0x${l.topics[1]!.slice(-40)}`.toLowerCase(),
        to: `0x${l.topics[2]!.slice(-40)}`.toLowerCase(),
        token: l.address.toLowerCase(),
        currency,
        amount: BigInt(l.data),
        blockNumber: num(l.blockNumber),
        blockHash: l.blockHash,
      });
    }
    result.transfers = transfers.length;
    result.to = num(last.number);

    const senders = [...new Set(transfers.map((t) => t.from))];
    const owners = senders.length
      ? await db.select({ id: users.id, wallet: users.walletAddress }).from(users).where(sql`${users.walletAddress} in (${sql.join(senders.map((s) => sql`${s}`), sql`, `)})`)
      : [];
    const ownerOf = new Map(owners.map((o) => [o.wallet!.toLowerCase(), o.id]));
    // The treasury's address is the one its recorded transfers leave from (its key is the signer's).
    const house = new Set(settings.houseAddresses ?? []);
    if (senders.length) {
      const found = await db
        .selectDistinct({ from: treasuryTransfers.fromAddress })
        .from(treasuryTransfers)
        .where(sql`${treasuryTransfers.fromAddress} in (${sql.join(senders.map((s) => sql`${s}`), sql`, `)})`);
      for (const f of found) house.add(f.from);
    }

    await db.transaction(async (tx) => {
      for (const t of transfers) {
        const pool = poolOf(t.to, t.currency);
        const userId = ownerOf.get(t.from);
        if (userId && pool && t.amount > 0n) {
          const inserted = await tx
            .insert(deposits)
            .values({
              userId,
              pool,
              currency: t.currency,
              amount: t.amount.toString(),
              txHash: t.txHash,
              chainId,
              logIndex: t.position,
              fromAddress: t.from,
              toAddress: t.to,
              tokenAddress: t.token,
              blockNumber: t.blockNumber,
              blockHash: t.blockHash,
              confirmations: Math.max(1, head - t.blockNumber + 1),
            })
            .onConflictDoNothing({ target: [deposits.chainId, deposits.txHash, deposits.logIndex] })
            .returning({ id: deposits.id });
          result.deposits += inserted.length;
        } else if (!house.has(t.from)) {
          // The house's own transfers (the treasury funding a pool) are nobody's deposit.
          const inserted = await tx
            .insert(unclaimedTransfers)
            .values({
              chainId,
              txHash: t.txHash,
              logIndex: t.position,
              fromAddress: t.from,
              toAddress: t.to,
              tokenAddress: t.token,
              currency: t.currency,
              pool,
              amount: t.amount.toString(),
              blockNumber: t.blockNumber,
              blockHash: t.blockHash,
            })
            .onConflictDoNothing()
            .returning({ id: unclaimedTransfers.id });
          result.unclaimed += inserted.length;
        }
      }
      await tx
        .insert(watcherBlocks)
        .values(blocks.map((b) => ({ chainId, blockNumber: num(b.number), blockHash: b.hash })))
        .onConflictDoUpdate({ target: [watcherBlocks.chainId, watcherBlocks.blockNumber], set: { blockHash: sql`excluded.block_hash` } });
      await tx.delete(watcherBlocks).where(and(eq(watcherBlocks.chainId, chainId), lt(watcherBlocks.blockNumber, num(last.number) - KEPT_BLOCKS)));
      await upsertCursor(tx, num(last.number), last.hash);
    });
    return result;
  }

  return { run };
}
export type Watcher = ReturnType<typeof createWatcher>;
