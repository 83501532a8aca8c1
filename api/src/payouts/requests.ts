import { and, eq, sql } from 'drizzle-orm';
import { apiMessages as M } from '@app/contracts';
import type { Db } from '../db/client';
import { withdrawals } from '../db/schema';
import { badRequest } from '../http/errors';
import { InsufficientBalance, post, rows, type LedgerTransaction } from '../ledger';

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
 * Records a withdrawal request and reserves its amount in the ledger, in one database transaction.
 * The position's balance row is the lock: of concurrent requests for the same money, the ledger's
 * not-overdrawn constraint lets exactly as many through as the balance covers.
 */
export async function requestWithdrawal(db: Db, userId: string, req: WithdrawalRequest, status = 'requested'): Promise<WithdrawalRow> {
  const amount = BigInt(req.amount);
  const [position] = await rows<{ id: string }>(
    db,
    sql`select id from ledger_accounts where kind = 'position' and user_id = ${userId} and pool = ${req.pool} limit 1`,
  );
  if (!position) throw badRequest(M.notReplenished, 'NOT_REPLENISHED');
  if (amount <= 0n) throw badRequest(M.amountTooLarge, 'AMOUNT_TOO_LARGE', { amount: M.amountTooLarge });
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(withdrawals).values({ userId, pool: req.pool, currency: req.currency, amount: req.amount, status }).returning();
      if (!row) throw new Error('withdrawal not stored');
      await post(tx, reserveTransaction({ ...row, amount: String(row.amount) }, row.createdAt));
      return row;
    });
  } catch (err) {
    if (err instanceof InsufficientBalance) throw badRequest(M.amountTooLarge, 'AMOUNT_TOO_LARGE', { amount: M.amountTooLarge });
    throw err;
  }
}

export async function withdrawalsOf(db: Db, userId: string, pool?: string) {
  return db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), pool ? eq(withdrawals.pool, pool) : undefined))
    .orderBy(sql`${withdrawals.id} desc`)
    .limit(200);
}
