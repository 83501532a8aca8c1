import { bigserial, boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts, created } from './columns';
import { users } from './auth';

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
    /** The event a mail tells of (e.g. `deposit-credited:42`): queued once however often its job runs. */
    eventKey: text('event_key'),
  },
  (t) => [index('outbox_status_idx').on(t.status), index('outbox_to_idx').on(t.to), uniqueIndex('outbox_event_key_idx').on(t.eventKey)],
);

/** Which mails about money an account wants (all by default); security notices are always sent. */
export const mailPreferences = pgTable('mail_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  depositCredited: boolean('deposit_credited').notNull().default(true),
  withdrawalPaid: boolean('withdrawal_paid').notNull().default(true),
  withdrawalReturned: boolean('withdrawal_returned').notNull().default(true),
  claimPaid: boolean('claim_paid').notNull().default(true),
  withdrawalHeld: boolean('withdrawal_held').notNull().default(true),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
