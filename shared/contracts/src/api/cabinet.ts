import * as z from 'zod/mini';
import * as M from './message-texts';
import { baseUnitsSchema, currencyCodeSchema, isoDateTime, pageNumber, poolNameSchema } from './common';

/** US dollars as an exact decimal string with two places, e.g. "1234.56" or "-0.10". */
const usdSchema = z.string().register(z.globalRegistry, { description: 'US dollars, exact decimal string with 2 places', example: '1234.56' });
/** A signed amount in base units (profit can be negative: a withdrawal fee). */
const signedUnitsSchema = z.string().register(z.globalRegistry, { description: 'Signed integer amount in base units', example: '-1000' });
/** A fraction as an exact decimal string: "0.05" is 5 %. */
const fractionSchema = z.string().register(z.globalRegistry, { description: 'Decimal fraction, 0.05 = 5 %', example: '0.05' });

const perCurrencySchema = z.object({
  currency: z.string(),
  /** What the user holds now: deposits + interest − withdrawals. */
  balance: baseUnitsSchema,
  /** Credited deposits less withdrawals, floored at zero. */
  principal: baseUnitsSchema,
  deposited: baseUnitsSchema,
  withdrawn: baseUnitsSchema,
  interest: z.object({ all: baseUnitsSchema, day: baseUnitsSchema, month: baseUnitsSchema }),
  /** balance + withdrawn − deposited. */
  profit: signedUnitsSchema,
  priceUsd: z.string(),
  valueUsd: usdSchema,
});

export const cabinetPoolSchema = z.object({
  pool: poolNameSchema,
  title: z.string(),
  riskLevel: z.string(),
  /** The APY in force (compounded daily). */
  apy: fractionSchema,
  /** 365 × the daily rate: the simple yearly rate behind the APY. */
  apr: fractionSchema,
  /** The pool's books (all positions) at today's prices. */
  tvlUsd: usdSchema,
  currencies: z.array(z.string()),
  positions: z.array(z.object({ currency: z.string(), balance: baseUnitsSchema, earned: baseUnitsSchema, valueUsd: usdSchema })),
  valueUsd: usdSchema,
});
export type CabinetPool = z.infer<typeof cabinetPoolSchema>;

/**
 * What the dashboard shows. `asOf` is the day the figures are read at: today, or the day after the
 * last accrued day when the operator has accrued ahead. "day" interest is the last accrued day's
 * (the daily rewards), "month" the last 30 accrued days'.
 */
export const cabinetSummaryResponseSchema = z
  .object({
    asOf: z.string(),
    totals: z.object({
      valueUsd: usdSchema,
      principalUsd: usdSchema,
      profitUsd: usdSchema,
      interestUsd: z.object({ all: usdSchema, day: usdSchema, month: usdSchema }),
    }),
    currencies: z.array(perCurrencySchema),
    pools: z.array(cabinetPoolSchema),
    dailyRewards: z.object({ day: z.nullable(z.string()), items: z.array(z.object({ pool: poolNameSchema, currency: z.string(), amount: baseUnitsSchema })) }),
    /** Decimals of each currency's base unit, so pages format amounts without the token table. */
    decimals: z.record(z.string(), z.int()),
    tutorialDismissed: z.boolean(),
    /** No deposit was ever recorded: the page shows the first steps. */
    empty: z.boolean(),
    revision: z.string(),
  })
  .register(z.globalRegistry, { id: 'CabinetSummary' });
export type CabinetSummary = z.infer<typeof cabinetSummaryResponseSchema>;

/**
 * Where a page of activity starts (keyset pagination): the `next` of the page before. Its time to
 * the microsecond (UTC), kind, id (0 for interest), pool and currency, joined by '~'.
 */
export const ACTIVITY_CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z~(deposit|interest|withdrawal)~\d{1,19}~[a-z]{1,20}~[A-Z]{1,10}$/;

