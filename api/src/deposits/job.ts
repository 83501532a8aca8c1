import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/rows';
import { deposits } from '../db/schema';
import { post } from '../ledger';
import { mailMoney, type MoneyNotice } from '../mail';
import type { ChainReader } from '../chain';
import { depositTransaction, type CreditableDeposit } from './credit';
import { stillCredits } from './verify';

export type JobSettings = {
  confirmations: number;
  jobIntervalMs: number;
  dropAfterSeconds: number;
  batchSize: number;
  leaseSeconds: number;
  /** Credit only transactions in blocks the node calls finalized (production). */
  useFinalized?: boolean;
};
export type TickResult = { checked: number; credited: number; refused: number; waiting: number };

type Claimed = CreditableDeposit & {
  token_address: string | null;
  from_address: string | null;
  block_hash: string | null;
  missing_since: Date | string | null;
};

/**
 * Credits pending deposits once they have N confirmations, re-reading each receipt first so a
 * transaction that vanished in a reorganisation, or now failed, is never credited.
 *
 * Safe with several API replicas on one PostgreSQL: each tick claims due rows with a lease
 * (UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)), so replicas work on different rows, a
 * crashed replica's rows come back when its lease ends, and the credit itself is a single
 * UPDATE … WHERE status = 'pending' AND lease_owner = me: a deposit is credited at most once even
 * if two replicas somehow read it at once. State lives only in the database, so pending deposits
 * survive restarts. On PGlite (one process) the same statements run unchanged.
 */
