import type { FastifyInstance } from 'fastify';
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import { apiMessages as M, apiRoutes } from '@app/contracts';
import { currencies, referralRewards, users } from '../db/schema';
import { addRoute } from '../http/route';
import { utcDay } from '../interest';
import {
  affiliatesPage,
  claimRewards,
  configInForce,
  downline,
  fromE8,
  latestClaim,
  MAX_TOTAL_BPS,
  priceTable,
  rankFor,
  rewardsUsd,
  toE8,
  usd2,
} from '../referral';
import type { Services } from '../services';

/** The invite check answers only valid or invalid; this bounds guessing codes from one address. */
const INVITE_CHECKS_PER_MINUTE = 30;

export function referralRoutes(app: FastifyInstance, s: Services) {
  const db = s.db;

  /** The configuration in force today, the downline within its levels, capital attracted and the rank it reaches. */
  async function standing(userId: string) {
    const config = await configInForce(db, utcDay(new Date()));
    const prices = await priceTable(db, s.prices);
    const tree = await downline(db, prices, userId, config.levels.length);
    const capital = usd2(fromE8(tree.reduce((sum, t) => sum + toE8(t.capital), 0n)));
    return { config, prices, tree, capital, rank: rankFor(config.ranks, capital) };
  }

  addRoute(app, apiRoutes.referrals, async ({ auth }) => {
    const { config, prices, tree, capital, rank } = await standing(auth.user.id);
    return {
      referralId: auth.user.referralCode,
      referralLink: `${s.config.publicUrl}/sign-up?invite=${encodeURIComponent(auth.user.referralCode)}`,
      currency: config.currency,
      levels: config.levels.map((l) => ({
        level: l.level,
        rewardBps: l.rewardBps,
        bonusBps: rank?.bonusBps ?? 0,
        members: tree.find((t) => t.level === l.level)?.members ?? 0,
      })),
      members: tree.reduce((n, t) => n + t.members, 0),
      capitalAttractedUsd: capital,
      bonusesUsd: usd2(await rewardsUsd(db, prices, auth.user.id)),
      rank: rank?.rank ?? 0,
      ranks: config.ranks.map((r) => ({ ...r, capitalUsd: usd2(r.capitalUsd) })),
      maxTotalBps: MAX_TOTAL_BPS,
    };
  });

  addRoute(app, apiRoutes.referralsHarvest, async ({ auth }) => {
    const config = await configInForce(db, utcDay(new Date()));
    // Every currency the user's rewards were ever paid in: an earlier payout currency stays visible and claimable.
    const found = await db
      .select({ currency: referralRewards.currency, decimals: currencies.decimals, status: referralRewards.status, total: sql<string>`sum(${referralRewards.amount})::text` })
      .from(referralRewards)
      .leftJoin(currencies, eq(currencies.code, referralRewards.currency))
      .where(and(eq(referralRewards.userId, auth.user.id), ne(referralRewards.status, 'forfeited')))
      .groupBy(referralRewards.currency, currencies.decimals, referralRewards.status);
    const by = (currency: string, status: string) => String(found.find((r) => r.currency === currency && r.status === status)?.total ?? '0');
    const [c] = await db.select({ decimals: currencies.decimals }).from(currencies).where(eq(currencies.code, config.currency));
    const [available, inPayment, paid] = [by(config.currency, 'earned'), by(config.currency, 'in_payment'), by(config.currency, 'paid')].map(BigInt) as [bigint, bigint, bigint];
    const others = [...new Set(found.map((r) => r.currency))]
      .filter((code) => code !== config.currency)
      .sort()
      .map((code) => ({
        currency: code,
        decimals: found.find((r) => r.currency === code)?.decimals ?? 0,
        vesting: by(code, 'vesting'),
        availableToClaim: by(code, 'earned'),
        inPayment: by(code, 'in_payment'),
        alreadyPaid: by(code, 'paid'),
      }));
    const { claim, inProgress } = await latestClaim(db, auth.user.id);
    return {
      currency: config.currency,
      decimals: c?.decimals ?? 0,
      allTime: String(available + inPayment + paid),
      earned: String(available + inPayment),
      availableToClaim: String(available),
      inPayment: String(inPayment),
      alreadyPaid: String(paid),
      vesting: by(config.currency, 'vesting'),
      vestingDays: config.vestingDays,
      others,
      claimInProgress: inProgress,
      claim,
    };
  });

  addRoute(app, apiRoutes.referralsProgress, async ({ auth }) => {
    const { config, capital, rank } = await standing(auth.user.id);
    const next = config.ranks.find((r) => toE8(r.capitalUsd) > toE8(capital));
    const from = rank ? toE8(rank.capitalUsd) : 0n;
    const progressBps = next ? Number(((toE8(capital) - from) * 10000n) / (toE8(next.capitalUsd) - from)) : 10000;
    return {
      rank: rank?.rank ?? 0,
      nextRank: next?.rank ?? null,
      capitalUsd: capital,
      nextRankCapitalUsd: next ? usd2(next.capitalUsd) : null,
      progressBps,
    };
  });

  addRoute(app, apiRoutes.referralsAffiliates, async ({ auth, query }) => {
    const config = await configInForce(db, utcDay(new Date()));
    const [c] = await db.select({ decimals: currencies.decimals }).from(currencies).where(eq(currencies.code, config.currency));
    const page = await affiliatesPage(db, await priceTable(db, s.prices), { userId: auth.user.id, ...query, currency: config.currency });
    return { level: query.level, page: query.page, size: query.size, sort: query.sort, currency: config.currency, decimals: c?.decimals ?? 0, ...page };
  });

  addRoute(
    app,
    apiRoutes.referralsInvite,
    async ({ params }) => {
      // Only a confirmed account can invite (the database refuses any other referrer too).
      const [u] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.referralCode, params.code), isNotNull(users.role)));
      return { valid: Boolean(u) };
    },
    { rateLimit: { max: INVITE_CHECKS_PER_MINUTE, timeWindow: '1 minute' } },
  );

  addRoute(app, apiRoutes.referralsWithdraw, async ({ auth }) => {
    const config = await configInForce(db, utcDay(new Date()));
    // One currency per claim: an earlier payout currency first (it earns nothing new), then the current one.
    const [earlier] = await db
      .selectDistinct({ currency: referralRewards.currency })
      .from(referralRewards)
      .where(and(eq(referralRewards.userId, auth.user.id), eq(referralRewards.status, 'earned'), ne(referralRewards.currency, config.currency)))
      .orderBy(referralRewards.currency)
      .limit(1);
    await claimRewards(db, auth.user.id, earlier?.currency ?? config.currency, s.config.deposits.chainId);
    s.jobs.kick('payouts');
    return { message: M.withdrawalSent };
  });
}
