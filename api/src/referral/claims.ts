import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { apiMessages as M, type ReferralClaim } from '@app/contracts';
import type { Db } from '../db/client';
import { uniqueViolation } from '../db/errors';
import { users, withdrawals } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import { rows } from '../db/rows';
import { post, type LedgerTransaction } from '../ledger';
import { payoutRules, ruleFor, type WithdrawalRow } from '../payouts';

/** A claim is in payment from its request until the payout confirms or comes back. */
export const CLAIM_OPEN = ['requested', 'awaiting_approval', 'waiting_funds', 'sending', 'cancelling'] as const;

const inPayment = () => new ApiError(409, M.claimInProgress, 'CLAIM_IN_PROGRESS');

/** The claim's reservation: referral rewards payable → withdrawals in flight, like a withdrawal's. */
export function claimReserveTransaction(w: { id: number; currency: string; amount: string }, at: Date): LedgerTransaction {
  const amount = BigInt(w.amount);
  return {
    reference: `withdrawal:${w.id}:reserve`,
    kind: 'referral_claim',
    at,
    detail: { withdrawal: w.id },
    postings: [
      { account: { kind: 'referral_rewards_payable', currency: w.currency }, amount },
      { account: { kind: 'withdrawals_in_flight', currency: w.currency }, amount: -amount },
    ],
  };
}

/**
 * Claims every available reward of the payout currency: one statement marks them in payment,
 * sums them and stores the claim as a withdrawal of kind 'referral' (the payout job pays it to the
 * wallet linked now, from the hot wallet of the first pool that receives the currency). A reward
 * written while the claim runs is not in the statement's snapshot: it stays available for the next
 * claim. The partial unique index on open claims makes a concurrent second claim fail whole.
 */
export async function claimRewards(db: Db, userId: string, currency: string, chainId: number): Promise<WithdrawalRow> {
  const claimOpen = async (conn: Pick<Db, 'select'>) =>
    (
      await conn
        .select({ id: withdrawals.id })
        .from(withdrawals)
        .where(and(eq(withdrawals.userId, userId), eq(withdrawals.kind, 'referral'), inArray(withdrawals.status, [...CLAIM_OPEN])))
    ).length > 0;
  if (await claimOpen(db)) throw inPayment();
  const [some] = await rows<{ id: string }>(db, sql`select 1 as id from referral_day_rewards where user_id = ${userId} and currency = ${currency} and status = 'earned' and amount > 0 limit 1`);
  const nothingLeft = async (conn: Pick<Db, 'select'>) => ((await claimOpen(conn)) ? inPayment() : badRequest(M.nothingToClaim, 'NOTHING_TO_CLAIM'));
  // Checked again when nothing is left: a claim made at the same moment may have just taken it all.
  if (!some) throw await nothingLeft(db);
  const [user] = await db.select({ wallet: users.walletAddress }).from(users).where(eq(users.id, userId));
  if (!user?.wallet) throw badRequest(M.claimNoWallet, 'CLAIM_NO_WALLET');
  const [from] = await rows<{ pool: string }>(
    db,
    sql`select pa.pool from pool_addresses pa join pools p on p.name = pa.pool
        where pa.currency = ${currency} and pa.chain_id = ${chainId} order by p.sort, p.name limit 1`,
  );
  if (!from) throw new ApiError(503, M.withdrawalFailed, 'NO_PAYOUT_ADDRESS');
  const threshold = ruleFor(await payoutRules(db), currency).approvalThreshold;
  try {
    return await db.transaction(async (tx) => {
      const [claim] = await rows<{ id: string }>(
        tx,
        sql`
        with next as (select nextval(pg_get_serial_sequence('withdrawals', 'id')) as id),
        marked as (
          update referral_day_rewards set status = 'in_payment', withdrawal_id = (select id from next)
          where user_id = ${userId} and currency = ${currency} and status = 'earned'
          returning amount
        ),
        total as (select coalesce(sum(amount), 0) as amount from marked)
        insert into withdrawals (id, user_id, pool, currency, amount, fee, to_address, chain_id, status, kind)
        select (select id from next), ${userId}, ${from.pool}, ${currency}, t.amount, 0, ${user.wallet!.toLowerCase()}, ${chainId},
               case when ${threshold}::numeric is not null and t.amount > ${threshold}::numeric then 'awaiting_approval' else 'requested' end, 'referral'
        from total t where t.amount > 0
        returning id`,
      );
      if (!claim) throw await nothingLeft(tx);
      const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, Number(claim.id)));
      await post(tx, claimReserveTransaction({ id: row!.id, currency, amount: String(row!.amount) }, row!.createdAt));
      return row!;
    });
  } catch (err) {
    if (uniqueViolation(err) === 'withdrawals_one_referral_claim') throw inPayment();
    throw err;
  }
}

/** The user's latest claim as the API shows it, and whether one is in payment. */
export async function latestClaim(db: Db, userId: string): Promise<{ claim: ReferralClaim | null; inProgress: boolean }> {
  const [w] = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), eq(withdrawals.kind, 'referral')))
    .orderBy(desc(withdrawals.id))
    .limit(1);
  if (!w) return { claim: null, inProgress: false };
  const inProgress = (CLAIM_OPEN as readonly string[]).includes(w.status);
  return {
    inProgress,
    claim: {
      id: w.id,
      status: inProgress ? 'in_payment' : w.status === 'paid' ? 'paid' : 'returned',
      currency: w.currency,
      amount: String(w.amount),
      to: w.toAddress,
      transaction: w.status === 'sending' || w.status === 'paid' ? w.txHash : null,
      createdAt: w.createdAt.toISOString(),
      paidAt: w.paidAt?.toISOString() ?? null,
    },
  };
}
