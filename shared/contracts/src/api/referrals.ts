/**
 * The referral programme's calls (base /api/v1). Money is in base units of the payout currency
 * (`currency`, USDT unless the operator chose another); US-dollar figures are decimal strings with
 * two decimals, never floats.
 *
 * - GET  /referrals                  (auth) overview: referral id and link, levels (level, base rate,
 *                                     the user's rank bonus, members), members, capital attracted,
 *                                     bonuses (USD value of all rewards), the rank table, the user's rank.
 * - GET  /referrals/harvest          (auth) rewards: all-time, earned, available to claim, in payment,
 *                                     already paid, vesting (and the vesting period), the same for
 *                                     earlier payout currencies; plus `claim`: the latest claim (status
 *                                     in_payment / paid / returned, amount, transaction hash) and
 *                                     `claimInProgress`.
 * - GET  /referrals/progress         (auth) current rank, next rank, capital and what the next rank needs.
 * - GET  /referrals/affiliates       (auth) the downline, one level, sorted and paged on the server:
 *                                     ?level=1&page=1&size=20&sort=joined_desc. Each member shows a
 *                                     masked e-mail ("j***@example.com") or a short wallet ("0x1234…abcdef"),
 *                                     never a full e-mail, a balance in a currency nor
 *                                     a member's capital (only its band: "$1,000 – $10,000").
 * - GET  /referrals/invite/:code     (public, rate-limited) { valid } and nothing else; a malformed code
 *                                     is answered 400 with the standard error body.
 * - POST /referrals/withdraw         (auth, no body) claims everything available in one currency
 *                                     (an earlier payout currency first); paid on chain to the
 *                                     linked wallet. 200 { message: 'Withdrawal request has been
 *                                     successfully sent! Payment will be processed soon.' }; 409
 *                                     CLAIM_IN_PROGRESS 'Please wait for the current payment to complete
 *                                     before making a new claim'; 400 NOTHING_TO_CLAIM; 400 CLAIM_NO_WALLET.
 */
import * as z from 'zod/mini';
import * as M from './message-texts';
import { baseUnitsSchema, isoDateTime, maxLength, pageNumber } from './common';

/** Invite (referral) codes: letters, digits, '-' and '_' (base64url), at most 64. */
export const invitePattern = /^[A-Za-z0-9_-]{1,64}$/;

export const referralsResponseSchema = z
  .object({
    referralId: z.string(),
    referralLink: z.string(),
    /** The payout currency of every reward. */
    currency: z.string(),
    /** `rewardBps`: the level's rate; `bonusBps`: the user's current rank bonus, added at every level. */
    levels: z.array(z.object({ level: z.int(), rewardBps: z.int(), bonusBps: z.int(), members: z.int() })),
    members: z.int(),
    capitalAttractedUsd: z.string(),
    bonusesUsd: z.string(),
    /** The user's rank (0: none reached yet). */
    rank: z.int(),
    ranks: z.array(z.object({ rank: z.int(), title: z.string(), capitalUsd: z.string(), bonusBps: z.int() })),
    /** All levels' rates plus the largest rank bonus at each level never exceed this (1800: 18 %). */
    maxTotalBps: z.int(),
  })
  .register(z.globalRegistry, { id: 'Referrals' });
export type ReferralsResponse = z.infer<typeof referralsResponseSchema>;

/** A claim of rewards: in_payment until the payout confirms (paid) or comes back (returned: the rewards are available again). */
export const referralClaimSchema = z
  .object({
    id: z.int(),
    status: z.enum(['in_payment', 'paid', 'returned']),
    currency: z.string(),
    amount: baseUnitsSchema,
    to: z.nullable(z.string()),
    transaction: z.nullable(z.string()),
    createdAt: isoDateTime,
    paidAt: z.nullable(isoDateTime),
  })
  .register(z.globalRegistry, { id: 'ReferralClaim' });
export type ReferralClaim = z.infer<typeof referralClaimSchema>;

