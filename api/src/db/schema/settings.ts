import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { ts, bytea } from './columns';

export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

/** Avatar images, apart from users: every authenticated request reads the user row, none needs the image. */
export const avatars = pgTable('avatars', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Accounts that dismissed the cabinet's first-steps tutorial (remembered per account, not per browser). */
export const tutorialDismissals = pgTable('tutorial_dismissals', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  dismissedAt: ts('dismissed_at').notNull().defaultNow(),
});
