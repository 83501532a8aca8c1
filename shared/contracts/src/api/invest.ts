import * as z from 'zod';
import { apiMessages as M } from './messages';
import { baseUnitsSchema, currencyCodeSchema, isoDateTime, patterns, poolNameSchema } from './common';

export const poolParamsSchema = z.object({ pool: poolNameSchema });
export const currencyQuerySchema = z.object({ currency: currencyCodeSchema.optional() });

const dateParam = z.iso.date({ error: M.invalidValue }).meta({ description: 'YYYY-MM-DD' });

export const balanceQuerySchema = z.object({
  from: dateParam.optional(),
  to: dateParam.optional(),
  pool: poolNameSchema.optional(),
});
export const balanceResponseSchema = z
  .object({
    items: z.array(
      z.object({
        date: z.string(),
        pool: z.string(),
        currency: z.string(),
        /** Credited deposits that day. */
        amount: baseUnitsSchema,
        /** Withdrawals requested that day. */
        withdrawn: baseUnitsSchema.optional(),
        /** Credited deposits minus withdrawal requests up to the end of that day. */
        balance: baseUnitsSchema.optional(),
      }),
    ),
  })
  .meta({ id: 'Balance' });
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;

/** Pools state (spec §3): coin label to address and to fiat estimate, plus the user's position. */
export const dashboardPoolResponseSchema = z
  .object({
    pool: poolNameSchema,
    title: z.string(),
    apyBps: z.number().int().meta({ description: 'Yearly interest in basis points (1% = 100)' }),
    addresses: z.record(z.string(), z.string()),
    estimate: z.record(z.string(), z.string().meta({ description: 'Fiat (USD) value as a decimal string' })),
    deposited: z.record(z.string(), baseUnitsSchema),
    earned: z.record(z.string(), baseUnitsSchema),
    /** Recorded deposits still waiting for confirmations, per currency (not in `deposited` yet). */
    pending: z.record(z.string(), baseUnitsSchema).optional(),
  })
  .meta({ id: 'DashboardPool' });
export type DashboardPoolResponse = z.infer<typeof dashboardPoolResponseSchema>;

export const yieldResponseSchema = z
  .object({
    items: z.array(z.object({ pool: poolNameSchema, currency: z.string(), apyBps: z.number().int(), earned: baseUnitsSchema })),
  })
  .meta({ id: 'Yield' });
export type YieldResponse = z.infer<typeof yieldResponseSchema>;

export const withdrawBodySchema = z
  .object({ pool: poolNameSchema, amount: baseUnitsSchema, currency: currencyCodeSchema })
  .meta({ id: 'WithdrawBody' });
export type WithdrawBody = z.input<typeof withdrawBodySchema>;

export const depositBodySchema = z
  .object({
    pool: poolNameSchema,
    amount: baseUnitsSchema,
    currency: currencyCodeSchema,
    transaction: z
      .string({ error: (iss) => (iss.input === undefined ? M.required : M.invalidValue) })
      .regex(patterns.txHash, M.invalidValue)
      .meta({ description: 'Transaction hash' }),
    /** The wallet's network id when it sent the transaction; anything but 1 is refused. */
    chainId: z.number({ error: M.invalidValue }).int(M.invalidValue).optional(),
  })
  .meta({ id: 'DepositBody' });
export type DepositBody = z.input<typeof depositBodySchema>;

export const movementResponseSchema = z
  .object({
    message: z.string(),
    id: z.number().int(),
    status: z.string(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'MovementResponse' });
export type MovementResponse = z.infer<typeof movementResponseSchema>;

/**
 * A deposit as the server read it from the chain. Progress: `pending` with `confirmations` of
 * `confirmationsRequired`, then `credited` (counted in balances), or `refused` with `reason` (a
 * message, e.g. the transaction vanished in a reorganisation).
 */
export const depositStatusSchema = z
  .object({
    id: z.number().int(),
    pool: poolNameSchema,
    currency: z.string(),
    /** The chain's amount in base units, whatever the client said. */
    amount: baseUnitsSchema,
    transaction: z.string(),
    logIndex: z.number().int().meta({ description: 'Index of the token Transfer log; -1 for ETH' }),
    from: z.string().nullable(),
    to: z.string().nullable(),
    status: z.enum(['pending', 'credited', 'refused']),
    confirmations: z.number().int(),
    confirmationsRequired: z.number().int(),
    blockNumber: z.number().int().nullable(),
    reason: z.string().nullable(),
    createdAt: isoDateTime,
    creditedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'DepositStatus' });
export type DepositStatus = z.infer<typeof depositStatusSchema>;

/** POST /dashboard/deposit: the movement fields plus the deposit as read from the chain. */
export const depositResponseSchema = movementResponseSchema
  .extend({ deposit: depositStatusSchema })
  .meta({ id: 'DepositResponse' });
export type DepositResponse = z.infer<typeof depositResponseSchema>;

export const depositsQuerySchema = z.object({
  pool: poolNameSchema.optional(),
  id: z.coerce.number({ error: M.invalidValue }).int(M.invalidValue).positive(M.invalidValue).optional(),
  transaction: z.string().regex(patterns.txHash, M.invalidValue).optional(),
});
export const depositsResponseSchema = z
  .object({ items: z.array(depositStatusSchema), confirmationsRequired: z.number().int() })
  .meta({ id: 'Deposits' });
export type DepositsResponse = z.infer<typeof depositsResponseSchema>;

export const poolAssetsResponseSchema = z
  .object({
    pool: poolNameSchema,
    assets: z.array(z.object({ currency: z.string(), address: z.string().nullable(), shareBps: z.number().int() })),
  })
  .meta({ id: 'PoolAssets' });
export type PoolAssetsResponse = z.infer<typeof poolAssetsResponseSchema>;

export const poolStrategyResponseSchema = z
  .object({ pool: poolNameSchema, title: z.string(), description: z.string(), riskLevel: z.string() })
  .meta({ id: 'PoolStrategy' });
export type PoolStrategyResponse = z.infer<typeof poolStrategyResponseSchema>;

export const poolGraphResponseSchema = z
  .object({
    pool: poolNameSchema,
    points: z.array(z.object({ date: z.string(), apyBps: z.number().int(), tvlUsd: z.string() })),
  })
  .meta({ id: 'PoolGraph' });
export type PoolGraphResponse = z.infer<typeof poolGraphResponseSchema>;
