import { bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts, created } from './columns';

/** Every mail goes here first; a worker sends pending ones over SMTP. */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    /** The brand's sender ("Name" <address>), chosen when queued; null: MAIL_FROM. */
    fromAddress: text('from_address'),
    text: text('text_body').notNull(),
    html: text('html_body').notNull(),
    lang: text('lang').notNull(),
    kind: text('kind').notNull(),
    /** pending (to be sent), sending, sent, failed, or unsent (no SMTP configured). Bodies are redacted once not pending. */
    status: text('status').notNull(),
    /** When a worker took it for sending: a stale claim means the worker died, and it is sent again. */
    claimedAt: ts('claimed_at'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: created(),
    sentAt: ts('sent_at'),
  },
  (t) => [index('outbox_status_idx').on(t.status), index('outbox_to_idx').on(t.to)],
);
