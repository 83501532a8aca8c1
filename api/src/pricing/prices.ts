import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { coinPrices } from '../db/schema';
import type { SharedFigures } from '../http/shared-figures';

/**
 * Where the pools' USD estimates come from. The operator picks a source by name (PRICE_SOURCE);
 * a real feed implements this interface (or writes its rows into coin_prices under its own name).
 * Prices are exact decimal strings, never floats.
 */
export interface PriceSource {
  readonly name: string;
  /** USD price of one whole unit per currency; currencies without a price are left out. */
  usdPrices(currencies: readonly string[]): Promise<Map<string, string>>;
}

/** Prices kept in the coin_prices table under one source name (the local stack seeds 'local'). */
export function tablePriceSource(db: Db, name: string): PriceSource {
  return {
    name,
    async usdPrices(currencies) {
      if (!currencies.length) return new Map();
      const rows = await db
        .select({ currency: coinPrices.currency, usd: coinPrices.usd })
        .from(coinPrices)
        .where(and(eq(coinPrices.source, name), inArray(coinPrices.currency, [...currencies])));
      return new Map(rows.map((r) => [r.currency, r.usd]));
    },
  };
}

/** The source's prices through the server's shared figures: at most `SHARED_FIGURES_MS` old, for the reads. */
export function sharedPriceSource(source: PriceSource, figures: SharedFigures): PriceSource {
  return {
    name: source.name,
    usdPrices: (currencies) => figures.get(`prices:${source.name}:${[...currencies].sort().join(',')}`, () => source.usdPrices(currencies)),
  };
}

/** Stores prices under a source (what a feed would call on each update). */
export async function setPrices(db: Db, source: string, prices: Record<string, string>): Promise<void> {
  const rows = Object.entries(prices).map(([currency, usd]) => ({ source, currency, usd, updatedAt: new Date() }));
  if (!rows.length) return;
  for (const r of rows) {
    await db
      .insert(coinPrices)
      .values(r)
      .onConflictDoUpdate({ target: [coinPrices.source, coinPrices.currency], set: { usd: r.usd, updatedAt: r.updatedAt } });
  }
}
