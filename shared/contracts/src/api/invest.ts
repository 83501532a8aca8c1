import * as z from 'zod/mini';
import * as M from './message-texts';
import { baseUnitsSchema, currencyCodeSchema, isoDateTime, patterns, poolNameSchema, positiveBaseUnitsSchema } from './common';

export const poolParamsSchema = z.object({ pool: poolNameSchema });
export const currencyQuerySchema = z.object({ currency: z.optional(currencyCodeSchema) });

// Years the database can hold and the product can mean: 0000-01-01 is a valid ISO date but not a day of the ledger.
const dateParam = z.iso
  .date({ error: M.invalidValue })
  .check(z.refine((d) => d >= '1970-01-01' && d <= '9999-12-31', M.invalidValue))
  .register(z.globalRegistry, { description: 'YYYY-MM-DD, 1970-01-01 to 9999-12-31' });

export const balanceQuerySchema = z.object({
  from: z.optional(dateParam),
  to: z.optional(dateParam),
  pool: z.optional(poolNameSchema),
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
        withdrawn: z.optional(baseUnitsSchema),
        /** The position at the end of that day: credited deposits less withdrawal requests, with the interest of every day up to it (interest is on the day it is for). */
        balance: z.optional(baseUnitsSchema),
      }),
    ),
  })
  .register(z.globalRegistry, { id: 'Balance' });
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;

/** Pools state (spec §3): coin label to address and to fiat estimate, plus the user's position. */
export const dashboardPoolResponseSchema = z
  .object({
    pool: poolNameSchema,
    title: z.string(),
    apyBps: z.int().register(z.globalRegistry, { description: 'Yearly interest in basis points (1% = 100)' }),
    addresses: z.record(z.string(), z.string()),
    estimate: z.record(z.string(), z.string().register(z.globalRegistry, { description: 'Fiat (USD) value as a decimal string' })),
    deposited: z.record(z.string(), baseUnitsSchema),
    earned: z.record(z.string(), baseUnitsSchema),
    /** Recorded deposits still waiting for confirmations, per currency (not in `deposited` yet). */
    pending: z.optional(z.record(z.string(), baseUnitsSchema)),
  })
  .register(z.globalRegistry, { id: 'DashboardPool' });
export type DashboardPoolResponse = z.infer<typeof dashboardPoolResponseSchema>;

export const yieldResponseSchema = z
  .object({
    items: z.array(z.object({ pool: poolNameSchema, currency: z.string(), apyBps: z.int(), earned: baseUnitsSchema })),
  })
  .register(z.globalRegistry, { id: 'Yield' });
export type YieldResponse = z.infer<typeof yieldResponseSchema>;

export const withdrawBodySchema = z
  .object({ pool: poolNameSchema, amount: positiveBaseUnitsSchema, currency: currencyCodeSchema })
  .register(z.globalRegistry, { id: 'WithdrawBody' });
export type WithdrawBody = z.input<typeof withdrawBodySchema>;

export const depositBodySchema = z
  .object({
    pool: poolNameSchema,
    amount: baseUnitsSchema,
    currency: currencyCodeSchema,
    transaction: z
      .string({ error: (iss) => (iss.input === undefined ? M.required : M.invalidValue) })
      .check(z.regex(patterns.txHash, M.invalidValue))
      .register(z.globalRegistry, { description: 'Transaction hash' }),
    /** The wallet's network id when it sent the transaction; anything but 1 is refused. */
    chainId: z.optional(z.number({ error: M.invalidValue }).check(z.int(M.invalidValue))),
  })
  .register(z.globalRegistry, { id: 'DepositBody' });
export type DepositBody = z.input<typeof depositBodySchema>;

export const movementResponseSchema = z
  .object({
    message: z.string(),
    id: z.int(),
    status: z.string(),
    createdAt: isoDateTime,
  })
  .register(z.globalRegistry, { id: 'MovementResponse' });
export type MovementResponse = z.infer<typeof movementResponseSchema>;

/**
 * A deposit as the server read it from the chain. Progress: `pending` with `confirmations` of
 * `confirmationsRequired`, then `credited` (counted in balances), or `refused` with `reason` (a
 * message, e.g. the transaction vanished in a reorganisation).
 */
export const depositStatusSchema = z
  .object({
    id: z.int(),
    pool: poolNameSchema,
    currency: z.string(),
    /** The chain's amount in base units, whatever the client said. */
    amount: baseUnitsSchema,
    transaction: z.string(),
    logIndex: z.int().register(z.globalRegistry, { description: 'Index of the token Transfer log; -1 for ETH' }),
    from: z.nullable(z.string()),
    to: z.nullable(z.string()),
    status: z.enum(['pending', 'credited', 'refused']),
    confirmations: z.int(),
    confirmationsRequired: z.int(),
    blockNumber: z.nullable(z.int()),
    reason: z.nullable(z.string()),
    createdAt: isoDateTime,
    creditedAt: z.nullable(isoDateTime),
  })
  .register(z.globalRegistry, { id: 'DepositStatus' });
export type DepositStatus = z.infer<typeof depositStatusSchema>;

/** POST /dashboard/deposit: the movement fields plus the deposit as read from the chain. */
export const depositResponseSchema = z
  .extend(movementResponseSchema, { deposit: depositStatusSchema })
  .register(z.globalRegistry, { id: 'DepositResponse' });
