// Reading the operator audit log: its entries with filters, and the check of its hash chain.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { AuditVerify } from '@app/contracts';
import type { Db } from '../db/client';
import { operatorAudit } from '../db/schema';

export async function auditEntries(db: Db, f: { actor?: string; action?: string; target?: string; limit?: number }) {
  const rows = await db
    .select()
    .from(operatorAudit)
    .where(and(f.actor ? eq(operatorAudit.actor, f.actor) : undefined, f.action ? eq(operatorAudit.action, f.action) : undefined, f.target ? eq(operatorAudit.target, f.target) : undefined))
    .orderBy(desc(operatorAudit.seq))
    .limit(f.limit ?? 500);
  return rows.map((r) => ({ seq: r.seq!, actor: r.actor, action: r.action, target: r.target, before: r.before, after: r.after, at: r.at.toISOString(), hash: r.hash! }));
}

/**
 * Walks the chain in order: each row's digest must be what its fields and the previous digest give
 * (the database computes it, the same function as the insert trigger), each row must name the
 * previous row's digest, and the numbers must follow on. A row removed or altered breaks it there.
 */
export async function verifyAuditChain(db: Db): Promise<AuditVerify> {
  const rows = await db
    .select({
      seq: operatorAudit.seq,
      prevHash: operatorAudit.prevHash,
      hash: operatorAudit.hash,
      expected: sql<string>`operator_audit_digest(${operatorAudit.prevHash}, ${operatorAudit.seq}, ${operatorAudit.actor}, ${operatorAudit.action}, ${operatorAudit.target}, ${operatorAudit.before}, ${operatorAudit.after}, ${operatorAudit.at})`,
    })
    .from(operatorAudit)
    .orderBy(asc(operatorAudit.seq));
  let last = { seq: 0, hash: '' };
  for (const r of rows) {
    const seq = Number(r.seq);
    if (seq !== last.seq + 1) return { ok: false, rows: rows.length, brokenAt: seq, problem: `entry ${last.seq + 1} is missing` };
    if (r.prevHash !== last.hash) return { ok: false, rows: rows.length, brokenAt: seq, problem: `entry ${seq} does not follow the entry before it` };
    if (r.hash !== r.expected) return { ok: false, rows: rows.length, brokenAt: seq, problem: `entry ${seq} was altered` };
    last = { seq, hash: r.hash! };
  }
  return { ok: true, rows: rows.length, brokenAt: null, problem: null };
}
