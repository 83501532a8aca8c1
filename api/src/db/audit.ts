import type { Db } from './client';
import { operatorAudit } from './schema';

/** Writes one operator action to the audit log (in the caller's transaction when given one). */
export async function audit(db: Pick<Db, 'insert'>, entry: { actor: string; action: string; target?: string; before?: unknown; after?: unknown }) {
  await db.insert(operatorAudit).values({
    actor: entry.actor,
    action: entry.action,
    target: entry.target ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
