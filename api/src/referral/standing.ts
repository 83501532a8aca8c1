// What the referral pages read: the user's standing (downline, capital attracted, rank), the
// rewards by state, and which currency a claim takes.
import { and, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import type { AffiliateSort } from '@app/contracts';
import { decimalsOfCurrency } from '../db/currencies';
import type { Db } from '../db/client';
import { referralRewardTotals, users } from '../db/schema';
import { rows } from '../db/rows';
import { utcDay } from '../interest';
import type { PriceSource } from '../pricing';
import { noSharedFigures, type SharedFigures } from '../http/shared-figures';
import { claimRewards, latestClaim } from './claims';
import { configInForce, MAX_TOTAL_BPS, rankFor } from './config';
import { affiliatesPage, downline, fromE8, priceTable, rewardsUsd, toE8, usd2 } from './network';

/** The price table everyone's referral figures are valued with, from the shared figures. */
const sharedPriceTable = (db: Db, source: PriceSource, figures: SharedFigures) => figures.get(`price-table:${source.name}`, () => priceTable(db, source));

/**
 * The configuration in force today, the downline within its levels, capital attracted and the rank
 * it reaches. The configuration and the price table are the same for everyone: from `figures`.
 */
async function standing(db: Db, source: PriceSource, userId: string, figures: SharedFigures = noSharedFigures) {
  const today = utcDay(new Date());
  const [config, prices] = await Promise.all([
    figures.get(`referral-config:${today}`, () => configInForce(db, today)),
    sharedPriceTable(db, source, figures),
  ]);
  const tree = await downline(db, prices, userId, config.levels.length);
  const capital = usd2(fromE8(tree.reduce((sum, t) => sum + toE8(t.capital), 0n)));
  return { config, prices, tree, capital, rank: rankFor(config.ranks, capital) };
}

/** The referral page: the user's link, the levels with their members and rewards, capital attracted, rank and bonuses. */
export async function referralOverview(db: Db, source: PriceSource, user: { id: string; referralCode: string }, publicUrl: string, figures: SharedFigures = noSharedFigures) {
  const [{ config, tree, capital, rank }, bonuses] = await Promise.all([
    standing(db, source, user.id, figures),
    sharedPriceTable(db, source, figures).then((prices) => rewardsUsd(db, prices, user.id)),
  ]);
  return {
    referralId: user.referralCode,
    referralLink: `${publicUrl}/sign-up?invite=${encodeURIComponent(user.referralCode)}`,
    currency: config.currency,
    levels: config.levels.map((l) => ({
      level: l.level,
      rewardBps: l.rewardBps,
      bonusBps: rank?.bonusBps ?? 0,
      members: tree.find((t) => t.level === l.level)?.members ?? 0,
    })),
    members: tree.reduce((n, t) => n + t.members, 0),
    capitalAttractedUsd: capital,
    bonusesUsd: usd2(bonuses),
    rank: rank?.rank ?? 0,
    ranks: config.ranks.map((r) => ({ ...r, capitalUsd: usd2(r.capitalUsd) })),
    maxTotalBps: MAX_TOTAL_BPS,
  };
}

/** The user's rewards by state in the payout currency, those in earlier payout currencies, and the latest claim. */
export async function harvest(db: Db, userId: string) {
  const config = await configInForce(db, utcDay(new Date()));
  // Every currency the user's rewards were ever paid in: an earlier payout currency stays visible and claimable.
  // The totals kept per currency and status (0022), not the rewards themselves; and, vesting, the sums of a pool day's parts
  // not yet in the day's rows (0046).
  const found = await rows<{ currency: string; decimals: number | null; status: string; total: string }>(
    db,
    sql`select r.currency, c.decimals, r.status, sum(r.amount)::text as total from (
          select currency, status, amount from referral_reward_totals where user_id = ${userId} and status <> 'forfeited' and amount <> 0
          union all select currency, 'vesting', amount from referral_part_sums where user_id = ${userId}
        ) r left join currencies c on c.code = r.currency
        group by r.currency, c.decimals, r.status`,
  );
  const by = (currency: string, status: string) => String(found.find((r) => r.currency === currency && r.status === status)?.total ?? '0');
  const decimals = await decimalsOfCurrency(db, config.currency);
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
  const { claim, inProgress } = await latestClaim(db, userId);
  return {
    currency: config.currency,
    decimals,
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
}

/** The user's rank, the next one and how far the capital attracted has come towards it. */
export async function rankProgress(db: Db, source: PriceSource, userId: string) {
  const { config, capital, rank } = await standing(db, source, userId);
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
}

/** One page of one level of the downline, in the payout currency. */
export async function affiliates(db: Db, source: PriceSource, userId: string, query: { level: number; page: number; size: number; sort: AffiliateSort }) {
  const config = await configInForce(db, utcDay(new Date()));
  const decimals = await decimalsOfCurrency(db, config.currency);
  const page = await affiliatesPage(db, await priceTable(db, source), { userId, ...query, currency: config.currency });
  return { level: query.level, page: query.page, size: query.size, sort: query.sort, currency: config.currency, decimals, ...page };
}

/** Whether an invite code is valid: only a confirmed account can invite (the database refuses any other referrer too). */
export async function inviteValid(db: Db, code: string) {
  const [u] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.referralCode, code), isNotNull(users.role)));
  return { valid: Boolean(u) };
}

/** Claims the user's earned rewards, one currency per claim: an earlier payout currency first (it earns nothing new), then the current one. */
export async function claimNext(db: Db, userId: string, chainId: number) {
  const config = await configInForce(db, utcDay(new Date()));
  // From the kept totals (0022): a few rows per user, not their rewards.
  const [earlier] = await db
    .select({ currency: referralRewardTotals.currency })
    .from(referralRewardTotals)
    .where(
      and(
        eq(referralRewardTotals.userId, userId),
        eq(referralRewardTotals.status, 'earned'),
        gt(referralRewardTotals.amount, '0'),
        ne(referralRewardTotals.currency, config.currency),
      ),
    )
    .orderBy(referralRewardTotals.currency)
    .limit(1);
  return claimRewards(db, userId, earlier?.currency ?? config.currency, chainId);
}
