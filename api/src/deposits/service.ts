import { and, desc, eq } from 'drizzle-orm';
import { apiMessages as M, formatMessage, type DepositStatus, type PoolName, type SUPPORTED_CHAIN_ID } from '@app/contracts';
import type { Db } from '../db/client';
import { deposits, poolAddresses, users } from '../db/schema';
import { ChainUnavailable, type ChainReader } from '../chain';
import { DepositRefused, readDeposit, verifyDeposit } from './verify';
import { markReported } from '../watcher';

export type DepositRow = typeof deposits.$inferSelect;
export type DepositSettings = { chainId: typeof SUPPORTED_CHAIN_ID; confirmations: number };

const reasonMessages: Record<string, string> = {
  REORGED: M.depositReorged,
  TX_FAILED: M.depositFailedOnRecheck,
  UNVERIFIED: M.depositUnverified,
};

/** A row as the API shows it. */
export function depositStatus(row: DepositRow, required: number): DepositStatus {
  return {
    id: row.id,
    pool: row.pool as PoolName,
    currency: row.currency,
    amount: String(row.amount),
    transaction: row.txHash,
    logIndex: row.logIndex,
    from: row.fromAddress,
    to: row.toAddress,
    status: row.status as DepositStatus['status'],
    confirmations: row.status === 'credited' ? Math.max(row.confirmations, required) : row.confirmations,
    confirmationsRequired: required,
    blockNumber: row.blockNumber,
    reason: row.reason ? (reasonMessages[row.reason] ?? row.reason) : null,
    createdAt: row.createdAt.toISOString(),
    creditedAt: row.creditedAt?.toISOString() ?? null,
  };
}

/** Where a pool receives a currency on a chain (operator configuration), lower-case; undefined if it does not. */
export async function poolAddressOf(db: Db, pool: string, currency: string, chainId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ address: poolAddresses.address })
    .from(poolAddresses)
    .where(and(eq(poolAddresses.pool, pool), eq(poolAddresses.currency, currency), eq(poolAddresses.chainId, chainId)));
  return row?.address.toLowerCase();
}

export type DepositRequest = { pool: PoolName; currency: string; amount: string; transaction: string; chainId?: number | undefined };

export function createDeposits(db: Db, chain: ChainReader, settings: DepositSettings) {
  return {
    settings,
    /**
     * Reads the reported transaction from the chain and records what it credits, once per (chain,
     * transaction, log) whoever reports it. Throws DepositRefused with the reason otherwise.
     */
    async record(user: { id: string }, req: DepositRequest) {
      // The wallet linked now, read from the database rather than the session cache: with several
      // replicas, the wallet may have been linked a moment ago on another one (issue 23, goal 5).
      const [owner] = await db.select({ walletAddress: users.walletAddress }).from(users).where(eq(users.id, user.id));
      const wallet = owner?.walletAddress;
      if (!wallet) throw new DepositRefused(M.depositNoWallet, 'NO_LINKED_WALLET');
      if (req.chainId !== undefined && req.chainId !== settings.chainId) throw new DepositRefused(M.depositWrongNetwork, 'WRONG_NETWORK');
      const hash = req.transaction.toLowerCase();
      // The chain reads and the pool's address at once: the answer waits for the slower only.
      const reads = readDeposit(chain, hash, req.currency);
      reads.catch(() => undefined); // awaited below; a refusal about the pool must not leave it unhandled
      const poolAddress = await poolAddressOf(db, req.pool, req.currency, settings.chainId);
      if (!poolAddress) throw new DepositRefused(formatMessage(M.depositPoolCurrency, { currency: req.currency }), 'POOL_CURRENCY');
      let found;
      try {
        found = await verifyDeposit(chain, { chainId: settings.chainId, hash, currency: req.currency, poolAddress, wallet: wallet.toLowerCase() }, await reads);
      } catch (err) {
        if (err instanceof ChainUnavailable) throw new DepositRefused(M.chainUnavailable, 'CHAIN_UNAVAILABLE', 503);
        throw err;
      }
      // One statement: concurrent reports of one transaction meet at the unique key, one row wins.
      // The watcher may have listed the transfer as unclaimed before the wallet was linked: the
      // report takes it off the operator's list in the same transaction.
      const rows = await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(deposits)
          .values(
            found.transfers.map((t) => ({
              userId: user.id,
              pool: req.pool,
              currency: req.currency,
              amount: t.amount.toString(),
              claimedAmount: req.amount,
              txHash: hash,
              chainId: settings.chainId,
              logIndex: t.logIndex,
              fromAddress: t.from,
              toAddress: t.to,
              tokenAddress: t.tokenAddress,
              blockNumber: found.blockNumber,
              blockHash: found.blockHash,
              confirmations: found.confirmations,
            })),
          )
          .onConflictDoNothing({ target: [deposits.chainId, deposits.txHash, deposits.logIndex] })
          .returning();
        await markReported(tx, settings.chainId, inserted);
        return inserted;
      });
      let first = rows[0];
      if (!first) {
        // Already recorded: by the watcher for this same user it is the same deposit, met in its row.
        const existing = await db
          .select()
          .from(deposits)
          .where(and(eq(deposits.chainId, settings.chainId), eq(deposits.txHash, hash), eq(deposits.userId, user.id), eq(deposits.pool, req.pool)));
        const same = existing.filter((e) => found.transfers.some((t) => t.logIndex === e.logIndex));
        if (same.length !== found.transfers.length || !same[0] || same.some((e) => e.claimedAmount !== null)) throw new DepositRefused(M.depositDuplicate, 'DEPOSIT_DUPLICATE', 409);
        first = same[0];
        await db.update(deposits).set({ claimedAmount: req.amount }).where(eq(deposits.id, first.id));
        rows.push(...same);
      }
      const total = found.transfers.reduce((s, t) => s + t.amount, 0n);
      const corrected = BigInt(req.amount) !== total;
      return { row: first, rows, corrected, status: depositStatus(first, settings.confirmations) };
    },

    async list(userId: string, filter: { pool?: string | undefined; id?: number | undefined; transaction?: string | undefined }) {
      const rows = await db
        .select()
        .from(deposits)
        .where(
          and(
            eq(deposits.userId, userId),
            filter.pool ? eq(deposits.pool, filter.pool) : undefined,
            filter.id ? eq(deposits.id, filter.id) : undefined,
            filter.transaction ? eq(deposits.txHash, filter.transaction.toLowerCase()) : undefined,
          ),
        )
        .orderBy(desc(deposits.id))
        .limit(200);
      return rows.map((r) => depositStatus(r, settings.confirmations));
    },
  };
}
export type Deposits = ReturnType<typeof createDeposits>;
