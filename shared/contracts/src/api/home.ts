import * as z from 'zod/mini';
import { baseUnitsSchema, isoDateTime, poolNameSchema, signedBaseUnitsSchema } from './common';

const usd = z.string().register(z.globalRegistry, { description: 'US dollars, exact decimal string with 2 places', example: '1234.56' });
const fraction = z.string().register(z.globalRegistry, { description: 'Decimal fraction, 0.05 = 5 %', example: '0.05' });

/**
 * What a visitor sees before signing up (the public home page): each pool's yield in force, its
 * value locked on the books at today's prices, its risk and why, where its yield comes from, and
 * the fees. `asOf` is the day the rates are read at (as the dashboard's).
 */
export const poolsOverviewResponseSchema = z
  .object({
    asOf: z.string(),
    pools: z.array(
      z.object({
        pool: poolNameSchema,
        title: z.string(),
        /** Where the yield comes from, in the caller's language. */
        description: z.string(),
        riskLevel: z.string(),
        /** Why the pool carries that risk level, in the caller's language. */
        riskReason: z.string(),
        /** The APY in force (compounded daily). */
        apy: fraction,
        /** 365 × the daily rate: the simple yearly rate behind the APY. */
        apr: fraction,
        tvlUsd: usd,
        currencies: z.array(z.string()),
      }),
    ),
    /** Deposits cost no fee of the product's (the sender pays the network's gas). */
    depositFee: baseUnitsSchema,
    /** Per open currency, in base units: the flat withdrawal fee and the smallest withdrawal. */
    withdrawal: z.array(z.object({ currency: z.string(), fee: baseUnitsSchema, minimum: baseUnitsSchema })),
    /** Decimals of each currency's base unit. */
    decimals: z.record(z.string(), z.int()),
  })
  .register(z.globalRegistry, { id: 'PoolsOverview' });
export type PoolsOverviewResponse = z.infer<typeof poolsOverviewResponseSchema>;

/** A pool's reserves per currency: on chain and on the books (public; the home page shows them). */
export const poolReservesResponseSchema = z
  .object({
    pool: poolNameSchema,
    // Signed: the books of an address can hold less than nothing (gas paid from money the books never
    // recorded), and the difference goes either way. A public page never fails on a value the ledger can hold.
    items: z.array(z.object({ currency: z.string(), address: z.string(), onChain: z.nullable(baseUnitsSchema), books: signedBaseUnitsSchema, difference: z.nullable(signedBaseUnitsSchema) })),
    checkedAt: isoDateTime,
  })
  .register(z.globalRegistry, { id: 'PoolReserves' });
