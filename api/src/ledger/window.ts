import { sql, type SQL } from 'drizzle-orm';

/**
 * Bounds on the transaction ids of the transactions dated in a window, from `ledger_transactions_at_idx`
 * (0041): a posting carries no time of its own, so a read of a window of postings is a range of
 * transaction ids, which their index on transaction_id reads as a range, and an account's legs
 * from a written week on (`legsFrom`). A window with no transaction gives an empty range.
 */
const NONE = sql`9223372036854775807::bigint`;

/** The lowest id of a transaction dated at or after `at` (after it when `strict`). */
export function firstTransactionAt(at: SQL, strict = false): SQL {
  return sql`(select coalesce(min(id), ${NONE}) from ledger_transactions where at ${strict ? sql`>` : sql`>=`} ${at})`;
}

/** The highest id of a transaction dated after `after` (or at it, unless `strict`) and before `before`. */
export function lastTransactionBetween(after: SQL, before: SQL, strict = true): SQL {
  return sql`(select coalesce(max(id), 0) from ledger_transactions where at ${strict ? sql`>` : sql`>=`} ${after} and at < ${before})`;
}

/**
 * The legs `p` of transactions from id `from` on, as the index (account, written week) reads them
 * (0045): from the week the first such transaction was written in, less one, then by id. A leg's
 * week is its transaction's `created_at`'s, and a transaction with a higher id began before that
 * one at most by its own length (its id is drawn inside it), which the week of slack covers. The id
 * is compared as `+ 0`, which no index reads: as a range of the transaction index it looks like a
 * handful of legs whenever the statistics lag the newest ids, and the planner would read the range
 * once per account.
 */
export function legsFrom(p: string, from: SQL): SQL {
  const leg = sql.raw(p);
  return sql`${leg}.transaction_id + 0 >= ${from}
    and ${leg}.written_week >= (select ledger_week(created_at) - 1 from ledger_transactions where id >= ${from} order by id limit 1)`;
}

/**
 * The legs `p` (account_id, amount) of each transaction `t`, a FROM item before it: a lateral subquery the planner may
 * not flatten (offset 0), so it runs once per transaction, by the transaction index. Joined as a plain table, the legs
 * would be read however the statistics of the moment price it: by each account's whole history when they guess an
 * account holds one leg, or by a scan of the whole table when they guess the day's transactions hold a part of it.
 */
export function legsOfEach(t: string, p = 'p'): SQL {
  return sql.raw(`cross join lateral (select account_id, amount from ledger_postings where transaction_id = ${t}.id offset 0) ${p}`);
}
