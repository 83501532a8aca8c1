import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { systemSettings } from '../db/schema';
import { audit } from '../db/audit';

/**
 * Per currency, in base units: the withdrawal fee, the smallest withdrawal, and the amount above
 * which an operator must approve (compared with the rolling sum of the account's withdrawals, and
 * of the destination's: `limits.ts`).
 *
 * `minimum: null` closes the currency's withdrawals, and a currency with no rule has no minimum:
 * it is refused, not given a default. The minimum exists so that the payout's gas (paid by the
 * house) is worth paying; a default in base units cannot be right for every currency (their
 * decimals and prices differ by many orders of magnitude), and one too low is the dust hole itself.
 * The operator opens a currency with `payouts set <currency> --minimum …`.
 */
export type PayoutRule = {
  fee: string;
  minimum: string | null;
  approvalThreshold: string | null;
  /** Above it (one withdrawal's amount) two different operators must approve: four eyes. */
  dualApprovalThreshold: string | null;
};
export type PayoutRules = Record<string, PayoutRule>;

/** The account's request limits and the approval threshold's window. */
export type WithdrawalLimits = {
  /** Withdrawal requests an account may make in the last hour. */
  perHour: number;
  /** … and in the last 24 hours. */
  perDay: number;
  /** How far back the approval threshold sums the withdrawals. */
  windowHours: number;
};

const KEY = 'payouts';
const LIMITS_KEY = 'withdrawalLimits';
/** A currency without a rule: no fee, no approval, and closed (no minimum). */
const NONE: PayoutRule = { fee: '0', minimum: null, approvalThreshold: null, dualApprovalThreshold: null };
/** Until the operator says otherwise: a few requests an hour, a handful a day, approval over a day's sum. */
export const DEFAULT_LIMITS: WithdrawalLimits = { perHour: 5, perDay: 10, windowHours: 24 };

/** Every currency's rule; `lock` holds the row until the caller's transaction ends. */
export async function payoutRules(db: Pick<Db, 'select'>, lock = false): Promise<PayoutRules> {
  const read = db.select().from(systemSettings).where(eq(systemSettings.key, KEY));
  const [row] = lock ? await read.for('update') : await read;
  return (row?.value as PayoutRules | undefined) ?? {};
}

/** Approvals a withdrawal of `amount` needs once it awaits approval: two above the second threshold. */
export const approvalsNeeded = (rule: PayoutRule, amount: bigint) =>
  rule.dualApprovalThreshold !== null && amount > BigInt(rule.dualApprovalThreshold) ? 2 : 1;

/** A stored rule, or none; a rule stored before minimums existed has none, so it stays closed. */
export const ruleFor = (rules: PayoutRules, currency: string): PayoutRule => ({ ...NONE, ...rules[currency] });

export type PayoutRuleChange = { fee?: string; minimum?: string | null; approvalThreshold?: string | null; dualApprovalThreshold?: string | null };

/** The rule a change makes of `before`: each field given replaces it, the others stay. */
export const changedRule = (before: PayoutRule, change: PayoutRuleChange): PayoutRule => ({
  fee: change.fee ?? before.fee,
  minimum: change.minimum === undefined ? before.minimum : change.minimum,
  approvalThreshold: change.approvalThreshold === undefined ? before.approvalThreshold : change.approvalThreshold,
  dualApprovalThreshold: change.dualApprovalThreshold === undefined ? before.dualApprovalThreshold : change.dualApprovalThreshold,
});

export async function setPayoutRule(db: Db, actor: string, currency: string, change: PayoutRuleChange) {
  return db.transaction((tx) => writePayoutRule(tx, actor, currency, change));
}

/**
 * setPayoutRule's write, with its audit entry, in the caller's transaction (an approved change
 * applies in its own). The settings row is locked, so two writers never lose each other's currency.
 */
export async function writePayoutRule(tx: Pick<Db, 'select' | 'insert'>, actor: string, currency: string, change: PayoutRuleChange, note?: Record<string, unknown>) {
  const rules = await payoutRules(tx, true);
  const before = ruleFor(rules, currency);
  const after = changedRule(before, change);
  const value = { ...rules, [currency]: after };
  await tx.insert(systemSettings).values({ key: KEY, value }).onConflictDoUpdate({ target: systemSettings.key, set: { value } });
  await audit(tx, { actor, action: 'payouts.set', target: currency, before, after: { ...after, ...note } });
  return { currency, ...after };
}

/** The limits; `lock` holds them until the caller's transaction ends (two writers never pass each other). */
export async function withdrawalLimits(db: Pick<Db, 'select' | 'execute'>, lock = false): Promise<WithdrawalLimits> {
  // The row may not exist yet (the defaults stand): a transaction-scoped advisory lock holds the key itself.
  if (lock) await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`system_settings:${LIMITS_KEY}`}))`);
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.key, LIMITS_KEY));
  return { ...DEFAULT_LIMITS, ...(row?.value as Partial<WithdrawalLimits> | undefined) };
}

export async function setWithdrawalLimits(db: Db, actor: string, change: Partial<WithdrawalLimits>) {
  return db.transaction((tx) => writeWithdrawalLimits(tx, actor, change));
}

/** setWithdrawalLimits' write, with its audit entry, in the caller's transaction (an approved change applies in its own). */
export async function writeWithdrawalLimits(tx: Pick<Db, 'select' | 'insert' | 'execute'>, actor: string, change: Partial<WithdrawalLimits>, note?: Record<string, unknown>) {
  const before = await withdrawalLimits(tx, true);
  const after: WithdrawalLimits = { ...before, ...change };
  await tx.insert(systemSettings).values({ key: LIMITS_KEY, value: after }).onConflictDoUpdate({ target: systemSettings.key, set: { value: after } });
  await audit(tx, { actor, action: 'payouts.limits', target: 'withdrawals', before, after: { ...after, ...note } });
  return after;
}

/** What the account and the destination already withdrew in the currency within the window. */
export type RecentSums = { account: bigint; destination: bigint };

/**
 * Fee, amount received and approval for a withdrawal of `amount`: approval when the window's sum
 * of the account's withdrawals, or of those to the same address, would pass the threshold with it.
 */
export function quote(rule: PayoutRule, amount: bigint, recent: RecentSums = { account: 0n, destination: 0n }) {
  const fee = BigInt(rule.fee);
  const threshold = rule.approvalThreshold === null ? null : BigInt(rule.approvalThreshold);
  return {
    fee,
    receive: amount > fee ? amount - fee : 0n,
    approvalRequired: threshold !== null && (recent.account + amount > threshold || recent.destination + amount > threshold),
  };
}

/** What the withdraw form shows and checks; currencies without a minimum are closed, so not listed. */
export async function withdrawRules(db: Db) {
  const [rules, limits] = await Promise.all([payoutRules(db), withdrawalLimits(db)]);
  const open = Object.keys(rules).flatMap((currency) => {
    const r = ruleFor(rules, currency);
    return r.minimum === null ? [] : [{ currency, minimum: r.minimum, fee: r.fee }];
  });
  return { currencies: open, perHour: limits.perHour, perDay: limits.perDay };
}
