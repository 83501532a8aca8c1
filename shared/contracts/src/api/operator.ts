// The operator's contract: the calls of the operator API (its own port), shared by the API, the
// `npm run operator` command line and the console. One schema per request and answer.
import * as z from 'zod/mini';
import { baseUnitsSchema, currencyCodeSchema, poolNameSchema } from './common';
import * as M from './message-texts';

/** Where the operator API answers, on its own port (never through the public proxy). */
export const operatorBasePath = '/api/v1/operator';
/** The header of a sensitive action's fresh TOTP code. */
export const operatorTotpHeader = 'x-operator-totp';
/** The header of the command line's credential: `<operator name>.<key>`. */
export const operatorKeyHeader = 'x-operator-key';
/** An operator session ends after this long without a call. */
export const OPERATOR_IDLE_MINUTES = 15;

export const totpCodeSchema = z.string().check(z.regex(/^\d{6}$/, 'expected the 6-digit code of the authenticator app'));
export const operatorNameSchema = z.string().check(z.regex(/^[a-z][a-z0-9_-]{1,31}$/, 'expected 2 to 32 lower-case letters, digits, - or _, starting with a letter'));
/** An operator's password: long and mixed, since it opens money. */
export const operatorPasswordSchema = z
  .string()
  .check(
    z.minLength(14, 'an operator password has at least 14 characters'),
    z.maxLength(200),
    z.regex(/[a-z]/, 'an operator password has a lower-case letter'),
    z.regex(/[A-Z]/, 'an operator password has an upper-case letter'),
    z.regex(/\d/, 'an operator password has a digit'),
    z.regex(/[^A-Za-z0-9]/, 'an operator password has a symbol'),
  );

export const operatorSignInSchema = z.object({
  name: operatorNameSchema,
  password: z.string().check(z.minLength(1), z.maxLength(200)),
  totp: totpCodeSchema,
});
export type OperatorSignIn = z.infer<typeof operatorSignInSchema>;

export const operatorSessionSchema = z.object({ token: z.string(), name: z.string(), idleMinutes: z.int() });
export type OperatorSession = z.infer<typeof operatorSessionSchema>;
export const operatorMeSchema = z.object({ name: z.string(), id: z.string() });

export const isoDaySchema = z.iso.date({ error: 'expected a calendar date YYYY-MM-DD' });
export const operatorIdParams = z.object({ id: z.coerce.number().check(z.int(), z.positive(), z.lte(Number.MAX_SAFE_INTEGER)) });

export const payoutStatusSchema = z.enum(['requested', 'awaiting_approval', 'waiting_funds', 'sending', 'cancelling', 'paid', 'returned']);
export const operatorWithdrawalsQuery = z.object({
  status: z.optional(payoutStatusSchema),
  currency: z.optional(currencyCodeSchema),
  user: z.optional(z.uuid()),
  minAmount: z.optional(baseUnitsSchema),
  olderThanHours: z.optional(z.coerce.number().check(z.int(), z.nonnegative(), z.lte(24 * 366))),
});
export type OperatorWithdrawalsQuery = z.infer<typeof operatorWithdrawalsQuery>;

/** A withdrawal decision's answer: approvals so far and how many it needs (two above the second threshold). */
export const approvalResultSchema = z.object({
  id: z.int(),
  status: payoutStatusSchema,
  approvals: z.int(),
  needed: z.int(),
});
export type ApprovalResult = z.infer<typeof approvalResultSchema>;

export const rejectBodySchema = z.object({ reason: z.optional(z.string().check(z.maxLength(500))) });
export const apyBodySchema = z.object({ pool: poolNameSchema, apy: z.string().check(z.maxLength(30)), effectiveFrom: z.optional(isoDaySchema) });
export const accrueBodySchema = z.object({ until: isoDaySchema });
export const alertsQuerySchema = z.object({ all: z.optional(z.enum(['true', 'false'])) });

export const claimTargetShape = { account: z.string().check(z.minLength(3), z.maxLength(320)), pool: poolNameSchema };
export const claimQuerySchema = z.object(claimTargetShape);
export const assignBodySchema = z.object({
  ...claimTargetShape,
  /** The EIP-4361 message of `claim-message`, signed by the sending wallet. */
  message: z.string().check(z.minLength(1), z.maxLength(2000)),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/, 'expected a 65-byte signature in hex')),
});

