import { and, eq, sql } from 'drizzle-orm';
import { apiMessages as M, formatMessage, type PoolName, type WithdrawalStatus } from '@app/contracts';
import { decimalsOfCurrency } from '../db/currencies';
import type { Db } from '../db/client';
import { users, withdrawals } from '../db/schema';
import { badRequest } from '../http/errors';
import { rows } from '../db/rows';
import { InsufficientBalance, post, type AccountRef, type Conn, type LedgerTransaction } from '../ledger';
import { mailHeld, mailReturned, type ReturnNotice } from './notice';
import { checkAmount, checkRequestCounts, lockAccount, lockDestination, recentWithdrawals } from './limits';
import { payoutRules, quote, ruleFor, withdrawalLimits } from './settings';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type WithdrawalRequest = { pool: string; currency: string; amount: string };

/** The reservation of a withdrawal: position → withdrawals in flight, so the amount stops earning at once. */
export function reserveTransaction(w: { id: number; userId: string; pool: string; currency: string; amount: string }, at = new Date()): LedgerTransaction {
  const amount = BigInt(w.amount);
  return {
    reference: `withdrawal:${w.id}:reserve`,
    kind: 'withdrawal_reserve',
    at,
    detail: { withdrawal: w.id },
    postings: [
      { account: { kind: 'position', userId: w.userId, pool: w.pool, currency: w.currency }, amount },
      { account: { kind: 'withdrawals_in_flight', currency: w.currency }, amount: -amount },
    ],
  };
}

/**
 * The reversal of a reservation (refused, reverted or dropped payout): the amount goes back to the
 * position, or for a claim of referral rewards to the rewards payable (the rewards are available
 * again: migration 0009's trigger on the status).
 */
export function returnTransaction(w: { id: number; userId: string; pool: string; currency: string; amount: string; kind?: string }, reason: string): LedgerTransaction {
  const amount = BigInt(w.amount);
  const back: AccountRef =
    w.kind === 'referral' ? { kind: 'referral_rewards_payable', currency: w.currency } : { kind: 'position', userId: w.userId, pool: w.pool, currency: w.currency };
  return {
    reference: `withdrawal:${w.id}:return`,
    kind: 'withdrawal_return',
    detail: { withdrawal: w.id, reason },
    postings: [
      { account: { kind: 'withdrawals_in_flight', currency: w.currency }, amount },
      { account: back, amount: -amount },
    ],
  };
}

/**
 * Returns a withdrawal's amount to the balance and marks it returned, once (a no-op if it is already
 * settled), and queues the user's mail about it in the same transaction.
 */
export async function returnWithdrawal(conn: Conn, w: WithdrawalRow, reason: string, from: string[], notice: ReturnNotice, decidedBy?: string) {
  return conn.transaction(async (tx) => {
    const done = await tx
      .update(withdrawals)
      .set({ status: 'returned', reason, updatedAt: new Date(), ...(decidedBy ? { decidedBy } : {}) })
      .where(and(eq(withdrawals.id, w.id), sql`${withdrawals.status} in (${sql.join(from.map((f) => sql`${f}`), sql`, `)})`))
      .returning({ id: withdrawals.id });
    if (!done.length) return false;
    await post(tx, returnTransaction({ ...w, amount: String(w.amount) }, reason));
    await mailReturned(tx, notice, w, reason);
    return true;
  });
}

/**
 * Records a withdrawal request and reserves its amount in the ledger, in one database transaction.
 * The position's balance row is the lock: of concurrent requests for the same money, the ledger's
 * not-overdrawn constraint lets exactly as many through as the balance covers. The payout goes to
 * the linked wallet. The currency's rule sets the smallest amount; the account's request counts and
 * the approval threshold's rolling sums are read under the account's lock (`limits.ts`), so two
 * requests at once, on two replicas, are counted and summed one after the other. `held`: the
 * account's payouts are held until then (a recent change of a credential), and the user is mailed so.
 */
