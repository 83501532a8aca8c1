import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts, created, baseUnits, xid8 } from './columns';

/**
 * Ledger accounts (see `src/ledger/README.md`). `balance` is the signed sum of the account's
 * postings (debit positive), maintained in the posting's own transaction; `ledger check` holds it
 * equal to the entries.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    /** position, house, reserves, withdrawals_in_flight, referral_rewards_payable */
    kind: text('kind').notNull(),
    currency: text('currency').notNull(),
    userId: uuid('user_id'),
    pool: text('pool'),
    address: text('address'),
    balance: baseUnits('balance').notNull().default('0'),
    /** A position's all-time figures (0021), natural like the user reads them, moved with the balance: deposits, withdrawals requested less returned, interest. */
    deposited: baseUnits('deposited').notNull().default('0'),
    withdrawn: baseUnits('withdrawn').notNull().default('0'),
    interest: baseUnits('interest').notNull().default('0'),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_key').on(t.key),
    index('ledger_accounts_user_idx').on(t.userId),
    index('ledger_accounts_books_idx').on(t.kind, t.currency).where(sql`${t.kind} <> 'position'`),
  ],
);

/** A balanced set of postings with a unique idempotency reference; never updated or deleted. */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    kind: text('kind').notNull(),
    /** When the movement takes effect (interest of day D: the end of D). */
    at: ts('at').notNull().defaultNow(),
    detail: jsonb('detail'),
    /** The database transaction that wrote it (0021; null before): what the incremental check has seen. */
    writtenBy: xid8('written_by').default(sql`pg_current_xact_id()`),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_reference').on(t.reference),
    index('ledger_transactions_at_idx').on(t.at),
    index('ledger_transactions_written_by_idx').on(t.writtenBy),
  ],
);

/**
 * One leg per account and transaction (0013, held by the statement trigger since 0045), its currency
 * its account's and its time its transaction's (0041: no copies on the leg). The reads by account go
 * by (account, written week) (0045): btree deduplication keeps a week of an account's legs as one
 * entry, and a window of history is the legs from a week on (`src/ledger/window.ts`). A btree on
 * transaction_id, deduplicated the same way, serves the reads by transaction. Its
 * transaction and account are checked once per inserting statement by a trigger (0010), not per row
 * by foreign keys.
 */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    transactionId: bigint('transaction_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    /** Signed base units: debit positive, credit negative. */
    amount: baseUnits('amount').notNull(),
    /** The week (since Monday 5 January 1970, UTC) its database transaction began in: that of its ledger transaction's `created_at`. */
    writtenWeek: smallint('written_week').notNull().default(sql`ledger_week(now())`),
  },
  (t) => [
    index('ledger_postings_account_idx').on(t.accountId, t.writtenWeek),
    index('ledger_postings_transaction_idx').on(t.transactionId),
  ],
);

/** Each pool's positions' signed total per currency (0021), moved by a trigger with every change of a position's balance: the TVL. */
export const poolTotals = pgTable(
  'pool_totals',
  {
    pool: text('pool').notNull(),
    currency: text('currency').notNull(),
    balance: baseUnits('balance').notNull().default('0'),
  },
  (t) => [primaryKey({ name: 'pool_totals_pk', columns: [t.pool, t.currency] })],
);

/** Where the incremental ledger check stopped (0021): every transaction written below the horizon is in the checked sums. */
export const ledgerCheckpoint = pgTable(
  'ledger_checkpoint',
  {
    id: integer('id').primaryKey().default(1),
    /** Empty until a first pass has finished. */
    horizon: xid8('horizon'),
    checkedAt: ts('checked_at').notNull().defaultNow(),
    // A pass in steps (0044): its own horizon, the first transaction id it reads from, the next and
    // the last account id of its walk, and how many transactions it takes in.
    passHorizon: xid8('pass_horizon'),
    passFrom: bigint('pass_from', { mode: 'number' }),
    passNextAccount: bigint('pass_next_account', { mode: 'number' }),
    passLastAccount: bigint('pass_last_account', { mode: 'number' }),
    passTransactions: integer('pass_transactions'),
  },
  (t) => [check('ledger_checkpoint_id_check', sql`${t.id} = 1`)],
);

/** Per account, the sums of its postings below the checkpoint's horizon. */
export const ledgerCheckedAccounts = pgTable('ledger_checked_accounts', {
  accountId: bigint('account_id', { mode: 'number' }).primaryKey(),
  entries: baseUnits('entries').notNull(),
  deposited: baseUnits('deposited').notNull(),
  withdrawn: baseUnits('withdrawn').notNull(),
  interest: baseUnits('interest').notNull(),
});

/** Per pool and currency, the sum of its positions' postings below the checkpoint's horizon. */
export const ledgerCheckedPools = pgTable(
  'ledger_checked_pools',
  {
    pool: text('pool').notNull(),
    currency: text('currency').notNull(),
    entries: baseUnits('entries').notNull(),
  },
  (t) => [primaryKey({ name: 'ledger_checked_pools_pk', columns: [t.pool, t.currency] })],
);

/** A pass in steps (0044): what its steps so far add to each transaction, per currency (zero once all its legs are read). */
export const ledgerCheckPassTransactions = pgTable(
  'ledger_check_pass_transactions',
  {
    transactionId: bigint('transaction_id', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    sum: baseUnits('sum').notNull(),
  },
  (t) => [primaryKey({ name: 'ledger_check_pass_transactions_pk', columns: [t.transactionId, t.currency] })],
);

/** A pass in steps (0044): what its steps so far add to each pool's positions. */
export const ledgerCheckPassPools = pgTable(
  'ledger_check_pass_pools',
  {
    pool: text('pool').notNull(),
    currency: text('currency').notNull(),
    entries: baseUnits('entries').notNull(),
  },
  (t) => [primaryKey({ name: 'ledger_check_pass_pools_pk', columns: [t.pool, t.currency] })],
);