export const payoutRuleBodySchema = z.object({
  currency: currencyCodeSchema,
  fee: z.optional(baseUnitsSchema),
  minimum: z.optional(z.nullable(baseUnitsSchema)),
  approvalThreshold: z.optional(z.nullable(baseUnitsSchema)),
  /** Above it a withdrawal needs two different operators' approvals. */
  dualApprovalThreshold: z.optional(z.nullable(baseUnitsSchema)),
});
const count = z.int().check(z.positive(), z.lte(1_000_000));
const windowHours = z.int().check(z.positive(), z.lte(24 * 366));
/** Withdrawal requests an account may make an hour and a day, and how far back the approval threshold sums. */
const limitsShape = { perHour: z.optional(count), perDay: z.optional(count), windowHours: z.optional(windowHours) };
export const limitsBodySchema = z.object(limitsShape);

export const auditQuerySchema = z.object({
  actor: z.optional(z.string().check(z.maxLength(100))),
  action: z.optional(z.string().check(z.maxLength(100))),
  target: z.optional(z.string().check(z.maxLength(200))),
  limit: z.optional(z.coerce.number().check(z.int(), z.positive(), z.lte(5000))),
});
export const auditEntrySchema = z.object({
  seq: z.int(),
  actor: z.string(),
  action: z.string(),
  target: z.nullable(z.string()),
  before: z.unknown(),
  after: z.unknown(),
  at: z.string(),
  hash: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** The chain check: ok, the rows it read, and the first row that breaks it. */
export const auditVerifySchema = z.object({ ok: z.boolean(), rows: z.int(), brokenAt: z.nullable(z.int()), problem: z.nullable(z.string()) });
export type AuditVerify = z.infer<typeof auditVerifySchema>;

/** A read-only look at one account, by e-mail, wallet address or id; the lookup is audited. */
export const userLookupQuery = z.object({ q: z.string().check(z.minLength(3), z.maxLength(320)) });

const proposalTime = z.iso.datetime({ offset: true });
/** A DAO proposal the operator opens (the console's form and the command line's `dao proposal create`). */
export const newProposalBodySchema = z.object({
  title: z.string().check(z.minLength(1), z.maxLength(200)),
  body: z.string().check(z.maxLength(20_000)),
  choices: z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.minLength(2), z.maxLength(10)),
  startsAt: proposalTime,
  endsAt: proposalTime,
  snapshotAt: proposalTime,
  quorumUsd: z.optional(z.string().check(z.maxLength(40))),
});
export type NewProposalBody = z.infer<typeof newProposalBodySchema>;

/** A refill of the payout float from a pool's deposit address (issue 26): one operator asks, another approves. */
export const floatRefillBodySchema = z.object({ pool: poolNameSchema, currency: currencyCodeSchema, amount: baseUnitsSchema });
export type FloatRefillBody = z.infer<typeof floatRefillBodySchema>;

/**
 * A change of a money setting (issue 26), proposed by one operator and applied only when another
 * approves it with a fresh code: an APY schedule entry of a pool from a future day, a
 * currency's fee, minimum and approval thresholds or the withdrawal limits (applied on approval),
 * or a version of the referral programme from a future day. `null` removes a threshold or closes
 * the currency (minimum); an absent field stays as it is.
 */
// The fraction part is an alternative with nothing, not an optional group: no repetition inside a repetition (linear time, and safe-regex2 agrees).
export const apyFractionSchema = z.string().check(z.regex(/^(0|[1-9]\d{0,5})(\.\d{1,18}|)$/, 'expected a decimal fraction such as 0.05 for 5 %'));
/** The deepest level and the longest vesting a referral version may set (the API checks the rest: the 18 % cap, rising ranks). */
export const REFERRAL_MAX_LEVELS = 10;
export const REFERRAL_MAX_VESTING_DAYS = 365;
const referralBps = z.int().check(z.gte(0), z.lte(10_000));
/** A rank of the referral programme: from a capital attracted (US dollars), a bonus on every level's rate. */
export const referralRankSchema = z.object({ title: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)), capitalUsd: z.string().check(z.maxLength(40)), bonusBps: referralBps });
export type ReferralRank = z.infer<typeof referralRankSchema>;
export const settingChangeBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('apy'), pool: poolNameSchema, apy: apyFractionSchema, effectiveFrom: isoDaySchema }),
  z.object({
    kind: z.literal('payout'),
    currency: currencyCodeSchema,
    fee: z.optional(baseUnitsSchema),
    minimum: z.optional(z.nullable(baseUnitsSchema)),
    approvalThreshold: z.optional(z.nullable(baseUnitsSchema)),
    dualApprovalThreshold: z.optional(z.nullable(baseUnitsSchema)),
  }),
  z.object({ kind: z.literal('limits'), ...limitsShape }),
  z.object({
    kind: z.literal('referral'),
    /** A new version starts on a day not rewarded yet: tomorrow at the earliest, never a past day. */
    effectiveFrom: isoDaySchema,
    /** Each level's rate in basis points, level 1 first. */
    levels: z.optional(z.array(referralBps).check(z.minLength(1), z.maxLength(REFERRAL_MAX_LEVELS))),
    ranks: z.optional(z.array(referralRankSchema).check(z.minLength(1), z.maxLength(100))),
    /** The payout currency of the rewards. */
    currency: z.optional(currencyCodeSchema),
    vestingDays: z.optional(z.int().check(z.gte(0), z.lte(REFERRAL_MAX_VESTING_DAYS))),
  }),
]);
export type SettingChangeBody = z.infer<typeof settingChangeBodySchema>;
/**
 * The fields a change shows, each from a text to a text: amounts in base units, counts and days as
 * whole numbers, `levels` as the levels' basis points separated by spaces, and `ranks` as the JSON
 * of the ranks (`referralRankSchema`, lowest first).
 */
