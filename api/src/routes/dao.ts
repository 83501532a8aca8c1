import type { FastifyInstance } from 'fastify';
import { asc, eq, sql } from 'drizzle-orm';
import { apiRoutes } from '@app/contracts';
import { queryRows } from '../db/rows';
import { daoMembers, daoValues } from '../db/schema';
import { addRoute } from '../http/route';
import type { Services } from '../services';

export function daoRoutes(app: FastifyInstance, s: Services) {
  const db = s.db;
  const member = async (userId: string) => (await db.select().from(daoMembers).where(eq(daoMembers.userId, userId)))[0];

  addRoute(app, apiRoutes.daoPersonal, async ({ auth }) => {
    const m = await member(auth.user.id);
    return { votingPower: m?.votingPower ?? '0', staked: m?.staked ?? '0', proposalsVoted: m?.proposalsVoted ?? 0 };
  });

  addRoute(app, apiRoutes.daoPools, async () => {
    // Each pool with its latest value locked.
    const rows = await queryRows<{ pool: string; title: string; apy_bps: number; tvl_usd: string | null }>(
      db,
      sql`select p.name as pool, p.title, p.apy_bps,
                 (select g.tvl_usd from pool_graph g where g.pool = p.name order by g.day desc limit 1) as tvl_usd
          from pools p order by p.sort`,
    );
    return { items: rows.map((r) => ({ pool: r.pool, title: r.title, apyBps: Number(r.apy_bps), tvlUsd: String(r.tvl_usd ?? '0') })) };
  });

  addRoute(app, apiRoutes.daoValues, async () => {
    const rows = await db.select().from(daoValues).orderBy(asc(daoValues.key));
    return { values: Object.fromEntries(rows.map((r) => [r.key, r.value])) };
  });

  addRoute(app, apiRoutes.daoRewards, async ({ auth }) => {
    const [m, [token]] = await Promise.all([
      member(auth.user.id),
      db.select().from(daoValues).where(eq(daoValues.key, 'governanceToken')),
    ]);
    return { currency: token?.value ?? '', earned: m?.rewardsEarned ?? '0', claimed: m?.rewardsClaimed ?? '0' };
  });
}
