import type { FastifyInstance } from 'fastify';
import { and, asc, eq, sql } from 'drizzle-orm';
import { apiMessages as M, apiRoutes, formatMessage, type DashboardPoolResponse, type PoolName } from '@app/contracts';
import { DepositRefused } from '../deposits';
import { currencies, currencyAddresses, interestAccruals, poolAddresses, poolAssets, pools, poolTexts } from '../db/schema';
import { ApiError } from '../http/errors';
import { langOf } from '../http/lang';
import { addRoute } from '../http/route';
import { rows } from '../db/rows';
import { apyBps, apysOn, poolHistory } from '../interest';
import { positionsOf } from '../ledger';
import { asOfDay, currencyDecimals, usd, valueCents } from '../portfolio';
import { payoutRules, quoteWithdrawal, requestWithdrawal, ruleFor, withdrawalLimits, withdrawalsOf, withdrawalStatus } from '../payouts';
import type { Services } from '../services';
import { heldUntil } from '../settings';

/** The date a posting is shown with (`p` a posting, `t` its transaction): interest on the day it is for, the rest on its UTC day. */
const creditDay = sql`case when t.kind = 'interest' then t.detail->>'day' else to_char(p.at at time zone 'UTC', 'YYYY-MM-DD') end`;
/** How many days each range of the pool graph keeps (0: all). */
const GRAPH_DAYS = { '30D': 30, '90D': 90, '1Y': 365, All: 0 } as const;

/** Sums of base units per currency; numeric sums come back as exact decimal strings. */
type Sums = Map<string, bigint>;
const toSums = (rows: { currency: string; total: string | null }[]): Sums =>
  new Map(rows.map((r) => [r.currency, BigInt(r.total ?? '0')]));

