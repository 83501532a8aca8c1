import * as z from 'zod/mini';
import { baseUnitsSchema } from './common';

export const daoPersonalResponseSchema = z
  .object({ votingPower: baseUnitsSchema, staked: baseUnitsSchema, proposalsVoted: z.int() })
  .register(z.globalRegistry, { id: 'DaoPersonal' });
export type DaoPersonalResponse = z.infer<typeof daoPersonalResponseSchema>;

export const daoPoolsResponseSchema = z
  .object({ items: z.array(z.object({ pool: z.string(), title: z.string(), apyBps: z.int(), tvlUsd: z.string() })) })
  .register(z.globalRegistry, { id: 'DaoPools' });
export type DaoPoolsResponse = z.infer<typeof daoPoolsResponseSchema>;

export const daoValuesResponseSchema = z
  .object({ values: z.record(z.string(), z.string()) })
  .register(z.globalRegistry, { id: 'DaoValues' });
export type DaoValuesResponse = z.infer<typeof daoValuesResponseSchema>;

export const daoRewardsResponseSchema = z
  .object({ currency: z.string(), earned: baseUnitsSchema, claimed: baseUnitsSchema })
  .register(z.globalRegistry, { id: 'DaoRewards' });
export type DaoRewardsResponse = z.infer<typeof daoRewardsResponseSchema>;
