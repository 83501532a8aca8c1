import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { currencies } from './catalog';
import { ts, usd } from './columns';

/** Coin prices in US dollars per price source; the configured source (PRICE_SOURCE) is the one read. */
export const coinPrices = pgTable(
  'coin_prices',
  {
    source: text('source').notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    usd: usd('usd').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.currency] })],
);
