import type { FastifyInstance } from 'fastify';
import { and, asc, eq, sql } from 'drizzle-orm';
import { apiMessages as M, apiRoutes } from '@app/contracts';
import { uniqueViolation } from '../db/errors';
import { queryRows } from '../db/rows';
import { referralLevels, referralPayouts, referralRanks, referralRewards } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import { addRoute } from '../http/route';
import type { Services } from '../services';

const PAYOUT_CURRENCY = 'USDT';

export function referralRoutes(app: FastifyInstance, s: Services) {
  const db = s.db;

  /** Members per level (up to the deepest rewarded level) and the USD value of their confirmed deposits. */
  async function network(userId: string, depth: number) {
    const rows = await queryRows<{ level: number; members: string; capital: string | null }>(
      db,
      sql`with recursive tree(id, level) as (
            select id, 1 from users where referrer_id = ${userId}
            union all
            select u.id, t.level + 1 from users u join tree t on u.referrer_id = t.id where t.level < ${depth}
          )
          select t.level, count(distinct t.id) as members,
                 sum(d.amount / power(10::numeric, c.decimals) * c.usd_rate) as capital
          from tree t
          left join deposits d on d.user_id = t.id and d.status = 'credited'
          left join currencies c on c.code = d.currency
          group by t.level order by t.level`,
    );
    return rows.map((r) => ({ level: Number(r.level), members: Number(r.members), capital: r.capital ?? '0' }));
  }

  const usd = (v: string) => {
    // Whole cents, exact (string arithmetic, no floats); fractions of a cent are cut off.
    const [int = '0', frac = ''] = v.split('.');
    return `${int}.${(frac + '00').slice(0, 2)}`;
  };
  const sumUsd = (values: string[]) =>
    values.reduce((acc, v) => acc + BigInt(usd(v).replace('.', '')), 0n);
  const fromCents = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

  async function capitalAndRanks(userId: string) {
    const levels = await db.select().from(referralLevels).orderBy(asc(referralLevels.level));
    const tree = await network(userId, Math.max(1, levels.length));
    const ranks = await db.select().from(referralRanks).orderBy(asc(referralRanks.rank));
    return { levels, tree, ranks, capitalCents: sumUsd(tree.map((t) => t.capital)) };
  }

  addRoute(app, apiRoutes.referrals, async ({ auth }) => {
    const { levels, tree, ranks, capitalCents } = await capitalAndRanks(auth.user.id);
    const [bonus] = await queryRows<{ total: string | null }>(
      db,
      sql`select sum(r.amount / power(10::numeric, c.decimals) * c.usd_rate) as total
          from referral_rewards r join currencies c on c.code = r.currency where r.user_id = ${auth.user.id}`,
    );
    return {
      referralId: auth.user.referralCode,
      referralLink: `${s.config.publicUrl}/?invite=${encodeURIComponent(auth.user.referralCode)}`,
      currency: PAYOUT_CURRENCY,
      levels: levels.map((l) => ({ level: l.level, rewardBps: l.rewardBps, bonusBps: 0, members: tree.find((t) => t.level === l.level)?.members ?? 0 })),
      members: tree.reduce((n, t) => n + t.members, 0),
      capitalAttractedUsd: fromCents(capitalCents),
      bonusesUsd: fromCents(sumUsd([bonus?.total ?? '0'])),
      rank: 0,
      ranks: ranks.map((r) => ({ rank: r.rank, title: r.title, capitalUsd: r.capitalUsd, bonusBps: r.bonusBps })),
      maxTotalBps: 1800,
    };
  });

  addRoute(app, apiRoutes.referralsHarvest, async ({ auth }) => {
    const rows = await db
      .select({ status: referralRewards.status, total: sql<string>`sum(${referralRewards.amount})` })
      .from(referralRewards)
      .where(and(eq(referralRewards.userId, auth.user.id), eq(referralRewards.currency, PAYOUT_CURRENCY)))
      .groupBy(referralRewards.status);
    const by = (status: string) => BigInt(rows.find((r) => r.status === status)?.total ?? '0');
    const [earned, inPayment, paid] = [by('earned'), by('in_payment'), by('paid')];
    return {
      currency: PAYOUT_CURRENCY,
      allTime: String(earned + inPayment + paid),
      earned: String(earned + inPayment),
      availableToClaim: String(earned),
      inPayment: String(inPayment),
      alreadyPaid: String(paid),
      decimals: 6,
      claimInProgress: inPayment > 0n,
      claim: null,
    };
  });

  addRoute(app, apiRoutes.referralsProgress, async ({ auth }) => {
    const { ranks, capitalCents } = await capitalAndRanks(auth.user.id);
    const cents = (v: string) => BigInt(usd(v).replace('.', ''));
    const reached = ranks.filter((r) => cents(r.capitalUsd) <= capitalCents);
    const current = reached[reached.length - 1];
    const next = ranks.find((r) => cents(r.capitalUsd) > capitalCents);
    return {
      rank: current?.rank ?? 0,
      nextRank: next?.rank ?? null,
      capitalUsd: fromCents(capitalCents),
      nextRankCapitalUsd: next ? usd(next.capitalUsd) : null,
      progressBps: next ? 0 : 10000,
    };
  });

  addRoute(app, apiRoutes.referralsWithdraw, async ({ auth }) => {
    try {
      return await db.transaction(async (tx) => {
        const [pending] = await tx
          .select({ id: referralPayouts.id })
          .from(referralPayouts)
          .where(and(eq(referralPayouts.userId, auth.user.id), eq(referralPayouts.status, 'pending')));
        if (pending) throw new ApiError(409, M.claimInProgress, 'CLAIM_IN_PROGRESS');
        const claimable = and(
          eq(referralRewards.userId, auth.user.id),
          eq(referralRewards.status, 'earned'),
          eq(referralRewards.currency, PAYOUT_CURRENCY),
        );
        const [sum] = await tx.select({ total: sql<string | null>`sum(${referralRewards.amount})` }).from(referralRewards).where(claimable);
        const total = BigInt(sum?.total ?? '0');
        if (total === 0n) throw badRequest(M.nothingToClaim, 'NOTHING_TO_CLAIM');
        const [payout] = await tx
          .insert(referralPayouts)
          .values({ userId: auth.user.id, currency: PAYOUT_CURRENCY, amount: String(total) })
          .returning({ id: referralPayouts.id });
        await tx.update(referralRewards).set({ status: 'in_payment', payoutId: payout?.id ?? null }).where(claimable);
        return { message: M.withdrawalSent };
      });
    } catch (err) {
      // The partial unique index caught a second claim racing this one.
      if (uniqueViolation(err) === 'referral_payouts_one_pending') throw new ApiError(409, M.claimInProgress, 'CLAIM_IN_PROGRESS');
      throw err;
    }
  });
}
