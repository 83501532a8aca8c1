import type { FastifyBaseLogger } from 'fastify';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from './client';
import { operatorAlerts } from './schema';

export type Alert = { key: string; kind: string; message: string; detail?: Record<string, unknown> };

/**
 * Raises an alert for the operator (`npm run operator -- alerts`), once per subject: raised again
 * while open, it only counts. Logged as an error the first time, so a job that finds the same
 * trouble every second does not flood the log. Answers whether it is new.
 */
export async function raiseAlert(db: Pick<Db, 'insert'>, log: FastifyBaseLogger, a: Alert): Promise<boolean> {
  const [row] = await db
    .insert(operatorAlerts)
    .values({ key: a.key, kind: a.kind, message: a.message, detail: a.detail ?? null })
    .onConflictDoUpdate({
      target: operatorAlerts.key,
      set: {
        message: a.message,
        detail: a.detail ?? null,
        lastAt: new Date(),
        // A resolved alert raised again is open again, counted from one.
        count: sql`case when ${operatorAlerts.resolvedAt} is null then ${operatorAlerts.count} + 1 else 1 end`,
        resolvedAt: null,
      },
    })
    .returning({ count: operatorAlerts.count });
  const fresh = row?.count === 1;
  if (fresh) log.error({ alert: a.kind, key: a.key, ...a.detail }, a.message);
  return fresh;
}

/** The trouble is over (e.g. the payout was funded): the alert stays as history, resolved. */
export async function resolveAlert(db: Pick<Db, 'update'>, key: string) {
  await db
    .update(operatorAlerts)
    .set({ resolvedAt: new Date() })
    .where(and(eq(operatorAlerts.key, key), isNull(operatorAlerts.resolvedAt)));
}

/** Open alerts, newest first (all of them with `all`). */
export async function listAlerts(db: Pick<Db, 'select'>, all = false) {
  const list = await db
    .select()
    .from(operatorAlerts)
    .where(all ? undefined : isNull(operatorAlerts.resolvedAt))
    .orderBy(desc(operatorAlerts.lastAt))
    .limit(500);
  return list.map((a) => ({
    key: a.key,
    kind: a.kind,
    message: a.message,
    count: a.count,
    firstAt: a.firstAt.toISOString(),
    lastAt: a.lastAt.toISOString(),
    resolvedAt: a.resolvedAt?.toISOString() ?? null,
  }));
}
