import { bigint, bigserial, date, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts, created } from './columns';
import { users } from './auth';
import { withdrawals } from './payouts';

/**
 * Append-only (a trigger refuses update, delete and truncate) and hash-chained: the insert trigger
 * sets `seq`, `prev_hash` and `hash` (0027), so a removed or altered row breaks the chain.
 */
export const operatorAudit = pgTable('operator_audit', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  seq: bigint('seq', { mode: 'number' }),
  prevHash: text('prev_hash'),
  hash: text('hash'),
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  target: text('target'),
  before: jsonb('before'),
  after: jsonb('after'),
  at: ts('at').notNull().defaultNow(),
});

/** One runner per job across replicas. */
export const jobLeases = pgTable('job_leases', {
  job: text('job').primaryKey(),
  owner: text('owner').notNull(),
  leaseUntil: ts('lease_until').notNull(),
  lastRunAt: ts('last_run_at'),
  lastError: text('last_error'),
});

/** What the operator must look at (`npm run operator -- alerts`): one row per subject, counted when raised again. */
export const operatorAlerts = pgTable('operator_alerts', {
  key: text('key').primaryKey(),
  kind: text('kind').notNull(),
  message: text('message').notNull(),
  detail: jsonb('detail'),
  firstAt: ts('first_at').notNull().defaultNow(),
  lastAt: ts('last_at').notNull().defaultNow(),
  count: integer('count').notNull().default(1),
  resolvedAt: ts('resolved_at'),
});

/** A named operator: a user account with the operator role, its TOTP secret and the hash of its CLI key. */
export const operators = pgTable(
  'operators',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    totpSecret: text('totp_secret').notNull(),
    keyHash: text('key_hash').notNull(),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    createdAt: created(),
    disabledAt: ts('disabled_at'),
  },
  (t) => [uniqueIndex('operators_name_key').on(t.name)],
);

/** The console's sessions; only the token's hash is kept. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    createdAt: created(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    endedAt: ts('ended_at'),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId)],
);

/** Four eyes: one row per operator who approved a withdrawal. */
export const withdrawalApprovals = pgTable(
  'withdrawal_approvals',
  {
    withdrawalId: bigint('withdrawal_id', { mode: 'number' })
      .notNull()
      .references(() => withdrawals.id, { onDelete: 'cascade' }),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'restrict' }),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.withdrawalId, t.operatorId] })],
);

/**
 * Changes of the money settings awaiting a second operator (0034): proposed by one, applied or
 * rejected by a decision; `before` is the setting as it stood when proposed (an approval that finds
 * it otherwise is refused as stale).
 */
export const settingChanges = pgTable(
  'setting_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'apy' (target: the pool), 'payout' (target: the currency), 'limits' (target: 'withdrawals') or 'referral' (target: its first day; 0037). */
    kind: text('kind').notNull(),
    target: text('target').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }),
    before: jsonb('before').notNull(),
    after: jsonb('after').notNull(),
    /** pending → applied (by another operator) or rejected. */
    status: text('status').notNull().default('pending'),
    proposedBy: uuid('proposed_by')
      .notNull()
      .references(() => operators.id, { onDelete: 'restrict' }),
    decidedBy: uuid('decided_by').references(() => operators.id, { onDelete: 'restrict' }),
    reason: text('reason'),
    createdAt: created(),
    decidedAt: ts('decided_at'),
  },
  (t) => [index('setting_changes_status_idx').on(t.status, t.id)],
);