export function createDepositJob(db: Db, chain: ChainReader, settings: JobSettings, log: FastifyBaseLogger, notice?: MoneyNotice) {
  const owner = randomUUID();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<TickResult> | null = null;
  let again = false;
  let stopped = true;

  async function tick(): Promise<TickResult & { full: boolean }> {
    const result: TickResult = { checked: 0, credited: 0, refused: 0, waiting: 0 };
    // Nothing pending: no chain read at all (the API also runs, quietly, while the node is down).
    const [any] = await db.select({ id: deposits.id }).from(deposits).where(eq(deposits.status, 'pending')).limit(1);
    if (!any) return { ...result, full: false };
    const latest = await chain.blockNumber();
    const n = settings.confirmations;
    // Progress for the ones not due yet: arithmetic only, no chain reads.
    await db.execute(sql`
      update deposits set confirmations = greatest(0, ${latest} - block_number + 1), updated_at = now()
      where status = 'pending' and block_number is not null and confirmations <> greatest(0, ${latest} - block_number + 1)`);
    // Due: enough blocks on top (or vanished, to look for it again).
    const claimed = await rows<Claimed>(
      db,
      sql`
      update deposits set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${settings.leaseSeconds})
      where id in (
        select id from deposits
        where status = 'pending'
          and (block_number is null or block_number <= ${latest - n + 1})
          and (lease_until is null or lease_until < now())
        order by id
        limit ${settings.batchSize}
        for update skip locked)
      returning id, user_id, pool, currency, chain_id, tx_hash, log_index, token_address, from_address, to_address, amount::text as amount, block_hash, missing_since`,
    );
    const finalized = settings.useFinalized && claimed.length ? await chain.finalizedBlock() : Infinity;
    await Promise.all(claimed.map((row) => check(row, n, latest, finalized, result)));
    return { ...result, full: claimed.length === settings.batchSize };
  }

  /** Batches until one is not full (bounded), so a backlog is not held to one batch per interval. */
  async function drain(): Promise<TickResult> {
    const total: TickResult = { checked: 0, credited: 0, refused: 0, waiting: 0 };
    for (let i = 0; i < 50; i++) {
      const { full, ...r } = await tick();
      for (const k of Object.keys(total) as (keyof TickResult)[]) total[k] += r[k];
      // Stop at a batch that was not full, or that settled nothing (all still waiting: no busy loop).
      if (!full || stopped || r.credited + r.refused === 0) break;
    }
    return total;
  }

  const mine = (id: number) => and(eq(deposits.id, id), eq(deposits.status, 'pending'), eq(deposits.leaseOwner, owner));
  const release = { leaseOwner: null, leaseUntil: null, updatedAt: new Date() };

  async function check(row: Claimed, n: number, tickLatest: number, finalized: number, result: TickResult) {
    result.checked++;
    try {
      const receipt = await chain.receipt(row.tx_hash);
      // Read after `tickLatest`: the receipt may be in a newer block (re-included), never an older head.
      const latest = Math.max(tickLatest, receipt?.blockNumber ?? 0);
      if (!receipt) {
        // Gone from the canonical chain (reorg): not credited; refused once the grace period ends.
        const since = row.missing_since ? new Date(row.missing_since) : new Date();
        const expired = Date.now() - since.getTime() >= settings.dropAfterSeconds * 1000;
        await db
          .update(deposits)
          .set({ ...release, blockNumber: null, blockHash: null, confirmations: 0, missingSince: since, ...(expired ? { status: 'refused', reason: 'REORGED' } : {}) })
          .where(mine(row.id));
        if (expired) result.refused++;
        else result.waiting++;
        return;
      }
      const logIndex = stillCredits(receipt, {
        logIndex: row.log_index,
        tokenAddress: row.token_address,
        fromAddress: row.from_address,
        toAddress: row.to_address,
        amount: row.amount,
      });
      if (logIndex === null) {
        await db.update(deposits).set({ ...release, status: 'refused', reason: 'TX_FAILED' }).where(mine(row.id));
        result.refused++;
        return;
      }
      const confirmations = Math.max(0, latest - receipt.blockNumber + 1);
      const block = { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, confirmations, missingSince: null, logIndex };
      // Another block than the one recorded (a reorg re-included it): verified again above, and its
      // confirmations count from the new block, on a later tick.
      const moved = row.block_hash !== null && row.block_hash !== receipt.blockHash;
      if (!moved && confirmations >= n && receipt.blockNumber <= finalized) {
        const credited = await db.transaction(async (tx) => {
          const done = await tx
            .update(deposits)
            .set({ ...release, ...block, status: 'credited', creditedAt: new Date() })
            .where(mine(row.id))
            .returning({ id: deposits.id });
          if (!done.length) return false;
          await post(tx, depositTransaction({ ...row, log_index: logIndex }));
          if (notice) {
            await mailMoney(tx, notice, {
              userId: row.user_id,
              kind: 'deposit-credited',
              event: `deposit-credited:${row.id}`,
              amount: row.amount,
              currency: row.currency,
              pool: row.pool,
              page: '/cabinet/dashboard',
              txHash: row.tx_hash,
            });
          }
          return true;
        });
        if (credited) {
          result.credited++;
          if (notice) void notice.mailer.poll();
        }
      } else {
        await db.update(deposits).set({ ...release, ...block }).where(mine(row.id));
        result.waiting++;
      }
    } catch (err) {
      // The node is down or answered oddly: leave the row pending; the lease ends and it is tried again.
      log.warn({ err, deposit: row.id }, 'deposit check failed');
    }
  }

  function schedule(delay: number) {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void runOnce().finally(() => schedule(settings.jobIntervalMs));
    }, delay);
    timer.unref?.();
  }

  /** One tick; overlapping calls share the running one and ask for another right after. */
  function runOnce(): Promise<TickResult> {
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((err) => {
        log.warn({ err }, 'deposit job tick failed');
        return { checked: 0, credited: 0, refused: 0, waiting: 0 };
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void runOnce();
        }
      });
    return running;
  }

  return {
    owner,
    tick: runOnce,
    /** Starts the interval (settings.jobIntervalMs; 0 leaves it off). */
    start() {
      if (!settings.jobIntervalMs || !stopped) return;
      stopped = false;
      schedule(0);
    },
    /** Runs a tick soon, e.g. after a deposit was recorded with its confirmations already reached. */
    kick() {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = null;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      again = false;
      if (running) await running;
    },
  };
}
export type DepositJob = ReturnType<typeof createDepositJob>;
