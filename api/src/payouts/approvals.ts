// The operator's decisions on withdrawals: approve one awaiting approval, reject it, or cancel a
// payout not yet paid. Each moves the row only from the states it names, in one transaction with
// its audit entry, so two operators (or an operator and the payout job) cannot both act on it.
import { and, asc, count, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audit } from '../db/audit';
import { withdrawalApprovals, withdrawals } from '../db/schema';
import { apiMessages as M, type OperatorWithdrawalsQuery } from '@app/contracts';
import { ApiError, badRequest } from '../http/errors';
import type { ReturnNotice } from './notice';
import { returnWithdrawal, withdrawalStatus } from './requests';
import { approvalsNeeded, payoutRules, ruleFor } from './settings';

/** The withdrawals as the operator lists them, oldest first, filtered; each with its approvals so far. */
export async function operatorWithdrawals(db: Db, f: OperatorWithdrawalsQuery, required: number) {
  const since = f.olderThanHours === undefined ? undefined : new Date(Date.now() - f.olderThanHours * 3_600_000);
  const list = await db
    .select()
    .from(withdrawals)
    .where(
      and(
        f.status ? eq(withdrawals.status, f.status) : undefined,
        f.currency ? eq(withdrawals.currency, f.currency) : undefined,
        f.user ? eq(withdrawals.userId, f.user) : undefined,
        f.minAmount ? gte(withdrawals.amount, f.minAmount) : undefined,
        since ? lte(withdrawals.createdAt, since) : undefined,
      ),
    )
    .orderBy(asc(withdrawals.id))
    .limit(500);
  const ids = list.map((w) => w.id);
  const given = ids.length
    ? await db.select({ id: withdrawalApprovals.withdrawalId, n: count() }).from(withdrawalApprovals).where(inArray(withdrawalApprovals.withdrawalId, ids)).groupBy(withdrawalApprovals.withdrawalId)
    : [];
  const approvals = new Map(given.map((g) => [Number(g.id), Number(g.n)]));
  const rules = await payoutRules(db);
  return {
    items: list.map((w) => ({
      ...withdrawalStatus(w, required),
      userId: w.userId,
      nonce: w.nonce,
      kind: w.kind,
      reverts: w.reverts,
      approvals: approvals.get(w.id) ?? 0,
      approvalsNeeded: approvalsNeeded(ruleFor(rules, w.currency), BigInt(w.amount)),
      // The signer refused to sign it: not paid, and not tried again until an operator acts.
      signerRefusal: w.signerRefusal,
      signerRefusedAt: w.signerRefusedAt?.toISOString() ?? null,
      // A refusal that passes with time (the signer's rate, its day's cap) is asked again from then.
      signerRetryAt: w.signerRetryAt?.toISOString() ?? null,
    })),
  };
}

async function withdrawal(db: Db, id: number) {
  const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, id));
  if (!w) throw new ApiError(404, `no withdrawal ${id}`, 'NOT_FOUND');
  return w;
}
const notAwaiting = (id: number, status: string | undefined) => badRequest(`withdrawal ${id} is ${status}, not awaiting approval`, 'NOT_AWAITING_APPROVAL');

/** Who decides: the operator's user id (their own account's withdrawals are not theirs to approve) and their audit name. */
export type Approver = { id: string; actor: string };

/**
 * An operator's approval of a withdrawal awaiting approval. Above the currency's second threshold
 * two different operators must approve; until then it keeps waiting. Nobody approves a withdrawal
 * of their own account or one they requested for someone else, and an operator's second approval
 * is refused (the approvals' key is the withdrawal and the operator). The row is locked while
 * counting, so two operators approving at once count each other.
 */
export async function approveWithdrawal(db: Db, who: Approver, id: number) {
  const w = await withdrawal(db, id);
  if (w.userId === who.id || w.requestedBy === who.id) throw new ApiError(403, M.approvalOwnWithdrawal, 'OWN_WITHDRAWAL');
  const needed = approvalsNeeded(ruleFor(await payoutRules(db), w.currency), BigInt(w.amount));
  const result = await db.transaction(async (tx) => {
    const [now] = await tx.select({ status: withdrawals.status }).from(withdrawals).where(eq(withdrawals.id, w.id)).for('update');
    if (now?.status !== 'awaiting_approval') return { refused: now?.status ?? w.status };
    const added = await tx.insert(withdrawalApprovals).values({ withdrawalId: w.id, operatorId: who.id }).onConflictDoNothing().returning({ at: withdrawalApprovals.at });
    if (!added.length) return { again: true as const };
    const given = await tx.select({ operatorId: withdrawalApprovals.operatorId }).from(withdrawalApprovals).where(eq(withdrawalApprovals.withdrawalId, w.id));
    const approvals = given.length;
    const status = approvals >= needed ? ('requested' as const) : ('awaiting_approval' as const);
    if (status === 'requested') await tx.update(withdrawals).set({ status, decidedBy: who.actor, updatedAt: new Date() }).where(eq(withdrawals.id, w.id));
    await audit(tx, { actor: who.actor, action: 'withdrawal.approve', target: String(w.id), before: { status: 'awaiting_approval' }, after: { status, approvals, needed } });
    return { status, approvals };
  });
  if ('refused' in result) throw notAwaiting(w.id, result.refused);
  if ('again' in result) throw new ApiError(409, M.approvalAlreadyGiven, 'ALREADY_APPROVED');
  return { id: w.id, status: result.status, approvals: result.approvals, needed };
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
