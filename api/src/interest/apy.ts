import { and, desc, eq, sql } from 'drizzle-orm';
import { parseApy } from '@app/web3';
import type { Db } from '../db/client';
import { poolApy, pools } from '../db/schema';
import { badRequest } from '../http/errors';
import { audit } from '../db/audit';
import { rows } from '../db/rows';

/**
 * Sets a pool's APY from a day on. Days already accrued keep the rate they were accrued with, so
 * the new rate must start after the pool's last accrued day.
 */
export async function setApy(db: Db, actor: string, pool: string, apy: string, effectiveFrom: string) {
  return db.transaction((tx) => writeApy(tx, actor, pool, apy, effectiveFrom));
}

/** setApy's checks and write, with its audit entry, in the caller's transaction (an approved change applies in its own). */
export async function writeApy(tx: Pick<Db, 'select' | 'insert' | 'execute'>, actor: string, pool: string, apy: string, effectiveFrom: string, note?: Record<string, unknown>) {
  try {
    parseApy(apy);
  } catch (err) {
    throw badRequest((err as Error).message, 'BAD_APY', { apy: (err as Error).message });
  }
  const [p] = await tx.select().from(pools).where(eq(pools.name, pool));
  if (!p) throw badRequest(`unknown pool '${pool}'`, 'NOT_FOUND', { pool: 'unknown pool' });
  const [last] = await rows<{ day: string | null }>(tx, sql`select max(day)::text as day from interest_days where pool = ${pool}`);
  if (last?.day && effectiveFrom <= last.day) {
    const msg = `${pool} is accrued up to ${last.day}: a new APY can start on ${last.day} + 1 day at the earliest`;
    throw badRequest(msg, 'APY_IN_THE_PAST', { effectiveFrom: msg });
  }
  const [before] = await tx.select().from(poolApy).where(and(eq(poolApy.pool, pool), eq(poolApy.effectiveFrom, effectiveFrom)));
  await tx
    .insert(poolApy)
    .values({ pool, effectiveFrom, apy, setBy: actor })
    .onConflictDoUpdate({ target: [poolApy.pool, poolApy.effectiveFrom], set: { apy, setBy: actor, createdAt: new Date() } });
  await audit(tx, { actor, action: 'apy.set', target: pool, before: before ? { apy: before.apy, effectiveFrom } : null, after: { apy, effectiveFrom, ...note } });
  return { pool, apy, effectiveFrom };
}

/** The schedule's entry in force on `day` for a pool (the latest from that day or before), if any. */
export async function apyEntryOn(db: Pick<Db, 'execute'>, pool: string, day: string): Promise<{ apy: string; effectiveFrom: string } | null> {
  const [r] = await rows<{ apy: string; effective_from: string }>(
    db,
    sql`select apy::text as apy, effective_from::text as effective_from from pool_apy where pool = ${pool} and effective_from <= ${day}::date order by pool_apy.effective_from desc limit 1`,
  );
  return r ? { apy: trimApy(r.apy), effectiveFrom: r.effective_from } : null;
}

export async function apyHistory(db: Db, pool?: string) {
  const list = await db
    .select()
    .from(poolApy)
    .where(pool ? eq(poolApy.pool, pool) : undefined)
    .orderBy(poolApy.pool, desc(poolApy.effectiveFrom));
  return list.map((r) => ({ pool: r.pool, effectiveFrom: r.effectiveFrom, apy: r.apy, setBy: r.setBy, createdAt: r.createdAt.toISOString() }));
}

/** "0.050000000000000000" (numeric(24,18)) → "0.05": what parseApy and people read. */
export const trimApy = (apy: string) => (apy.includes('.') ? apy.replace(/0+$/, '').replace(/\.$/, '') : apy);

/** An APY as basis points, rounded half up ("0.12345" → 1235): what the contracts' `apyBps` carry. */
export function apyBps(apy: string): number {
  const { num, den } = parseApy(trimApy(apy));
  return Number((num * 10000n + den / 2n) / den);
}

/**
 * Every pool's APY in force on a day, from `pool_apy`, the one source of a pool's APY (a change
 * dated in the future takes effect on its day): the latest setting effective on or before it.
 */
export async function apysOn(db: Pick<Db, 'execute'>, day: string): Promise<Map<string, string>> {
  const found = await rows<{ pool: string; apy: string }>(
    db,
    sql`select distinct on (pool) pool, apy::text as apy from pool_apy where effective_from <= ${day}::date order by pool, effective_from desc`,
  );
  return new Map(found.map((r) => [r.pool, trimApy(r.apy)]));
}
