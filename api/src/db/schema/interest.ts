import { bigint, date, numeric, pgTable, pgView, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { created, baseUnits } from './columns';

/**
 * Daily compounded interest, one row per user, pool, currency and day: a view of the interest
 * postings (0013), so the ledger is the only copy. Read-only.
 */
export const interestAccruals = pgView('interest_accruals', {
  userId: uuid('user_id').notNull(),
  pool: text('pool').notNull(),
  currency: text('currency').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  amount: baseUnits('amount').notNull(),
}).existing();

/**
 * How a pool's day of interest is split between database sessions (0013): fixed once, reused by
 * reruns. Since 0049 by the holders' user ids (`userBounds`, which the referral step's parts take
 * for theirs); a day split before has account-id `bounds` and no user bounds.
 */
export const interestDayParts = pgTable(
  'interest_day_parts',
  {
    pool: text('pool').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    bounds: bigint('bounds', { mode: 'bigint' }).array().notNull(),
    userBounds: uuid('user_bounds').array(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.day] })],
);

/** Each pool's APY from a day on; the history is kept. */
export const poolApy = pgTable(
  'pool_apy',
  {
    pool: text('pool').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    apy: numeric('apy', { precision: 24, scale: 18 }).notNull(),
    setBy: text('set_by').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.effectiveFrom] })],
);

/** Accrued days per pool (the marker that a day is done) with the rate used. */
export const interestDays = pgTable(
  'interest_days',
  {
    pool: text('pool').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    apy: numeric('apy', { precision: 24, scale: 18 }).notNull(),
    rate: numeric('rate', { precision: 40, scale: 0 }).notNull(),
    transactionId: bigint('transaction_id', { mode: 'number' }).notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.day] })],
);
