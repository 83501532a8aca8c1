import * as z from 'zod';
import { baseUnitsSchema } from './common';

export const referralsResponseSchema = z
  .object({
    referralId: z.string(),
    referralLink: z.string(),
    levels: z.array(z.object({ level: z.number().int(), rewardBps: z.number().int(), members: z.number().int() })),
    members: z.number().int(),
    capitalAttractedUsd: z.string(),
    bonusesUsd: z.string(),
    ranks: z.array(z.object({ rank: z.number().int(), title: z.string(), capitalUsd: z.string(), bonusBps: z.number().int() })),
  })
  .meta({ id: 'Referrals' });
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
  .meta({ id: 'ReferralHarvest' });
export type ReferralHarvestResponse = z.infer<typeof referralHarvestResponseSchema>;

export const referralProgressResponseSchema = z
  .object({
    rank: z.number().int(),
    nextRank: z.number().int().nullable(),
    capitalUsd: z.string(),
    nextRankCapitalUsd: z.string().nullable(),
  })
  .meta({ id: 'ReferralProgress' });
export type ReferralProgressResponse = z.infer<typeof referralProgressResponseSchema>;