export type DepositResponse = z.infer<typeof depositResponseSchema>;

export const depositsQuerySchema = z.object({
  pool: z.optional(poolNameSchema),
  id: z.optional(z.coerce.number({ error: M.invalidValue }).check(z.int(M.invalidValue), z.positive(M.invalidValue))),
  transaction: z.optional(z.string().check(z.regex(patterns.txHash, M.invalidValue))),
});
export const depositsResponseSchema = z
  .object({ items: z.array(depositStatusSchema), confirmationsRequired: z.int() })
  .register(z.globalRegistry, { id: 'Deposits' });
export type DepositsResponse = z.infer<typeof depositsResponseSchema>;

export const poolAssetsResponseSchema = z
  .object({
    pool: poolNameSchema,
    assets: z.array(z.object({ currency: z.string(), address: z.nullable(z.string()), shareBps: z.int() })),
  })
  .register(z.globalRegistry, { id: 'PoolAssets' });
export type PoolAssetsResponse = z.infer<typeof poolAssetsResponseSchema>;

export const poolStrategyResponseSchema = z
  .object({ pool: poolNameSchema, title: z.string(), description: z.string(), riskLevel: z.string() })
  .register(z.globalRegistry, { id: 'PoolStrategy' });
export type PoolStrategyResponse = z.infer<typeof poolStrategyResponseSchema>;

/** The pool graph's ranges: the last 30, 90 or 365 accrued days, or all of them. */
export const poolGraphRanges = ['30D', '90D', '1Y', 'All'] as const;
export type PoolGraphRange = (typeof poolGraphRanges)[number];
export const poolGraphQuerySchema = z.object({ range: z._default(z.enum(poolGraphRanges, { error: M.invalidValue }), 'All') });

/**
 * A pool's history from its books, one point per accrued day, oldest first: the APY the day was
 * accrued with, and the US-dollar value, at today's prices, of what its positions held at the
 * day's close (that day's interest included). A pool with nothing accrued has no points.
 */
export const poolGraphResponseSchema = z
  .object({
    pool: poolNameSchema,
    range: z.enum(poolGraphRanges),
    points: z.array(z.object({ date: z.string(), apyBps: z.int(), tvlUsd: z.string() })),
  })
  .register(z.globalRegistry, { id: 'PoolGraph' });
export type PoolGraphResponse = z.infer<typeof poolGraphResponseSchema>;

/**
 * A withdrawal and its progress: requested → (awaiting_approval →) (waiting_funds →) sending → paid
 * (with the transaction hash), or returned (the amount is back in the balance; `reason` says why).
 */
export const withdrawalStatusSchema = z
  .object({
    id: z.int(),
    pool: poolNameSchema,
    currency: z.string(),
    amount: baseUnitsSchema,
    /** Kept as the withdrawal fee; the wallet receives `receive` = amount − fee. */
    fee: baseUnitsSchema,
    receive: baseUnitsSchema,
    /** waiting_funds: not signed yet, the paying address cannot fund it now; cancelling: replaced at its nonce, returned once that is final. */
    status: z.enum(['requested', 'awaiting_approval', 'waiting_funds', 'sending', 'cancelling', 'paid', 'returned']),
    to: z.nullable(z.string()),
    transaction: z.nullable(z.string()),
    confirmations: z.int(),
    confirmationsRequired: z.int(),
    reason: z.nullable(z.string()),
    createdAt: isoDateTime,
    paidAt: z.nullable(isoDateTime),
    /** Not yet sent: a recent change of the account's e-mail, password or wallet holds it until then. */
    heldUntil: z.optional(z.nullable(isoDateTime)),
  })
  .register(z.globalRegistry, { id: 'WithdrawalStatus' });
export type WithdrawalStatus = z.infer<typeof withdrawalStatusSchema>;

export const withdrawalsQuerySchema = z.object({ pool: z.optional(poolNameSchema) });
export const withdrawalsResponseSchema = z
  .object({ items: z.array(withdrawalStatusSchema) })
  .register(z.globalRegistry, { id: 'Withdrawals' });

/** What a withdrawal of `amount` would cost, shown before the user confirms. */
export const withdrawQuoteQuerySchema = z.object({ pool: poolNameSchema, currency: currencyCodeSchema, amount: positiveBaseUnitsSchema });
export const withdrawQuoteResponseSchema = z
  .object({
    fee: baseUnitsSchema,
    receive: baseUnitsSchema,
    approvalRequired: z.boolean(),
    /** Payouts of the account wait until then (a recent change of its e-mail, password or wallet). */
    heldUntil: z.optional(z.nullable(isoDateTime)),
  })
  .register(z.globalRegistry, { id: 'WithdrawQuote' });

/**
 * What the withdraw form checks before a request (the server checks the same): per currency the
 * smallest withdrawal and the fee, in base units; a currency not listed cannot be withdrawn now.
 * `perHour` and `perDay` cap the account's requests over the last hour and the last 24 hours.
 */
export const withdrawRulesResponseSchema = z
  .object({
    currencies: z.array(z.object({ currency: z.string(), minimum: baseUnitsSchema, fee: baseUnitsSchema })),
    perHour: z.int(),
    perDay: z.int(),
  })
  .register(z.globalRegistry, { id: 'WithdrawRules' });
export type WithdrawRulesResponse = z.infer<typeof withdrawRulesResponseSchema>;
