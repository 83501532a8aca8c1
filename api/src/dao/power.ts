import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedRows } from '../db/rows';
import type { TransactionKind } from '../ledger';
import { firstTransactionAt, legsFrom } from '../ledger/window';
import type { PriceSource } from '../pricing';

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
 * The user's stake in the pools at `at`, per currency in base units, from the ledger: every posting
 * on the user's position accounts dated by then (a currency with none yet reads zero).
 *
 * - `position`: all of them (deposits, daily interest, withdrawal reservations and returns).
 * - `rewards`: the daily interest credited (`interest` transactions): what staking has earned.
 * - `staked`: the principal, the position less the interest still in it. A withdrawal takes from
 *   the principal first, so `staked` is the non-interest postings, never below zero or above the
 *   position.
 */
export type Stake = { currency: string; decimals: number; position: bigint; staked: bigint; rewards: bigint };

export async function stakeAt(db: Db, userId: string, at: Date): Promise<Stake[]> {
  // The figures kept with each position now, less its postings dated after `at`: bounded by the
  // window since then, never the whole history.
  // Prepared: planning it costs more than running it on the user's few accounts.
  const rows = await preparedRows<{ currency: string; decimals: number; position: string; principal: string; rewards: string }>(
    db,
    'dao_stake_at',
    sql`select a.currency, c.decimals,
               (sum(-a.balance - coalesce(l.moved, 0)))::text as position,
               (sum(-a.balance - coalesce(l.moved, 0) - a.interest + coalesce(l.interest, 0)))::text as principal,
               (sum(a.interest - coalesce(l.interest, 0)))::text as rewards
        from ledger_accounts a
        join currencies c on c.code = a.currency
        left join lateral (
          select sum(-p.amount) as moved, sum(-p.amount) filter (where t.kind = ${'interest' satisfies TransactionKind}) as interest
          from ledger_postings p join ledger_transactions t on t.id = p.transaction_id
          where p.account_id = a.id and ${legsFrom('p', firstTransactionAt(sql`${at.toISOString()}::timestamptz`, true))} and t.at > ${at.toISOString()}::timestamptz
        ) l on true
        where a.kind = 'position' and a.user_id = ${userId}
        group by a.currency, c.decimals
        order by a.currency`,
  );
  return rows.map((r) => {
    const position = BigInt(r.position);
    const principal = BigInt(r.principal);
    const staked = principal < 0n ? 0n : principal > position ? position : principal;
    return { currency: r.currency, decimals: Number(r.decimals), position, staked, rewards: BigInt(r.rewards) };
  });
}

/** Amounts in base units valued in 10^-8 US dollars with the price source, rounded down per currency. */
export async function usdValues(prices: PriceSource, amounts: Array<{ currency: string; decimals: number; units: bigint }>): Promise<bigint[]> {
  const held = amounts.filter((a) => a.units > 0n);
  const usd = held.length ? await prices.usdPrices([...new Set(held.map((a) => a.currency))]) : new Map<string, string>();
  return amounts.map((a) => {
    const price = usd.get(a.currency);
    return a.units > 0n && price ? (a.units * usdToUnits(price)) / 10n ** BigInt(a.decimals) : 0n;
  });
}

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

/**
 * Voting power: the US-dollar value of the user's positions at `at`, with the configured price
 * source, in 10^-8 dollars (rounded down per currency).
 */
export async function votingPowerAt(db: Db, prices: PriceSource, userId: string, at: Date): Promise<bigint> {
  const stake = await stakeAt(db, userId, at);
  return sum(await usdValues(prices, stake.map((p) => ({ ...p, units: p.position }))));
}

/** The DAO's personal figures now: voting power (the positions), staked (the principal), in 10^-8 dollars. */
export async function personalStake(db: Db, prices: PriceSource, userId: string, at: Date) {
  const stake = await stakeAt(db, userId, at);
  const [power, staked] = await Promise.all([
    usdValues(prices, stake.map((p) => ({ ...p, units: p.position }))),
    usdValues(prices, stake.map((p) => ({ ...p, units: p.staked }))),
  ]);
  return { votingPower: sum(power), staked: sum(staked) };
}

/** The staking rewards credited to the user by `at`: per currency in base units and US dollars, and the total. */
export async function stakingRewards(db: Db, prices: PriceSource, userId: string, at: Date) {
  const earned = (await stakeAt(db, userId, at)).filter((p) => p.rewards > 0n);
  const usd = await usdValues(prices, earned.map((p) => ({ ...p, units: p.rewards })));
  return {
    items: earned.map((p, i) => ({ currency: p.currency, decimals: p.decimals, earned: p.rewards.toString(), earnedUsd: unitsToUsd(usd[i]!) })),
    totalUsd: unitsToUsd(sum(usd)),
  };
}
