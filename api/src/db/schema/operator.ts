import { bigserial, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';

export const operatorAudit = pgTable('operator_audit', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
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
