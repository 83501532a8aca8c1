import type { FastifyInstance } from 'fastify';
import { and, asc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { apiMessages as M, apiRoutes, type DashboardPoolResponse, type PoolName } from '@app/contracts';
import { uniqueViolation } from '../db/errors';
import { currencies, currencyAddresses, deposits, interestAccruals, poolAssets, poolGraph, pools, withdrawals } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import { addRoute } from '../http/route';
import type { Services } from '../services';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
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

  async function depositedSums(userId: string, pool: string): Promise<Sums> {
    const [inRows, outRows] = await Promise.all([
      db
        .select({ currency: deposits.currency, total: sql<string>`sum(${deposits.amount})` })
        .from(deposits)
        .where(and(eq(deposits.userId, userId), eq(deposits.pool, pool), eq(deposits.status, 'confirmed')))
        .groupBy(deposits.currency),
      // Requested withdrawals already reserve their amount.
      db
        .select({ currency: withdrawals.currency, total: sql<string>`sum(${withdrawals.amount})` })
        .from(withdrawals)
        .where(and(eq(withdrawals.userId, userId), eq(withdrawals.pool, pool), inArray(withdrawals.status, ['requested', 'paid'])))
        .groupBy(withdrawals.currency),
    ]);
    const result = toSums(inRows);
    for (const [c, v] of toSums(outRows)) result.set(c, (result.get(c) ?? 0n) - v);
    return result;
  }

  async function dashboardPool(userId: string, name: PoolName, currency?: string): Promise<DashboardPoolResponse> {
    const p = await poolRow(name);
    const assetWhere = and(eq(poolAssets.pool, name), currency ? eq(poolAssets.currency, currency) : undefined);
    const [assets, sums, earnedRows] = await Promise.all([
      db
        .select({ currency: poolAssets.currency, usdRate: currencies.usdRate, address: currencyAddresses.address })
        .from(poolAssets)
        .innerJoin(currencies, eq(currencies.code, poolAssets.currency))
        .leftJoin(
          currencyAddresses,
          and(eq(currencyAddresses.currency, poolAssets.currency), eq(currencyAddresses.chainId, CHAIN_ID)),
        )
        .where(assetWhere)
        .orderBy(asc(currencies.sort)),
      depositedSums(userId, name),
      db
        .select({ currency: interestAccruals.currency, total: sql<string>`sum(${interestAccruals.amount})` })
        .from(interestAccruals)
        .where(and(eq(interestAccruals.userId, userId), eq(interestAccruals.pool, name)))
        .groupBy(interestAccruals.currency),
    ]);
    const earned = toSums(earnedRows);
    return {
      pool: name,
      title: p.title,
      apyBps: p.apyBps,
      addresses: Object.fromEntries(assets.map((a) => [a.currency, a.address ?? ZERO_ADDRESS])),
      estimate: Object.fromEntries(assets.map((a) => [a.currency, a.usdRate])),
      deposited: Object.fromEntries(assets.map((a) => [a.currency, String(sums.get(a.currency) ?? 0n)])),
      earned: Object.fromEntries(assets.map((a) => [a.currency, String(earned.get(a.currency) ?? 0n)])),
    };
  }

  addRoute(app, apiRoutes.balance, async ({ query, auth }) => {
    const where: (SQL | undefined)[] = [eq(deposits.userId, auth.user.id), eq(deposits.status, 'confirmed')];
    if (query.pool) where.push(eq(deposits.pool, query.pool));
    if (query.from) where.push(gte(deposits.createdAt, new Date(`${query.from}T00:00:00Z`)));
    if (query.to) where.push(lte(deposits.createdAt, new Date(`${query.to}T23:59:59.999Z`)));
    const day = sql<string>`to_char(${deposits.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
    const rows = await db
      .select({ date: day, pool: deposits.pool, currency: deposits.currency, amount: sql<string>`sum(${deposits.amount})` })
      .from(deposits)
      .where(and(...where))
      .groupBy(day, deposits.pool, deposits.currency)
      .orderBy(day);
    return { items: rows.map((r) => ({ ...r, amount: String(r.amount) })) };
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
    const available = (await depositedSums(auth.user.id, body.pool)).get(body.currency);
    if (available === undefined) throw badRequest(M.notReplenished, 'NOT_REPLENISHED');
    const amount = BigInt(body.amount);
    if (amount <= 0n || amount > available) throw badRequest(M.amountTooLarge, 'AMOUNT_TOO_LARGE', { amount: M.amountTooLarge });
    const [w] = await db
      .insert(withdrawals)
      .values({ userId: auth.user.id, pool: body.pool, currency: body.currency, amount: body.amount })
      .returning();
    if (!w) throw new Error('withdrawal not stored');
    return { message: M.withdrawalSent, id: w.id, status: w.status, createdAt: w.createdAt.toISOString() };
  });

  addRoute(app, apiRoutes.dashboardDeposit, async ({ body, auth }) => {
    await poolRow(body.pool);
    try {
      // Recorded as claimed by the client; the chain job confirms amount, token and sender later.
      const [d] = await db
        .insert(deposits)
        .values({
          userId: auth.user.id,
          pool: body.pool,
          currency: body.currency,
          amount: body.amount,
          txHash: body.transaction.toLowerCase(),
        })
        .returning();
      if (!d) throw new Error('deposit not stored');
      return { message: M.depositRecorded, id: d.id, status: d.status, createdAt: d.createdAt.toISOString() };
    } catch (err) {
      if (uniqueViolation(err) === 'deposits_tx_key') throw new ApiError(409, M.depositDuplicate, 'DEPOSIT_DUPLICATE');
      throw err;
    }
  });

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
