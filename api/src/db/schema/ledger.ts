import { bigint, bigserial, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts, created, baseUnits } from './columns';

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
    createdAt: created(),
  },
  (t) => [uniqueIndex('ledger_accounts_key').on(t.key), index('ledger_accounts_user_idx').on(t.userId)],
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
    createdAt: created(),
  },
  (t) => [uniqueIndex('ledger_transactions_reference').on(t.reference), index('ledger_transactions_at_idx').on(t.at)],
);

/** One leg per transaction and account (0013). Its transaction and account are checked once per inserting statement by a trigger (0010), not per row by foreign keys. */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    transactionId: bigint('transaction_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /** Signed base units: debit positive, credit negative. */
    amount: baseUnits('amount').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('ledger_postings_account_idx').on(t.accountId, t.at), primaryKey({ name: 'ledger_postings_once', columns: [t.transactionId, t.accountId] })],
);
