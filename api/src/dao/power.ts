import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/rows';
import type { PriceSource } from '../pricing/prices';

/** US dollars are counted in 10^-8 units (the precision of the price table), as bigints. */
const USD_SCALE = 8;

/** "2000.5" → 200050000000n (10^-8 dollars). */
export function usdToUnits(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 10n ** BigInt(USD_SCALE) + BigInt((fraction + '0'.repeat(USD_SCALE)).slice(0, USD_SCALE) || '0');
}

/** 200050000000n → "2000.5" (no trailing zeros, no float on the way). */
export function unitsToUsd(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / 10n ** BigInt(USD_SCALE);
  const fraction = (abs % 10n ** BigInt(USD_SCALE)).toString().padStart(USD_SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The user's positions at `at`, per currency in base units, from the ledger: every posting on the
 * user's position accounts dated by then (deposits, daily interest, withdrawal reservations and
 * returns). Voting power reads money only here.
 */
export async function positionsAt(db: Db, userId: string, at: Date): Promise<Array<{ currency: string; units: bigint; decimals: number }>> {
  const rows = await queryRows<{ currency: string; units: string; decimals: number }>(
    db,
    sql`select a.currency, (-sum(p.amount))::text as units, c.decimals
        from ledger_postings p
        join ledger_accounts a on a.id = p.account_id
        join currencies c on c.code = a.currency
        where a.kind = 'position' and a.user_id = ${userId} and p.at <= ${at.toISOString()}
        group by a.currency, c.decimals`,
  );
  return rows.map((r) => ({ currency: r.currency, units: BigInt(r.units), decimals: Number(r.decimals) })).filter((p) => p.units > 0n);
}

/**
 * Voting power: the US-dollar value of the user's positions at `at`, with the configured price
 * source, in 10^-8 dollars (rounded down per currency).
 */
export async function votingPowerAt(db: Db, prices: PriceSource, userId: string, at: Date): Promise<bigint> {
  const positions = await positionsAt(db, userId, at);
  if (!positions.length) return 0n;
  const usd = await prices.usdPrices(positions.map((p) => p.currency));
  let total = 0n;
  for (const p of positions) {
    const price = usd.get(p.currency);
    if (price) total += (p.units * usdToUnits(price)) / 10n ** BigInt(p.decimals);
  }
  return total;
}