export const settingFieldSchema = z.enum(['apy', 'fee', 'minimum', 'approvalThreshold', 'dualApprovalThreshold', 'perHour', 'perDay', 'windowHours', 'levels', 'ranks', 'currency', 'vestingDays']);
export type SettingField = z.infer<typeof settingFieldSchema>;
/** What a change does: each field from what stands to what it becomes, and from when (null: on approval). */
export const settingPreviewSchema = z.object({
  kind: z.enum(['apy', 'payout', 'limits', 'referral']),
  /** The pool (APY), the currency (payout rule), 'withdrawals' (limits) or the version's first day (referral). */
  target: z.string(),
  effectiveFrom: z.nullable(z.string()),
  changes: z.array(z.object({ field: settingFieldSchema, from: z.nullable(z.string()), to: z.nullable(z.string()) })),
});
export type SettingPreview = z.infer<typeof settingPreviewSchema>;
export const settingChangeStatusSchema = z.enum(['pending', 'applied', 'rejected']);
export const settingChangeSchema = z.extend(settingPreviewSchema, {
  id: z.int(),
  status: settingChangeStatusSchema,
  proposedBy: z.string(),
  decidedBy: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  createdAt: z.string(),
  decidedAt: z.nullable(z.string()),
  /** Pending, but the setting no longer stands as it did when proposed: approval is refused. */
  stale: z.boolean(),
});
export type SettingChange = z.infer<typeof settingChangeSchema>;
export const settingChangesQuery = z.object({ status: z.optional(settingChangeStatusSchema) });
/** A change is rejected with a reason (the proposer may withdraw their own the same way). */
export const settingRejectBodySchema = z.object({ reason: z.string().check(z.trim(), z.minLength(1, 'give a reason'), z.maxLength(500)) });

/**
 * Proof of control of a declared address whose key is offline (the cold address): its snapshot
 * message (`POST /operator/solvency/:id/attest`), signed with EIP-191 by that address's key holder
 * away from every server. The answer is the snapshot as published, its reserves now counting it.
 */
export const solvencyAttestBodySchema = z.object({
  address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, M.solvencyAttestAddress)),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/, M.solvencyAttestSignatureFormat)),
});
export type SolvencyAttestBody = z.infer<typeof solvencyAttestBodySchema>;
