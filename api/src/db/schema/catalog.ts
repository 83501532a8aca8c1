import { boolean, date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts, baseUnits, usd } from './columns';

export const currencies = pgTable('currencies', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  decimals: integer('decimals').notNull(),
  native: boolean('native').notNull().default(false),
  sort: integer('sort').notNull().default(0),
  /** Fiat estimate of one whole unit. */
  usdRate: usd('usd_rate').notNull().default('0'),
});

export const currencyAddresses = pgTable(
  'currency_addresses',
  {
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.chainId] })],
);

export const pools = pgTable('pools', {
  name: text('name').primaryKey(),
  title: text('title').notNull(),
  riskLevel: text('risk_level').notNull(),
  /** Why the pool carries its risk level, in words (the home page shows it beside the level). */
  riskReason: text('risk_reason').notNull().default(''),
  description: text('description').notNull(),
  /** Address deposits are sent to (set per deployment). */
  depositAddress: text('deposit_address'),
  sort: integer('sort').notNull().default(0),
});

/** A pool's title and strategy text in a language other than English (English is in `pools`). */
export const poolTexts = pgTable(
  'pool_texts',
  {
    pool: text('pool')
      .notNull()
      .references(() => pools.name),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    riskReason: text('risk_reason').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.pool, t.lang] })],
);

export const poolAssets = pgTable(
  'pool_assets',
  {
    pool: text('pool')
      .notNull()
      .references(() => pools.name),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    shareBps: integer('share_bps').notNull(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.currency] })],
);

/**
 * A pool's books at the close of an accrued day, interest of the day included: what its positions
 * held per currency (written by the accrual, 0019). With `interest_days` (the APY the day used),
 * the pool's history.
 */
export const poolDays = pgTable(
  'pool_days',
  {
    pool: text('pool')
      .notNull()
      .references(() => pools.name),
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    tvl: baseUnits('tvl').notNull(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.day, t.currency] })],
);

/** Operator configuration: where each pool receives each currency, per chain. */
export const poolAddresses = pgTable(
  'pool_addresses',
  {
    pool: text('pool')
      .notNull()
      .references(() => pools.name),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    chainId: integer('chain_id').notNull(),
    /** Lower-cased 0x address. */
    address: text('address').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.currency, t.chainId] })],
);

export const faq = pgTable('faq', {
  id: integer('id').primaryKey(),
  lang: text('lang').notNull(),
  question: text('question').notNull(),
  answer: text('answer').notNull(),
  sort: integer('sort').notNull().default(0),
});
