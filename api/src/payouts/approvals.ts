// The operator's decisions on withdrawals: approve one awaiting approval, reject it, or cancel a
// payout not yet paid. Each moves the row only from the states it names, in one transaction with
// its audit entry, so two operators (or an operator and the payout job) cannot both act on it.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audit } from '../db/audit';
import { withdrawals } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import type { ReturnNotice } from './notice';
import { returnWithdrawal, withdrawalStatus, type WithdrawalRow } from './requests';

/** The withdrawals as the operator lists them, oldest first, optionally of one status. */
export async function operatorWithdrawals(db: Db, status: WithdrawalRow['status'] | undefined, required: number) {
  const list = await db
    .select()
    .from(withdrawals)
    .where(status ? eq(withdrawals.status, status) : undefined)
    .orderBy(asc(withdrawals.id))
    .limit(500);
  return { items: list.map((w) => ({ ...withdrawalStatus(w, required), userId: w.userId, nonce: w.nonce, kind: w.kind, reverts: w.reverts })) };
}

async function withdrawal(db: Db, id: number) {
  const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, id));
  if (!w) throw new ApiError(404, `no withdrawal ${id}`, 'NOT_FOUND');
  return w;
}
const notAwaiting = (id: number, status: string) => badRequest(`withdrawal ${id} is ${status}, not awaiting approval`, 'NOT_AWAITING_APPROVAL');

/** Approves a withdrawal awaiting approval: the payout job sends it. */
export async function approveWithdrawal(db: Db, who: string, id: number) {
  const w = await withdrawal(db, id);
  const done = await db.transaction(async (tx) => {
    const moved = await tx
      .update(withdrawals)
      .set({ status: 'requested', decidedBy: who, updatedAt: new Date() })
      .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'awaiting_approval')))
      .returning({ id: withdrawals.id });
    if (moved.length) await audit(tx, { actor: who, action: 'withdrawal.approve', target: String(w.id), before: { status: w.status }, after: { status: 'requested' } });
    return moved.length > 0;
  });
  if (!done) throw notAwaiting(w.id, w.status);
  return { id: w.id, status: 'requested' as const };
}

/** Rejects a withdrawal awaiting approval: its amount returns to the position and the user is told. */
export async function rejectWithdrawal(db: Db, notice: ReturnNotice, who: string, id: number, why: string | undefined) {
  const w = await withdrawal(db, id);
  const reason = why ? `REJECTED: ${why}` : 'REJECTED';
  const done = await db.transaction(async (tx) => {
    const returned = await returnWithdrawal(tx, w, reason, ['awaiting_approval'], notice, who);
    if (returned) await audit(tx, { actor: who, action: 'withdrawal.reject', target: String(w.id), before: { status: w.status }, after: { status: 'returned', reason } });
    return returned;
  });
  if (!done) throw notAwaiting(w.id, w.status);
  return { id: w.id, status: 'returned' as const };
}

/**
 * Releases a payout: one not signed yet (no nonce held) is returned at once; a signed one is
 * cancelled by a zero-value self-transfer at its nonce and returned once that is final.
 */
export async function cancelWithdrawal(db: Db, notice: ReturnNotice, who: string, id: number) {
  const w = await withdrawal(db, id);
  const status = await db.transaction(async (tx) => {
    if (await returnWithdrawal(tx, w, 'PAYOUT_CANCELLED', ['awaiting_approval', 'requested', 'waiting_funds'], notice, who)) {
      await audit(tx, { actor: who, action: 'withdrawal.cancel', target: String(w.id), before: { status: w.status }, after: { status: 'returned' } });
      return 'returned' as const;
    }
    const moved = await tx
      .update(withdrawals)
      .set({ status: 'cancelling', decidedBy: who, updatedAt: new Date() })
      .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'sending')))
      .returning({ id: withdrawals.id });
    if (!moved.length) return null;
    await audit(tx, { actor: who, action: 'withdrawal.cancel', target: String(w.id), before: { status: 'sending' }, after: { status: 'cancelling' } });
    return 'cancelling' as const;
  });
  if (!status) {
    const [now] = await db.select({ status: withdrawals.status }).from(withdrawals).where(eq(withdrawals.id, w.id));
    throw badRequest(`withdrawal ${w.id} is ${now?.status ?? w.status}: only a payout not yet paid or returned can be cancelled`, 'NOT_CANCELLABLE');
  }
  return { id: w.id, status };
}
