import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { systemSettings } from '../db/schema';
import { audit } from '../db/audit';

/** Per currency: the withdrawal fee and the amount above which an operator must approve (base units). */
export type PayoutRule = { fee: string; approvalThreshold: string | null };
export type PayoutRules = Record<string, PayoutRule>;

const KEY = 'payouts';
/** The local stack's default: no fee, no approval needed. */
const NONE: PayoutRule = { fee: '0', approvalThreshold: null };

export async function payoutRules(db: Pick<Db, 'select'>): Promise<PayoutRules> {
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.key, KEY));
  return (row?.value as PayoutRules | undefined) ?? {};
}

export const ruleFor = (rules: PayoutRules, currency: string): PayoutRule => rules[currency] ?? NONE;

export async function setPayoutRule(db: Db, actor: string, currency: string, change: { fee?: string; approvalThreshold?: string | null }) {
  return db.transaction(async (tx) => {
    const rules = await payoutRules(tx);
    const before = ruleFor(rules, currency);
    const after: PayoutRule = {
      fee: change.fee ?? before.fee,
      approvalThreshold: change.approvalThreshold === undefined ? before.approvalThreshold : change.approvalThreshold,
    };
    const value = { ...rules, [currency]: after };
    await tx.insert(systemSettings).values({ key: KEY, value }).onConflictDoUpdate({ target: systemSettings.key, set: { value } });
    await audit(tx, { actor, action: 'payouts.set', target: currency, before, after });
    return { currency, ...after };
  });
}

/** Fee and approval for a withdrawal of `amount`. */
export function quote(rule: PayoutRule, amount: bigint) {
  const fee = BigInt(rule.fee);
  return {
    fee,
    receive: amount > fee ? amount - fee : 0n,
    approvalRequired: rule.approvalThreshold !== null && amount > BigInt(rule.approvalThreshold),
  };
}