/** Rewards in a currency the payout currency once was: still shown, and claimed before the current one. */
export const referralOtherCurrencySchema = z.object({
  currency: z.string(),
  decimals: z.int(),
  vesting: baseUnitsSchema,
  availableToClaim: baseUnitsSchema,
  inPayment: baseUnitsSchema,
  alreadyPaid: baseUnitsSchema,
});
export type ReferralOtherCurrency = z.infer<typeof referralOtherCurrencySchema>;

/**
 * Rewards in base units of the payout currency. `earned` = available + in payment. `vesting`: rewards
 * waiting out the vesting period (`vestingDays` whole days after the day that earned them, the
 * referee's funds staying); they are not in the other figures until they vest.
 */
export const referralHarvestResponseSchema = z
  .object({
    currency: z.string(),
    decimals: z.int(),
    allTime: baseUnitsSchema,
    earned: baseUnitsSchema,
    availableToClaim: baseUnitsSchema,
    inPayment: baseUnitsSchema,
    alreadyPaid: baseUnitsSchema,
    vesting: baseUnitsSchema,
    vestingDays: z.int(),
    /** Earlier payout currencies with rewards (a claim takes them first, one currency per claim). */
    others: z.array(referralOtherCurrencySchema),
    claimInProgress: z.boolean(),
    /** The latest claim, or null when none was made. */
    claim: z.nullable(referralClaimSchema),
  })
  .register(z.globalRegistry, { id: 'ReferralHarvest' });
export type ReferralHarvestResponse = z.infer<typeof referralHarvestResponseSchema>;

export const referralProgressResponseSchema = z
  .object({
    rank: z.int(),
    nextRank: z.nullable(z.int()),
    capitalUsd: z.string(),
    nextRankCapitalUsd: z.nullable(z.string()),
    /** Progress from the current rank's threshold to the next one, 0 … 10000 (10000 at the top rank). */
    progressBps: z.int(),
  })
  .register(z.globalRegistry, { id: 'ReferralProgress' });
export type ReferralProgressResponse = z.infer<typeof referralProgressResponseSchema>;

export const affiliateSorts = ['joined_desc', 'joined_asc', 'capital_desc', 'capital_asc', 'rewards_desc', 'rewards_asc'] as const;
export type AffiliateSort = (typeof affiliateSorts)[number];

export const affiliatesQuerySchema = z.object({
  /** 1 … the deepest configured level (a deeper one answers an empty page). */
  level: pageNumber(10, 1),
  page: pageNumber(100_000, 1),
  size: pageNumber(100, 20),
  sort: z._default(z.enum(affiliateSorts, { error: M.invalidValue }), 'joined_desc'),
});
export type AffiliatesQuery = z.input<typeof affiliatesQuerySchema>;

export const affiliateSchema = z.object({
  /** Masked e-mail, or the short wallet (first 6 and last 6 characters) for a wallet-only account. */
  member: z.string(),
  joinedAt: isoDateTime,
  /**
   * The band the US-dollar value of the member's current positions falls in, never the amount:
   * from (inclusive) and to (exclusive) in whole dollars; `toUsd` null for the top band; both '0'
   * when the member holds nothing.
   */
  capitalBand: z.object({ fromUsd: z.string(), toUsd: z.nullable(z.string()) }),
  /** Rewards the signed-in user earned from this member, in base units of the payout currency. */
  rewards: baseUnitsSchema,
});
export type Affiliate = z.infer<typeof affiliateSchema>;

export const affiliatesResponseSchema = z
  .object({
    level: z.int(),
    page: z.int(),
    size: z.int(),
    total: z.int(),
    sort: z.enum(affiliateSorts),
    currency: z.string(),
    decimals: z.int(),
    items: z.array(affiliateSchema),
  })
  .register(z.globalRegistry, { id: 'Affiliates' });
export type AffiliatesResponse = z.infer<typeof affiliatesResponseSchema>;

export const inviteParamsSchema = z.object({
  code: z.string({ error: M.invalidInvite }).check(maxLength(64, M.invalidInvite), z.regex(invitePattern, M.invalidInvite)),
});
export const inviteCheckResponseSchema = z.object({ valid: z.boolean() }).register(z.globalRegistry, { id: 'InviteCheck' });
export type InviteCheckResponse = z.infer<typeof inviteCheckResponseSchema>;