export async function requestWithdrawal(db: Db, userId: string, req: WithdrawalRequest, held?: { until: string; notice: ReturnNotice }): Promise<WithdrawalRow> {
  const amount = BigInt(req.amount);
  const [position] = await rows<{ id: string }>(
    db,
    sql`select id from ledger_accounts where kind = 'position' and user_id = ${userId} and pool = ${req.pool} limit 1`,
  );
  // Read now, not from the session (and again under the lock below): the payout goes to the wallet linked at this moment.
  const [user] = await db.select({ walletAddress: users.walletAddress }).from(users).where(eq(users.id, userId));
  if (!position) throw badRequest(M.notReplenished, 'NOT_REPLENISHED');
  if (!user?.walletAddress) throw badRequest(M.withdrawalNoWallet, 'NO_LINKED_WALLET');
  if (amount <= 0n) throw badRequest(M.invalidFields, 'VALIDATION', { amount: M.required });
  const rule = ruleFor(await payoutRules(db), req.currency);
  checkAmount(rule, req.currency, await decimalsOfCurrency(db, req.currency), amount);
  try {
    return await db.transaction(async (tx) => {
      // The wallet as it is under the lock: a change made meanwhile is either before this or after.
      const to = await lockAccount(tx, userId);
      if (!to) throw badRequest(M.withdrawalNoWallet, 'NO_LINKED_WALLET');
      await lockDestination(tx, to);
      const limits = await withdrawalLimits(tx);
      const recent = await recentWithdrawals(tx, userId, to, req.currency, limits);
      checkRequestCounts(recent, limits);
      const q = quote(rule, amount, recent.sums);
      const [row] = await tx
        .insert(withdrawals)
        .values({
          userId,
          pool: req.pool,
          currency: req.currency,
          amount: req.amount,
          fee: String(q.fee),
          toAddress: to,
          status: q.approvalRequired ? 'awaiting_approval' : 'requested',
        })
        .returning();
      if (!row) throw new Error('withdrawal not stored');
      await post(tx, reserveTransaction({ ...row, amount: String(row.amount) }, row.createdAt));
      // A recent change of a credential holds the payout: the user hears of it at once, with its end.
      if (held) await mailHeld(tx, held.notice, row, held.until);
      return row;
    });
  } catch (err) {
    if (err instanceof InsufficientBalance) throw badRequest(M.amountTooLarge, 'AMOUNT_TOO_LARGE', { amount: M.amountTooLarge });
    throw err;
  }
}

/** The quote shown before a request: the approval as the request would decide it now. */
export async function quoteWithdrawal(db: Db, userId: string, currency: string, amount: bigint) {
  const rule = ruleFor(await payoutRules(db), currency);
  const [user] = await db.select({ walletAddress: users.walletAddress }).from(users).where(eq(users.id, userId));
  const limits = await withdrawalLimits(db);
  const recent = await recentWithdrawals(db, userId, user?.walletAddress ?? '', currency, limits);
  return quote(rule, amount, recent.sums);
}

const reasonMessages: Record<string, string> = {
  PAYOUT_REVERTED: M.withdrawalReturnedReverted,
  PAYOUT_DROPPED: M.withdrawalReturnedDropped,
  PAYOUT_RECIPIENT_REVERTS: M.withdrawalReturnedRecipientReverts,
  PAYOUT_CANCELLED: M.withdrawalReturnedCancelled,
  REJECTED: M.withdrawalRejected,
};

/** A row as the API shows it. */
export function withdrawalStatus(w: WithdrawalRow, required: number): WithdrawalStatus {
  const amount = BigInt(w.amount);
  const fee = BigInt(w.fee);
  return {
    id: w.id,
    pool: w.pool as PoolName,
    currency: w.currency,
    amount: String(amount),
    fee: String(fee),
    receive: String(amount - fee),
    status: w.status as WithdrawalStatus['status'],
    to: w.toAddress,
    transaction: w.status === 'sending' || w.status === 'cancelling' || w.status === 'paid' ? w.txHash : null,
    confirmations: w.status === 'paid' ? Math.max(w.confirmations, required) : w.confirmations,
    confirmationsRequired: required,
    reason: w.status === 'waiting_funds' ? M.withdrawalWaitingFunds : w.reason ? (reasonMessages[w.reason.split(':')[0]!] ?? w.reason) : null,
    createdAt: w.createdAt.toISOString(),
    paidAt: w.paidAt?.toISOString() ?? null,
  };
}

export async function withdrawalsOf(db: Db, userId: string, pool?: string) {
  return db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), eq(withdrawals.kind, 'position'), pool ? eq(withdrawals.pool, pool) : undefined))
    .orderBy(sql`${withdrawals.id} desc`)
    .limit(200);
}

/**
 * The answer to an accepted request. `heldUntil`: when a recent change of a credential holds the
 * account's payouts, the payout job leaves the request until then, and the answer says so.
 */
export function withdrawalAccepted(w: WithdrawalRow, heldUntil: string | null) {
  const message = heldUntil
    ? formatMessage(M.withdrawalsHeld, { until: `${heldUntil.slice(0, 16).replace('T', ' ')} UTC` })
    : w.status === 'awaiting_approval' ? M.withdrawalAwaitingApproval : M.withdrawalSent;
  return { message, id: w.id, status: w.status, createdAt: w.createdAt.toISOString() };
}

/** The user's withdrawals as the API shows them; those the hold keeps waiting carry its end. */
export async function withdrawalList(db: Db, userId: string, pool: string | undefined, required: number, heldUntil: string | null) {
  return {
    items: (await withdrawalsOf(db, userId, pool)).map((w) => ({
      ...withdrawalStatus(w, required),
      ...(heldUntil && (w.status === 'requested' || w.status === 'awaiting_approval') ? { heldUntil } : {}),
    })),
  };
}

/** The fee, what arrives and whether an operator must approve, with the hold's end if any. */
export async function withdrawalQuote(db: Db, userId: string, currency: string, amount: bigint, heldUntil: string | null) {
  const q = await quoteWithdrawal(db, userId, currency, amount);
  return { fee: String(q.fee), receive: String(q.receive), approvalRequired: q.approvalRequired, ...(heldUntil ? { heldUntil } : {}) };
}
