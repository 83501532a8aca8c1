import { bigserial, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts, created } from './columns';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    /** Lower-cased e-mail; null for an account made by wallet sign-in. */
    email: text('email'),
    passwordHash: text('password_hash'),
    name: text('name'),
    phone: text('phone'),
    telegram: text('telegram'),
    avatar: text('avatar'),
    /** Lower-cased 0x address; one account per wallet. */
    walletAddress: text('wallet_address'),
    /** null until the e-mail is confirmed. */
    role: text('role'),
    lang: text('lang').notNull().default('en'),
    /** light, dark or system; null until the user picks one in the settings. */
    theme: text('theme'),
    /** A new e-mail waiting for the code mailed to it; `email` changes when the code is confirmed. */
    pendingEmail: text('pending_email'),
    source: text('source'),
    referralCode: text('referral_code').notNull(),
    referrerId: uuid('referrer_id'),
    emailConfirmedAt: ts('email_confirmed_at'),
    /** When the login e-mail last changed in the settings: no code proves the owner through it during the hold. */
    emailChangedAt: ts('email_changed_at'),
    /** A change of the e-mail, password or wallet holds the account's payouts until then (issue 21, finding 1). */
    withdrawalsHeldUntil: ts('withdrawals_held_until'),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_wallet_key').on(t.walletAddress),
    uniqueIndex('users_referral_code_key').on(t.referralCode),
    index('users_referrer_idx').on(t.referrerId),
  ],
);

/** A login: the family of refresh tokens it rotates through. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: created(),
    /** Absolute end of the session: rotation does not extend it. */
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Only hashes are kept: a database leak gives no usable token. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: created(),
    usedAt: ts('used_at'),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const siweNonces = pgTable('siwe_nonces', {
  nonce: text('nonce').primaryKey(),
  createdAt: created(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

/** Codes mailed for approval and recovery; kept as HMACs. */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: created(),
  },
  (t) => [index('email_codes_user_purpose_idx').on(t.userId, t.purpose)],
);

/** Fixed-window counters for limits that must hold across replicas (per account). */
export const rateCounters = pgTable('rate_counters', {
  key: text('key').primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull(),
});
