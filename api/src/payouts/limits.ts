import { formatUnits } from '@app/web3';
import { apiMessages as M, formatMessage } from '@app/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ApiError, badRequest } from '../http/errors';
import { rows } from '../db/rows';
import type { PayoutRule, RecentSums, WithdrawalLimits } from './settings';

type Exec = Pick<Db, 'execute'>;

/**
 * Refuses an amount the currency's rule does not allow: a closed currency, less than the minimum
 * (the house would pay more gas than the payout is worth), or not more than the fee.
 */
export function checkAmount(rule: PayoutRule, currency: string, decimals: number, amount: bigint) {
  if (rule.minimum === null) {
    const msg = formatMessage(M.withdrawalsClosed, { currency });
    throw badRequest(msg, 'WITHDRAWALS_CLOSED', { currency: msg });
  }
  if (amount < BigInt(rule.minimum)) {
    const msg = formatMessage(M.withdrawalBelowMinimum, { currency, minimum: `${formatUnits(BigInt(rule.minimum), decimals)} ${currency}` });
    throw badRequest(msg, 'BELOW_MINIMUM', { amount: msg });
  }
  const fee = BigInt(rule.fee);
  if (amount <= fee) {
    const msg = formatMessage(M.withdrawalFeeTooHigh, { fee: `${formatUnits(fee, decimals)} ${currency}` });
    throw badRequest(msg, 'FEE_TOO_HIGH', { amount: msg });
  }
}

/**
 * Serialises the requests that the limits and the approval sums depend on: the account's row
 * (every request of one account, on any replica), which also holds its linked wallet still, then
 * `lockDestination`. Always in that order, so two requests never wait for each other. Only inside
 * a transaction; the locks end with it. Answers the wallet linked now, lower-case, or null.
 */
export async function lockAccount(tx: Exec, userId: string): Promise<string | null> {
  const [user] = await rows<{ wallet: string | null }>(tx, sql`select wallet_address as wallet from users where id = ${userId} for update`);
  return user?.wallet?.toLowerCase() ?? null;
}

/** Serialises the requests of different accounts paying the same address. */
export async function lockDestination(tx: Exec, to: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`withdrawal-destination:${to}`}, 0))`);
}

/**
 * The account's requests in the last hour and day (pool withdrawals; a claim of rewards has its own
 * one-at-a-time rule), and what the account and the destination withdrew in the currency within
 * the approval window, returned ones left out (their money never left). Read under
 * `lockAccount` and `lockDestination`, these are exact: every earlier request is committed and counted.
 */
export async function recentWithdrawals(conn: Exec, userId: string, to: string, currency: string, limits: WithdrawalLimits) {
  const [mine] = await rows<{ hour: number; day: number; sum: string }>(
    conn,
    sql`select count(*) filter (where kind = 'position' and created_at > now() - interval '1 hour')::int as hour,
               count(*) filter (where kind = 'position' and created_at > now() - interval '24 hours')::int as day,
               coalesce(sum(amount) filter (where currency = ${currency} and status <> 'returned'
                 and created_at > now() - make_interval(hours => ${limits.windowHours}::int)), 0)::text as sum
        from withdrawals
        where user_id = ${userId} and created_at > now() - make_interval(hours => ${Math.max(24, limits.windowHours)}::int)`,
  );
  const [theirs] = await rows<{ sum: string }>(
    conn,
    sql`select coalesce(sum(amount), 0)::text as sum from withdrawals
        where to_address = ${to.toLowerCase()} and currency = ${currency} and status <> 'returned'
          and created_at > now() - make_interval(hours => ${limits.windowHours}::int)`,
  );
  const sums: RecentSums = { account: BigInt(mine?.sum ?? '0'), destination: BigInt(theirs?.sum ?? '0') };
  return { lastHour: mine?.hour ?? 0, lastDay: mine?.day ?? 0, sums };
}

/** Refuses a request past the account's hourly or daily count. */
export function checkRequestCounts(recent: { lastHour: number; lastDay: number }, limits: WithdrawalLimits) {
  if (recent.lastHour >= limits.perHour) throw new ApiError(429, formatMessage(M.withdrawalsPerHour, { max: limits.perHour }), 'WITHDRAWALS_PER_HOUR');
  if (recent.lastDay >= limits.perDay) throw new ApiError(429, formatMessage(M.withdrawalsPerDay, { max: limits.perDay }), 'WITHDRAWALS_PER_DAY');
}
