import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateCounters } from '../db/schema';

/**
 * Fixed-window counters in the database, for limits that must hold across replicas and are
 * keyed by account rather than by address (failed logins, mails sent to one address).
 */
export function createCounters(db: Db) {
  return {
    /** Counts one event and answers the count in the current window. */
    async hit(key: string, windowSeconds: number): Promise<number> {
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
        .returning({ count: rateCounters.count });
      return row?.count ?? 1;
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
  };
}
export type Counters = ReturnType<typeof createCounters>;