export function investRoutes(app: FastifyInstance, s: Services) {
  const db = s.db;

  async function poolRow(name: PoolName) {
    const [p] = await db.select().from(pools).where(eq(pools.name, name));
    if (!p) throw new ApiError(404, M.notFound, 'NOT_FOUND');
    return p;
  }

  /** The user's positions in a pool from the ledger (withdrawable, interest included); `credited` says whether one exists. */
  async function positionSums(userId: string, pool: string): Promise<Sums & { credited?: boolean }> {
    const found = await positionsOf(db, userId, pool);
    const result: Sums & { credited?: boolean } = new Map(found.map((p) => [p.currency, p.balance]));
    result.credited = found.length > 0;
    return result;
  }

  /** Pools state (spec §3): receiving addresses and USD estimates from the operator's tables, and the user's position. */
  async function dashboardPool(userId: string, name: PoolName, currency?: string): Promise<DashboardPoolResponse> {
    const p = await poolRow(name);
    const chainId = s.config.deposits.chainId;
    const [accepted, sums, pending, earnedRows] = await Promise.all([
      db
        .select({ currency: poolAddresses.currency, address: poolAddresses.address })
        .from(poolAddresses)
        .innerJoin(currencies, eq(currencies.code, poolAddresses.currency))
        .where(and(eq(poolAddresses.pool, name), eq(poolAddresses.chainId, chainId), currency ? eq(poolAddresses.currency, currency) : undefined))
        .orderBy(asc(currencies.sort)),
      positionSums(userId, name),
      s.deposits.pendingSums(userId, name),
      db
        .select({ currency: interestAccruals.currency, total: sql<string>`sum(${interestAccruals.amount})` })
        .from(interestAccruals)
        .where(and(eq(interestAccruals.userId, userId), eq(interestAccruals.pool, name)))
        .groupBy(interestAccruals.currency),
    ]);
    const [prices, apys] = await Promise.all([s.prices.usdPrices(accepted.map((a) => a.currency)), apysOn(db, await asOfDay(db))]);
    const earned = toSums(earnedRows);
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

  /**
   * Balance history per day, pool and currency, from the ledger's postings on the user's positions:
   * credited deposits, withdrawals (requests, less returned ones) and the running balance at the end
   * of the day, interest included. Interest is on the day it is for, as everywhere else.
   */
  addRoute(app, apiRoutes.balance, async ({ query, auth }) => {
    const found = await rows<{ date: string; pool: string; currency: string; deposited: string; withdrawn: string; moved: string }>(
      db,
      sql`select ${creditDay} as date, a.pool, a.currency,
            coalesce(sum(-p.amount) filter (where t.kind = 'deposit'), 0)::text as deposited,
            coalesce(sum(p.amount) filter (where t.kind like 'withdrawal%'), 0)::text as withdrawn,
            sum(-p.amount)::text as moved
          from ledger_postings p
          join ledger_accounts a on a.id = p.account_id
          join ledger_transactions t on t.id = p.transaction_id
          where a.kind = 'position' and a.user_id = ${auth.user.id}
            ${query.pool ? sql`and a.pool = ${query.pool}` : sql``}
            ${query.to ? sql`and p.at <= (${query.to}::date + 1)::timestamp at time zone 'UTC' and ${creditDay} <= ${query.to}` : sql``}
          group by 1, 2, 3
          order by 1, 2, 3`,
    );
    const running = new Map<string, bigint>();
    const items = [];
    for (const d of found) {
      const key = `${d.pool}|${d.currency}`;
      const balance = (running.get(key) ?? 0n) + BigInt(d.moved);
      running.set(key, balance);
      // Earlier days count towards the running balance but are not listed.
      if (query.from && d.date < query.from) continue;
      items.push({ date: d.date, pool: d.pool, currency: d.currency, amount: d.deposited, withdrawn: d.withdrawn, balance: String(balance) });
    }
    return { items };
  });

  addRoute(app, apiRoutes.dashboardPool, async ({ params, query, auth }) =>
    dashboardPool(auth.user.id, params.pool, query.currency),
  );
  addRoute(app, apiRoutes.dashboardRefreshPool, async ({ params, query, auth }) =>
    dashboardPool(auth.user.id, params.pool, query.currency),
  );

  addRoute(app, apiRoutes.dashboardYield, async ({ auth }) => {
    const [assets, earnedRows, apys] = await Promise.all([
      db
        .select({ pool: pools.name, currency: poolAssets.currency })
        .from(poolAssets)
        .innerJoin(pools, eq(pools.name, poolAssets.pool))
        .orderBy(asc(pools.sort), asc(poolAssets.currency)),
      db
        .select({ pool: interestAccruals.pool, currency: interestAccruals.currency, total: sql<string>`sum(${interestAccruals.amount})` })
        .from(interestAccruals)
        .where(eq(interestAccruals.userId, auth.user.id))
        .groupBy(interestAccruals.pool, interestAccruals.currency),
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
  });

  addRoute(app, apiRoutes.dashboardWithdraw, async ({ body, auth }) => {
    await poolRow(body.pool);
    const w = await requestWithdrawal(db, auth.user.id, body);
    s.jobs.kick('payouts');
    // Accepted, but the payout job leaves it until a recent change's hold ends: say so.
    const held = heldUntil(auth.user);
    const message = held ? formatMessage(M.withdrawalsHeld, { until: `${held.slice(0, 16).replace('T', ' ')} UTC` }) : w.status === 'awaiting_approval' ? M.withdrawalAwaitingApproval : M.withdrawalSent;
    return { message, id: w.id, status: w.status, createdAt: w.createdAt.toISOString() };
  });

  addRoute(app, apiRoutes.dashboardWithdrawals, async ({ query, auth }) => {
    const held = heldUntil(auth.user);
    return {
      items: (await withdrawalsOf(db, auth.user.id, query.pool)).map((w) => ({
        ...withdrawalStatus(w, s.config.money.payoutConfirmations),
        ...(held && (w.status === 'requested' || w.status === 'awaiting_approval') ? { heldUntil: held } : {}),
      })),
    };
  });

  addRoute(app, apiRoutes.dashboardWithdrawQuote, async ({ query, auth }) => {
    const q = await quoteWithdrawal(db, auth.user.id, query.currency, BigInt(query.amount));
    const held = heldUntil(auth.user);
    return { fee: String(q.fee), receive: String(q.receive), approvalRequired: q.approvalRequired, ...(held ? { heldUntil: held } : {}) };
  });

  // What the withdraw form shows and checks; currencies without a minimum are closed, so not listed.
  addRoute(app, apiRoutes.dashboardWithdrawRules, async () => {
    const [rules, limits] = await Promise.all([payoutRules(db), withdrawalLimits(db)]);
    const open = Object.keys(rules).flatMap((currency) => {
      const r = ruleFor(rules, currency);
      return r.minimum === null ? [] : [{ currency, minimum: r.minimum, fee: r.fee }];
    });
    return { currencies: open, perHour: limits.perHour, perDay: limits.perDay };
  });

  addRoute(app, apiRoutes.dashboardDeposit, async ({ body, auth }) => {
    // The pool is checked with its receiving address (operator configuration) in the service.
    try {
      const r = await s.deposits.record(auth.user, body);
      // Already deep enough: let the job credit it now rather than at its next tick.
      if (r.status.confirmations >= s.config.deposits.confirmations) s.jobs.kick('deposits');
      return {
        message: r.corrected ? M.depositAmountCorrected : M.depositRecorded,
        id: r.row.id,
        status: r.row.status,
        createdAt: r.row.createdAt.toISOString(),
        deposit: r.status,
      };
    } catch (err) {
      if (err instanceof DepositRefused) throw new ApiError(err.status, err.message, err.code);
      throw err;
    }
  },
    // Each call costs 3-4 reads from the chain's node: a tighter limit than the global one.
    { rateLimit: { max: 20, timeWindow: '1 minute' } },
  );

  addRoute(app, apiRoutes.dashboardDeposits, async ({ query, auth }) => ({
    items: await s.deposits.list(auth.user.id, query),
    confirmationsRequired: s.config.deposits.confirmations,
  }));

  addRoute(app, apiRoutes.poolAssets, async ({ params }) => {
    await poolRow(params.pool);
    const rows = await db
      .select({ currency: poolAssets.currency, shareBps: poolAssets.shareBps, address: currencyAddresses.address })
      .from(poolAssets)
      .innerJoin(currencies, eq(currencies.code, poolAssets.currency))
      .leftJoin(currencyAddresses, and(eq(currencyAddresses.currency, poolAssets.currency), eq(currencyAddresses.chainId, s.config.deposits.chainId)))
      .where(eq(poolAssets.pool, params.pool))
      .orderBy(asc(currencies.sort));
    return { pool: params.pool, assets: rows.map((r) => ({ currency: r.currency, shareBps: r.shareBps, address: r.address ?? null })) };
  });

  // In the caller's language (as the FAQ): English lives in `pools`, other languages in
  // `pool_texts`; a language without a text there falls back to English.
  addRoute(app, apiRoutes.poolStrategy, async ({ req, params }) => {
    const p = await poolRow(params.pool);
    const lang = langOf(req);
    const [text] = lang === 'en' ? [] : await db.select().from(poolTexts).where(and(eq(poolTexts.pool, params.pool), eq(poolTexts.lang, lang)));
    return { pool: params.pool, title: text?.title ?? p.title, description: text?.description ?? p.description, riskLevel: p.riskLevel };
  });

  /**
   * The pool's history from its books: per accrued day, the APY the day was accrued with and what
   * its positions held at the close, valued at today's prices (as the TVL card), over the range's
   * last days.
   */
  addRoute(app, apiRoutes.poolGraph, async ({ params, query }) => {
    await poolRow(params.pool);
    const [history, decimals] = await Promise.all([poolHistory(db, params.pool, GRAPH_DAYS[query.range]), currencyDecimals(db)]);
    const prices = await s.prices.usdPrices([...decimals.keys()]);
    return {
      pool: params.pool,
      range: query.range,
      points: history.map((d) => ({ date: d.day, apyBps: apyBps(d.apy), tvlUsd: usd(valueCents(d.tvl, prices, decimals)) })),
    };
  });
}
