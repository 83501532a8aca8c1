// The operator's read-only look at one account: found by e-mail, wallet or id; its positions,
// activity, sessions, holds and the audit entries about it. Every lookup is itself audited.
import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audit } from '../db/audit';
import { deposits, operatorAudit, sessions, users, withdrawals } from '../db/schema';
import { ApiError } from '../http/errors';
import { positionsOf } from '../ledger';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function lookUpUser(db: Db, actor: string, query: string) {
  const q = query.trim().toLowerCase();
  const where = UUID.test(q) ? eq(users.id, q) : /^0x[0-9a-f]{40}$/.test(q) ? eq(users.walletAddress, q) : eq(users.email, q);
  const [u] = await db.select().from(users).where(where);
  // The lookup is audited whether or not it finds someone: searching is itself an act.
  await audit(db, { actor, action: 'user.lookup', ...(u ? { target: `user:${u.id}` } : {}), after: { query: q, found: Boolean(u) } });
  if (!u) throw new ApiError(404, `no account for '${q}'`, 'NOT_FOUND');
  const now = new Date();
  const [positions, recentDeposits, recentWithdrawals, openSessions, about] = await Promise.all([
    positionsOf(db, u.id),
    db.select().from(deposits).where(eq(deposits.userId, u.id)).orderBy(desc(deposits.id)).limit(50),
    db.select().from(withdrawals).where(eq(withdrawals.userId, u.id)).orderBy(desc(withdrawals.id)).limit(50),
    db.select({ id: sessions.id, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt, ip: sessions.ip, userAgent: sessions.userAgent }).from(sessions).where(and(eq(sessions.userId, u.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now))),
    db.select().from(operatorAudit).where(or(eq(operatorAudit.target, `user:${u.id}`), eq(operatorAudit.target, u.id))).orderBy(desc(operatorAudit.seq)).limit(100),
  ]);
  return {
    account: { id: u.id, email: u.email, wallet: u.walletAddress, role: u.role, lang: u.lang, createdAt: u.createdAt.toISOString() },
    holds: { withdrawalsHeldUntil: u.withdrawalsHeldUntil?.toISOString() ?? null },
    positions: positions.map((p) => ({ pool: p.pool, currency: p.currency, balance: p.balance.toString() })),
    deposits: recentDeposits.map((d) => ({ id: d.id, pool: d.pool, currency: d.currency, amount: d.amount, status: d.status, transaction: d.txHash, createdAt: d.createdAt.toISOString() })),
    withdrawals: recentWithdrawals.map((w) => ({ id: w.id, pool: w.pool, currency: w.currency, amount: w.amount, status: w.status, transaction: w.txHash, createdAt: w.createdAt.toISOString() })),
    sessions: openSessions.map((s) => ({ ...s, createdAt: s.createdAt.toISOString(), expiresAt: s.expiresAt.toISOString() })),
    audit: about.map((a) => ({ seq: a.seq, actor: a.actor, action: a.action, at: a.at.toISOString() })),
  };
}
