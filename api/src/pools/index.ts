// The pools as the investor sees them: their texts, assets, receiving addresses, the user's
// position in each, and their history from the books.
import { and, asc, eq, sql } from 'drizzle-orm';
import { apiMessages as M, SUPPORTED_CHAIN_ID, type DashboardPoolResponse, type Lang, type PoolName, type PoolsOverviewResponse } from '@app/contracts';
import type { Db } from '../db/client';
import { currencies, currencyAddresses, ledgerAccounts, poolAddresses, poolAssets, pools, poolTexts } from '../db/schema';
import { ApiError } from '../http/errors';
import { apyBps, apysOn, poolHistory, utcDay } from '../interest';
import { withdrawRules } from '../payouts';
import { aprOf, asOfDay, currencyDecimals, poolsTvl, usd, valueCents, withAsOf, type SharedReads } from '../portfolio';
import { preparedRows } from '../db/rows';
import type { PriceSource } from '../pricing';

/** How many days each range of the pool graph keeps (0: all). */
const GRAPH_DAYS = { '30D': 30, '90D': 90, '1Y': 365, All: 0 } as const;

/** Sums of base units per currency; numeric sums come back as exact decimal strings. */
type Sums = Map<string, bigint>;

/** The pool's row, or a 404 when there is no such pool. */
export async function poolRow(db: Db, name: PoolName) {
  const [p] = await db.select().from(pools).where(eq(pools.name, name));
  if (!p) throw new ApiError(404, M.notFound, 'NOT_FOUND');
  return p;
}

/**
 * Pools state (spec §3): receiving addresses and USD estimates from the operator's tables (shared
 * by everyone, from `shared`), and the user's position, its interest and their deposits not yet
 * credited in one prepared statement.
 */
export async function dashboardPool(db: Db, shared: SharedReads, chainId: number, userId: string, name: PoolName, currency?: string): Promise<DashboardPoolResponse> {
  const [list, addresses, prices, [mine]] = await Promise.all([
    shared.pools(),
    shared.addresses(chainId),
    shared.prices(),
    preparedRows<{ as_of: string; positions: [string, string, string][]; pending: [string, string][] }>(
      db,
      'dashboard_pool',
      sql`${withAsOf(utcDay(new Date()))}
        select (select as_of::text from d) as as_of,
          -- The positions from the ledger (withdrawable, interest included) and the interest each has earned, kept with its balance (0021).
          (select coalesce(json_agg(json_build_array(currency, (-balance)::text, interest::text)), '[]'::json)
             from ledger_accounts where kind = 'position' and user_id = ${userId} and pool = ${name}) as positions,
          (select coalesce(json_agg(json_build_array(currency, total::text)), '[]'::json)
             from (select currency, sum(amount) as total from deposits where user_id = ${userId} and pool = ${name} and status = 'pending' group by currency) x) as pending`,
    ),
  ]);
  const p = list.find((x) => x.name === name);
  if (!p) throw new ApiError(404, M.notFound, 'NOT_FOUND');
  const apys = await shared.apys(mine!.as_of);
  const accepted = addresses.filter((a) => a.pool === name && (!currency || a.currency === currency));
  const sums: Sums = new Map(mine!.positions.map(([c, balance]) => [c, BigInt(balance)]));
  const earned: Sums = new Map(mine!.positions.map(([c, , interest]) => [c, BigInt(interest)]));
  const pending: Sums = new Map(mine!.pending.map(([c, total]) => [c, BigInt(total)]));
  const each = <T>(f: (c: string, address: string) => T) => Object.fromEntries(accepted.map((a) => [a.currency, f(a.currency, a.address)]));
  return {
    pool: name,
    title: p.title,
    apyBps: apyBps(apys.get(name) ?? '0'),
    addresses: each((_, address) => address),
    estimate: each((c) => prices.get(c) ?? '0'),
    deposited: each((c) => String(sums.get(c) ?? 0n)),
    earned: each((c) => String(earned.get(c) ?? 0n)),
    pending: each((c) => String(pending.get(c) ?? 0n)),
  };
}

