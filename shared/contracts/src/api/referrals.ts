import * as z from 'zod/mini';
import { baseUnitsSchema } from './common';

export const referralsResponseSchema = z
  .object({
    referralId: z.string(),
    referralLink: z.string(),
    levels: z.array(z.object({ level: z.int(), rewardBps: z.int(), members: z.int() })),
    members: z.int(),
    capitalAttractedUsd: z.string(),
    bonusesUsd: z.string(),
    ranks: z.array(z.object({ rank: z.int(), title: z.string(), capitalUsd: z.string(), bonusBps: z.int() })),
  })
  .register(z.globalRegistry, { id: 'Referrals' });
export type ReferralsResponse = z.infer<typeof referralsResponseSchema>;

/** Rewards in base units of the payout currency. */
export const referralHarvestResponseSchema = z
  .object({
    currency: z.string(),
    allTime: baseUnitsSchema,
    earned: baseUnitsSchema,
    availableToClaim: baseUnitsSchema,
    inPayment: baseUnitsSchema,
    alreadyPaid: baseUnitsSchema,
  })
  .register(z.globalRegistry, { id: 'ReferralHarvest' });
export type ReferralHarvestResponse = z.infer<typeof referralHarvestResponseSchema>;

export const referralProgressResponseSchema = z
  .object({
    rank: z.int(),
    nextRank: z.nullable(z.int()),
    capitalUsd: z.string(),
    nextRankCapitalUsd: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'ReferralProgress' });
export type ReferralProgressResponse = z.infer<typeof referralProgressResponseSchema>;
