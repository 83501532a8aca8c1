import type { FastifyInstance } from 'fastify';
import { and, asc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { apiMessages as M, apiRoutes, type DashboardPoolResponse, type PoolName } from '@app/contracts';
import { DepositRefused } from '../deposits/verify';
import { currencies, currencyAddresses, deposits, interestAccruals, poolAddresses, poolAssets, poolGraph, pools, users, withdrawals } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import { addRoute } from '../http/route';
import type { Services } from '../services';

const CHAIN_ID = 1;

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

  /** Credited deposits minus requested (or paid) withdrawals, per currency; `any` says whether anything was credited. */
  async function depositedSums(userId: string, pool: string, conn: Pick<typeof db, 'select'> = db): Promise<Sums & { credited?: boolean }> {
    const [inRows, outRows] = await Promise.all([
      conn
        .select({ currency: deposits.currency, total: sql<string>`sum(${deposits.amount})` })
        .from(deposits)
        .where(and(eq(deposits.userId, userId), eq(deposits.pool, pool), eq(deposits.status, 'credited')))
        .groupBy(deposits.currency),
      // Requested withdrawals already reserve their amount.
      conn
        .select({ currency: withdrawals.currency, total: sql<string>`sum(${withdrawals.amount})` })
        .from(withdrawals)
        .where(and(eq(withdrawals.userId, userId), eq(withdrawals.pool, pool), inArray(withdrawals.status, ['requested', 'paid'])))
        .groupBy(withdrawals.currency),
    ]);
    const result: Sums & { credited?: boolean } = toSums(inRows);
    result.credited = inRows.length > 0;
    for (const [c, v] of toSums(outRows)) result.set(c, (result.get(c) ?? 0n) - v);
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
      depositedSums(userId, name),
      s.deposits.pendingSums(userId, name),
      db
        .select({ currency: interestAccruals.currency, total: sql<string>`sum(${interestAccruals.amount})` })
        .from(interestAccruals)
        .where(and(eq(interestAccruals.userId, userId), eq(interestAccruals.pool, name)))
        .groupBy(interestAccruals.currency),
    ]);
    const prices = await s.prices.usdPrices(accepted.map((a) => a.currency));
    const earned = toSums(earnedRows);
    const each = <T>(f: (c: string, address: string) => T) => Object.fromEntries(accepted.map((a) => [a.currency, f(a.currency, a.address)]));
    return {
      pool: name,
      title: p.title,
      apyBps: p.apyBps,
      addresses: each((_, address) => address),
      estimate: each((c) => prices.get(c) ?? '0'),
      deposited: each((c) => String(sums.get(c) ?? 0n)),
      earned: each((c) => String(earned.get(c) ?? 0n)),
      pending: each((c) => String(pending.get(c) ?? 0n)),
    };
  }

  /**
   * Balance history per day, pool and currency: credited deposits (by the day they were credited),
   * withdrawal requests, and the running balance at the end of the day, from the user's real rows.
   */
  addRoute(app, apiRoutes.balance, async ({ query, auth }) => {
    const until = query.to ? new Date(`${query.to}T23:59:59.999Z`) : undefined;
    const day = (col: SQL) => sql<string>`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD')`;
    const creditedAt = sql`coalesce(${deposits.creditedAt}, ${deposits.createdAt})`;
    const [ins, outs] = await Promise.all([
      db
        .select({ date: day(creditedAt), pool: deposits.pool, currency: deposits.currency, total: sql<string>`sum(${deposits.amount})` })
        .from(deposits)
        .where(
          and(
            eq(deposits.userId, auth.user.id),
            eq(deposits.status, 'credited'),
            query.pool ? eq(deposits.pool, query.pool) : undefined,
            until ? sql`${creditedAt} <= ${until}` : undefined,
          ),
        )
        .groupBy(day(creditedAt), deposits.pool, deposits.currency),
      db
        .select({ date: day(sql`${withdrawals.createdAt}`), pool: withdrawals.pool, currency: withdrawals.currency, total: sql<string>`sum(${withdrawals.amount})` })
        .from(withdrawals)
        .where(
          and(
            eq(withdrawals.userId, auth.user.id),
            inArray(withdrawals.status, ['requested', 'paid']),
            query.pool ? eq(withdrawals.pool, query.pool) : undefined,
            until ? lte(withdrawals.createdAt, until) : undefined,
          ),
        )
        .groupBy(day(sql`${withdrawals.createdAt}`), withdrawals.pool, withdrawals.currency),
    ]);
    type Day = { date: string; pool: string; currency: string; amount: bigint; withdrawn: bigint };
    const days = new Map<string, Day>();
    const at = (r: { date: string; pool: string; currency: string }) => {
      const key = `${r.date}|${r.pool}|${r.currency}`;
      let d = days.get(key);
      if (!d) days.set(key, (d = { date: r.date, pool: r.pool, currency: r.currency, amount: 0n, withdrawn: 0n }));
      return d;
    };
    for (const r of ins) at(r).amount += BigInt(r.total ?? '0');
    for (const r of outs) at(r).withdrawn += BigInt(r.total ?? '0');
    const sorted = [...days.values()].sort((a, b) => a.date.localeCompare(b.date) || a.pool.localeCompare(b.pool) || a.currency.localeCompare(b.currency));
    const running = new Map<string, bigint>();
    const items = [];
    for (const d of sorted) {
      const key = `${d.pool}|${d.currency}`;
      const balance = (running.get(key) ?? 0n) + d.amount - d.withdrawn;
      running.set(key, balance);
      // Earlier days count towards the running balance but are not listed.
      if (query.from && d.date < query.from) continue;
      items.push({ date: d.date, pool: d.pool, currency: d.currency, amount: String(d.amount), withdrawn: String(d.withdrawn), balance: String(balance < 0n ? 0n : balance) });
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
    const [assets, earnedRows] = await Promise.all([
      db
        .select({ pool: pools.name, apyBps: pools.apyBps, currency: poolAssets.currency })
        .from(poolAssets)
        .innerJoin(pools, eq(pools.name, poolAssets.pool))
        .orderBy(asc(pools.sort), asc(poolAssets.currency)),
      db
        .select({ pool: interestAccruals.pool, currency: interestAccruals.currency, total: sql<string>`sum(${interestAccruals.amount})` })
        .from(interestAccruals)
        .where(eq(interestAccruals.userId, auth.user.id))
        .groupBy(interestAccruals.pool, interestAccruals.currency),
    ]);
    const earned = new Map(earnedRows.map((r) => [`${r.pool}:${r.currency}`, String(r.total ?? '0')]));
    return {
      items: assets.map((a) => ({
        pool: a.pool as PoolName,
        currency: a.currency,
        apyBps: a.apyBps,
        earned: earned.get(`${a.pool}:${a.currency}`) ?? '0',
      })),
    };
  });

  addRoute(app, apiRoutes.dashboardWithdraw, async ({ body, auth }) => {
    await poolRow(body.pool);
    const amount = BigInt(body.amount);
    const w = await db.transaction(async (tx) => {
      // One withdrawal at a time per user (also across replicas): two requests cannot both spend one balance.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, auth.user.id)).for('update');
      const sums = await depositedSums(auth.user.id, body.pool, tx);
      if (!sums.credited) throw badRequest(M.notReplenished, 'NOT_REPLENISHED');
      const available = sums.get(body.currency) ?? 0n;
      if (amount <= 0n || amount > available) throw badRequest(M.amountTooLarge, 'AMOUNT_TOO_LARGE', { amount: M.amountTooLarge });
      const [row] = await tx
        .insert(withdrawals)
        .values({ userId: auth.user.id, pool: body.pool, currency: body.currency, amount: body.amount })
        .returning();
      return row;
    });
    if (!w) throw new Error('withdrawal not stored');
    return { message: M.withdrawalSent, id: w.id, status: w.status, createdAt: w.createdAt.toISOString() };
  });

  addRoute(app, apiRoutes.dashboardDeposit, async ({ body, auth }) => {
    // The pool is checked with its receiving address (operator configuration) in the service.
    try {
      const r = await s.deposits.record(auth.user, body);
      // Already deep enough: let the job credit it now rather than at its next tick.
      if (r.status.confirmations >= s.config.deposits.confirmations) s.depositJob.kick();
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
      .leftJoin(currencyAddresses, and(eq(currencyAddresses.currency, poolAssets.currency), eq(currencyAddresses.chainId, CHAIN_ID)))
      .where(eq(poolAssets.pool, params.pool))
      .orderBy(asc(currencies.sort));
    return { pool: params.pool, assets: rows.map((r) => ({ currency: r.currency, shareBps: r.shareBps, address: r.address ?? null })) };
  });

  addRoute(app, apiRoutes.poolStrategy, async ({ params }) => {
    const p = await poolRow(params.pool);
    return { pool: params.pool, title: p.title, description: p.description, riskLevel: p.riskLevel };
  });

  addRoute(app, apiRoutes.poolGraph, async ({ params }) => {
    await poolRow(params.pool);
    const rows = await db.select().from(poolGraph).where(eq(poolGraph.pool, params.pool)).orderBy(asc(poolGraph.day));
    return { pool: params.pool, points: rows.map((r) => ({ date: r.day, apyBps: r.apyBps, tvlUsd: r.tvlUsd })) };
  });
}