export const ACTIVITY_KINDS = ['deposit', 'interest', 'withdrawal'] as const;
const activityKindSchema = z.enum(ACTIVITY_KINDS, { error: M.invalidValue });
/** A calendar month, UTC: "2026-03". */
export const ACTIVITY_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export const activityQuerySchema = z.object({
  page: pageNumber(100_000, 1),
  size: pageNumber(100, 20),
  pool: z.optional(poolNameSchema),
  /** Only this type of movement. */
  kind: z.optional(activityKindSchema),
  currency: z.optional(currencyCodeSchema),
  /**
   * Daily interest as it is credited (`day`, the default) or one row per pool, currency and month
   * (`month`), so deposits and withdrawals stand out. `month` below always lists days.
   */
  interest: z.optional(z.enum(['day', 'month'], { error: M.invalidValue })),
  /** Only this month's interest, day by day (the drill-down of a month's row); other movements as filtered. */
  month: z.optional(z.string({ error: M.invalidValue }).check(z.regex(ACTIVITY_MONTH, M.invalidValue))),
  /** Start after this cursor instead of at `page` (which then only labels the answer). */
  after: z.optional(z.string({ error: M.invalidValue }).check(z.regex(ACTIVITY_CURSOR, M.invalidValue))),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

export const activityItemSchema = z.object({
  kind: z.enum(['deposit', 'interest', 'withdrawal']),
  /** The deposit's or withdrawal's id; null for interest. */
  id: z.nullable(z.int()),
  pool: poolNameSchema,
  currency: z.string(),
  amount: baseUnitsSchema,
  /** deposit: pending, credited, refused; interest: credited; withdrawal: requested … paid, returned. */
  status: z.string(),
  /** When it happened; an interest credit is dated the day it is for (its 00:00 UTC), as on the dashboard. */
  at: isoDateTime,
  transaction: z.nullable(z.string()),
  confirmations: z.int(),
  confirmationsRequired: z.int(),
  /** A month's interest in one row (`interest=month`): the month ("2026-03") and how many days it sums; `at` is its first day. */
  month: z.optional(z.string()),
  days: z.optional(z.int()),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const activityResponseSchema = z
  .object({
    items: z.array(activityItemSchema),
    page: z.int(),
    size: z.int(),
    total: z.int(),
    /** The cursor of the next page (`after`), null on the last page. */
    next: z.optional(z.nullable(z.string())),
  })
  .register(z.globalRegistry, { id: 'Activity' });
export type ActivityResponse = z.infer<typeof activityResponseSchema>;

/**
 * The CSV's layout: `activity` (date, time, type, pool, currency, amount, status, transaction; the
 * default) or `koinly`, Koinly's generic CSV with the USD value at the day's recorded price and a
 * running balance per currency, for tax tools.
 */
export const activityExportQuerySchema = z.object({ format: z.optional(z.enum(['activity', 'koinly'], { error: M.invalidValue })) });

/**
 * All activity as CSV (dates, whole-unit amounts, hashes): the file people keep for taxes. The
 * Koinly layout holds settled movements only, and says what it left out: deposits and withdrawals
 * still in flight (they enter it once settled) and returned withdrawals (no disposal).
 */
export const activityExportResponseSchema = z
  .object({ filename: z.string(), csv: z.string(), rows: z.int(), leftOut: z.optional(z.object({ inFlight: z.int(), returned: z.int() })) })
  .register(z.globalRegistry, { id: 'ActivityExport' });

export const tutorialBodySchema = z.object({ dismissed: z.boolean({ error: M.invalidValue }) }).register(z.globalRegistry, { id: 'TutorialBody' });
export const tutorialResponseSchema = z.object({ dismissed: z.boolean() }).register(z.globalRegistry, { id: 'Tutorial' });

/** A cheap check for changes: the page reloads its figures when the revision moves. */
export const cabinetRevisionResponseSchema = z.object({ revision: z.string() }).register(z.globalRegistry, { id: 'CabinetRevision' });
