import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateCounters } from '../db/schema';

/** No counter's window is longer than a day (the longest configurable one is the login failures'). */
const LONGEST_WINDOW = sql`interval '1 day'`;

/**
 * Fixed-window counters in the database, for limits that must hold across replicas: failed logins
 * and mails per account or address, and each route's own limit per client (`http/rate-store.ts`).
 */
export function createCounters(db: Db) {
  /** Counts one event: the count in the current window, and the milliseconds the window has left. */
  async function take(key: string, windowSeconds: number): Promise<{ count: number; ttlMs: number }> {
    const stale = sql`${rateCounters.windowStart} < now() - make_interval(secs => ${windowSeconds})`;
    const [row] = await db
      .insert(rateCounters)
      .values({ key, windowStart: sql`now()`, count: 1 })
      .onConflictDoUpdate({
        target: rateCounters.key,
        set: {
          count: sql`case when ${stale} then 1 else ${rateCounters.count} + 1 end`,
          windowStart: sql`case when ${stale} then now() else ${rateCounters.windowStart} end`,
        },
      })
      .returning({
        count: rateCounters.count,
        ttlMs: sql<number>`greatest(0, ceil(extract(epoch from (${rateCounters.windowStart} + make_interval(secs => ${windowSeconds}) - now())) * 1000))::int`,
      });
    return { count: row?.count ?? 1, ttlMs: Number(row?.ttlMs ?? windowSeconds * 1000) };
  }
  return {
    take,
    /** Counts one event and answers the count in the current window. */
    async hit(key: string, windowSeconds: number): Promise<number> {
      return (await take(key, windowSeconds)).count;
    },
    /** The count in the current window, without counting. */
    async peek(key: string, windowSeconds: number): Promise<number> {
      const [row] = await db
        .select({ count: rateCounters.count })
        .from(rateCounters)
        .where(
          sql`${rateCounters.key} = ${key} and ${rateCounters.windowStart} >= now() - make_interval(secs => ${windowSeconds})`,
        );
      return row?.count ?? 0;
    },
    async reset(key: string) {
      await db.delete(rateCounters).where(eq(rateCounters.key, key));
    },
    /** Removes counters whose window has ended, whatever its length. */
    async prune() {
      await db.delete(rateCounters).where(sql`${rateCounters.windowStart} < now() - ${LONGEST_WINDOW}`);
    },
  };
}
export type Counters = ReturnType<typeof createCounters>;
