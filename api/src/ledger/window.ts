import { sql, type SQL } from 'drizzle-orm';

/**
 * Bounds on the transaction ids of the transactions dated in a window, from `ledger_transactions_at_idx`
 * (0041): a posting carries no time of its own, so a read of a window of postings is a range of
 * transaction ids, which both the postings' key (account, transaction) and their BRIN index on
 * transaction_id read as a range. A window with no transaction gives an empty range.
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
