// The console's overview in one read: the ledger check, job health (each job's last run and error,
// the watcher's lag behind the head, the last accrued day per pool, the payout queue's oldest
// request) and the open alerts.
import { asc, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { interestDays, jobLeases, operatorAlerts, watcherCursor, withdrawals } from '../db/schema';
import type { ChainReader } from '../chain';
import { checkLedger } from '../ledger';

/** Payouts not yet on chain: their oldest request says how long the queue has been waiting. */
const QUEUED = ['awaiting_approval', 'requested', 'waiting_funds'];

export async function overview(db: Db, chain: ChainReader, chainId: number, now = new Date()) {
  const [ledger, jobs, cursor, accrued, queue, alerts] = await Promise.all([
    checkLedger(db),
    db.select().from(jobLeases).orderBy(asc(jobLeases.job)),
    db.select().from(watcherCursor).where(sql`${watcherCursor.chainId} = ${chainId}`),
    db.select({ pool: interestDays.pool, day: sql<string>`max(${interestDays.day})::text` }).from(interestDays).groupBy(interestDays.pool),
    db
      .select({ count: sql<number>`count(*)::int`, oldest: sql<Date | null>`min(${withdrawals.createdAt})` })
      .from(withdrawals)
      .where(inArray(withdrawals.status, QUEUED)),
    db.select({ count: sql<number>`count(*)::int` }).from(operatorAlerts).where(isNull(operatorAlerts.resolvedAt)),
  ]);
  // The head may be out of reach: the overview still answers, with the lag unknown.
  const head = await chain.call<string>('eth_blockNumber', []).then((h) => Number(BigInt(h)), () => null);
  const watched = cursor[0]?.blockNumber ?? null;
  const oldest = queue[0]?.oldest ? new Date(queue[0].oldest) : null;
  return {
    ledger: { ok: ledger.ok, checkedAt: now.toISOString() },
    jobs: jobs.map((j) => ({ job: j.job, lastRunAt: j.lastRunAt?.toISOString() ?? null, lastError: j.lastError })),
    watcher: { head, watched, lagBlocks: head !== null && watched !== null ? Math.max(0, head - watched) : null },
    accrual: accrued.map((a) => ({ pool: a.pool, lastDay: a.day })),
    payoutQueue: { count: Number(queue[0]?.count ?? 0), oldestAgeSeconds: oldest ? Math.floor((now.getTime() - oldest.getTime()) / 1000) : null },
    openAlerts: Number(alerts[0]?.count ?? 0),
  };
}