/** Each pool asset with today's APY and what the user has earned on it. */
export async function yieldOf(db: Db, userId: string) {
  const [assets, earnedRows, apys] = await Promise.all([
    db
      .select({ pool: pools.name, currency: poolAssets.currency })
      .from(poolAssets)
      .innerJoin(pools, eq(pools.name, poolAssets.pool))
      .orderBy(asc(pools.sort), asc(poolAssets.currency)),
    db
      .select({ pool: ledgerAccounts.pool, currency: ledgerAccounts.currency, total: sql<string>`${ledgerAccounts.interest}` })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'position'), eq(ledgerAccounts.userId, userId))),
    asOfDay(db).then((day) => apysOn(db, day)),
  ]);
  const earned = new Map(earnedRows.map((r) => [`${r.pool}:${r.currency}`, String(r.total ?? '0')]));
  return {
    items: assets.map((a) => ({
      pool: a.pool as PoolName,
      currency: a.currency,
      apyBps: apyBps(apys.get(a.pool) ?? '0'),
      earned: earned.get(`${a.pool}:${a.currency}`) ?? '0',
    })),
  };
}

/**
 * The pools as a visitor sees them (the public home page): today's APY and the APR behind it,
 * the value their positions hold on the books at today's prices, the risk and its reason and
 * the strategy text in the caller's language (English where a language has none), and the fees.
 */
export async function poolsOverview(db: Db, prices: PriceSource, lang: Lang): Promise<PoolsOverviewResponse> {
  const asOf = await asOfDay(db);
  const [list, texts, accepted, apys, tvl, decimals, rules] = await Promise.all([
    db.select().from(pools).orderBy(asc(pools.sort)),
    lang === 'en' ? [] : db.select().from(poolTexts).where(eq(poolTexts.lang, lang)),
    db
      .select({ pool: poolAddresses.pool, currency: poolAddresses.currency })
      .from(poolAddresses)
      .innerJoin(currencies, eq(currencies.code, poolAddresses.currency))
      .where(eq(poolAddresses.chainId, SUPPORTED_CHAIN_ID))
      .orderBy(asc(currencies.sort)),
    apysOn(db, asOf),
    poolsTvl(db, prices),
    currencyDecimals(db),
    withdrawRules(db),
  ]);
  const textOf = new Map(texts.map((t) => [t.pool, t]));
  return {
    asOf,
    pools: list.map((p) => {
      const text = textOf.get(p.name);
      const apy = apys.get(p.name) ?? '0';
      return {
        pool: p.name as PoolName,
        title: text?.title ?? p.title,
        description: text?.description ?? p.description,
        riskLevel: p.riskLevel,
        riskReason: text?.riskReason || p.riskReason,
        apy,
        apr: aprOf(apy),
        tvlUsd: usd(tvl.get(p.name) ?? 0n),
        currencies: accepted.filter((a) => a.pool === p.name).map((a) => a.currency),
      };
    }),
    depositFee: '0',
    withdrawal: rules.currencies,
    decimals: Object.fromEntries(decimals),
  };
}

/** The pool's assets, their shares and their token addresses on the chain. */
export async function poolAssetsOf(db: Db, chainId: number, pool: PoolName) {
  await poolRow(db, pool);
  const found = await db
    .select({ currency: poolAssets.currency, shareBps: poolAssets.shareBps, address: currencyAddresses.address })
    .from(poolAssets)
    .innerJoin(currencies, eq(currencies.code, poolAssets.currency))
    .leftJoin(currencyAddresses, and(eq(currencyAddresses.currency, poolAssets.currency), eq(currencyAddresses.chainId, chainId)))
    .where(eq(poolAssets.pool, pool))
    .orderBy(asc(currencies.sort));
  return { pool, assets: found.map((r) => ({ currency: r.currency, shareBps: r.shareBps, address: r.address ?? null })) };
}

/**
 * The pool's strategy in the caller's language (as the FAQ): English lives in `pools`, other
 * languages in `pool_texts`; a language without a text there falls back to English.
 */
export async function poolStrategy(db: Db, pool: PoolName, lang: Lang) {
  const p = await poolRow(db, pool);
  const [text] = lang === 'en' ? [] : await db.select().from(poolTexts).where(and(eq(poolTexts.pool, pool), eq(poolTexts.lang, lang)));
  return { pool, title: text?.title ?? p.title, description: text?.description ?? p.description, riskLevel: p.riskLevel };
}

/**
 * The pool's history from its books: per accrued day, the APY the day was accrued with and what
 * its positions held at the close, valued at today's prices (as the TVL card), over the range's
 * last days.
 */
export async function poolGraph(db: Db, prices: PriceSource, pool: PoolName, range: keyof typeof GRAPH_DAYS) {
  await poolRow(db, pool);
  const [history, decimals] = await Promise.all([poolHistory(db, pool, GRAPH_DAYS[range]), currencyDecimals(db)]);
  const price = await prices.usdPrices([...decimals.keys()]);
  return {
    pool,
    range,
    points: history.map((d) => ({ date: d.day, apyBps: apyBps(d.apy), tvlUsd: usd(valueCents(d.tvl, price, decimals)) })),
  };
}
