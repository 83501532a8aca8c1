// Changes of the money settings with four eyes (issue 26): one operator proposes (a pool's APY from
// a future day, a currency's fee, minimum and approval thresholds, the withdrawal limits, or a
// version of the referral programme from a future day) and sees what it changes; another approves
// with a fresh code, and the change is applied in the approval's transaction.
// The proposer never approves their own; a decided change is not decided again; a change whose
// setting no longer stands as it did when proposed is refused as stale (its preview would lie).
import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { apiMessages as M, type SettingChange, type SettingChangeBody, type SettingField, type SettingPreview } from '@app/contracts';
import type { Db } from '../db/client';
import { audit } from '../db/audit';
import { operators, settingChanges } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import { apyEntryOn, trimApy, utcDay, writeApy } from '../interest';
import { changedRule, payoutRules, ruleFor, withdrawalLimits, writePayoutRule, writeWithdrawalLimits, type Approver, type PayoutRule } from '../payouts';
import { configOn, lastRewardedDay, plainUsd, versionOf, writeConfig, type ReferralConfig, type ReferralVersion } from '../referral';

type Tx = Pick<Db, 'select' | 'insert' | 'execute'>;
type Setting = Record<string, string | null>;
type Kind = SettingPreview['kind'];

const RULE_FIELDS = ['fee', 'minimum', 'approvalThreshold', 'dualApprovalThreshold'] as const satisfies readonly SettingField[];
const LIMIT_FIELDS = ['perHour', 'perDay', 'windowHours'] as const satisfies readonly SettingField[];
const REFERRAL_FIELDS = ['levels', 'ranks', 'currency', 'vestingDays'] as const satisfies readonly SettingField[];
/** The fields each kind of change shows. */
const FIELDS: Record<Kind, readonly SettingField[]> = { apy: ['apy'], payout: RULE_FIELDS, limits: LIMIT_FIELDS, referral: REFERRAL_FIELDS };
/** The target of the changes that have one setting only. */
const LIMITS_TARGET = 'withdrawals';
const REFERRAL_TARGET = 'referral';

/** A referral version as a setting: the levels' basis points separated by spaces, the ranks as JSON (the contract's `settingFieldSchema`). */
const referralSetting = (v: Omit<ReferralVersion, 'levels' | 'ranks'> & Pick<ReferralConfig, 'levels' | 'ranks'>) => ({
  levels: v.levels.map((l) => l.rewardBps).join(' '),
  ranks: JSON.stringify(v.ranks.map((r) => ({ title: r.title, capitalUsd: plainUsd(r.capitalUsd), bonusBps: r.bonusBps }))),
  currency: v.currency,
  vestingDays: String(v.vestingDays),
});
/** A referral setting back as a version: levels and ranks numbered from 1. */
const referralVersion = (a: Setting): ReferralVersion => ({
  levels: a.levels!.split(' ').map((bps, i) => ({ level: i + 1, rewardBps: Number(bps) })),
  ranks: (JSON.parse(a.ranks!) as Omit<ReferralConfig['ranks'][number], 'rank'>[]).map((r, i) => ({ ...r, rank: i + 1 })),
  currency: a.currency!,
  vestingDays: Number(a.vestingDays),
});

/** A day that is not yet rewarded and not begun: a referral version (or an APY) starting on it changes no past figure. */
async function stillFuture(tx: Tx, kind: Kind, day: string) {
  if (day <= utcDay(new Date())) return false;
  if (kind !== 'referral') return true;
  const last = await lastRewardedDay(tx);
  return !last || day > last;
}

/**
 * The setting a change replaces, as it stands now: for an APY, the schedule's entry in force on the
 * change's day (its rate and the day it started, so a new entry in between shows); for a currency,
 * its whole rule; the withdrawal limits; for the referral programme, the version in force on the
 * change's day (and its number, so a version added in between shows). `lock` holds what is read
 * until the transaction ends.
 */
async function standing(tx: Tx, kind: Kind, target: string, day: string | null, lock = false): Promise<Setting> {
  if (kind === 'apy') {
    if (lock) await tx.execute(sql`select 1 from pools where name = ${target} for update`);
    const entry = await apyEntryOn(tx, target, day!);
    return { apy: entry?.apy ?? null, since: entry?.effectiveFrom ?? null };
  }
  if (kind === 'limits') {
    const limits = await withdrawalLimits(tx, lock);
    return Object.fromEntries(LIMIT_FIELDS.map((f) => [f, String(limits[f])]));
  }
  if (kind === 'referral') {
    // Versions are rows added, none locked: the key is held instead, so two approvals cannot pass each other.
    if (lock) await tx.execute(sql`select pg_advisory_xact_lock(hashtext('referral_config'))`);
    const v = await configOn(tx, day!);
    return { ...referralSetting(v), version: String(v.id) };
  }
  return { ...ruleFor(await payoutRules(tx, lock), target) };
}

const sameSetting = (a: Setting, b: Setting) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a[k] ?? null) === (b[k] ?? null));
};

const changesOf = (kind: Kind, before: Setting, after: Setting): SettingPreview['changes'] =>
  FIELDS[kind].filter((f) => (before[f] ?? null) !== (after[f] ?? null)).map((field) => ({ field, from: before[field] ?? null, to: after[field] ?? null }));

type Planned = SettingPreview & { before: Setting; after: Setting };

/**
 * What a proposal would change, checked: an APY or a referral version from a future day (for the
 * referral programme also after the last rewarded day), a version the programme can honour, and
 * some field that differs.
 */
export async function previewChange(db: Tx, body: SettingChangeBody): Promise<Planned> {
  if (body.kind === 'apy') {
    if (!(await stillFuture(db, 'apy', body.effectiveFrom))) throw badRequest(M.settingChangeNotFuture, 'APY_NOT_FUTURE', { effectiveFrom: M.settingChangeNotFuture });
    const before = await standing(db, 'apy', body.pool, body.effectiveFrom);
    const after = { apy: trimApy(body.apy), since: body.effectiveFrom };
    return plan('apy', body.pool, body.effectiveFrom, before, after);
  }
  if (body.kind === 'limits') {
    const { kind, ...given } = body;
    const before = await standing(db, kind, LIMITS_TARGET, null);
    const after = { ...before, ...Object.fromEntries(Object.entries(given).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))) };
    return plan(kind, LIMITS_TARGET, null, before, after);
  }
  if (body.kind === 'referral') {
    const { kind, effectiveFrom, ...change } = body;
    if (!(await stillFuture(db, kind, effectiveFrom))) throw badRequest(M.referralVersionNotFuture, 'REFERRAL_NOT_FUTURE', { effectiveFrom: M.referralVersionNotFuture });
    const before = await standing(db, kind, REFERRAL_TARGET, effectiveFrom);
    const version = await versionOf(db, referralVersion(before), change);
    return plan(kind, REFERRAL_TARGET, effectiveFrom, before, { ...referralSetting(version), version: before.version! });
  }
  const { kind, currency, ...given } = body;
  const before = await standing(db, kind, currency, null);
  const change = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  return plan(kind, currency, null, before, changedRule(before as PayoutRule, change));
}

function plan(kind: Kind, target: string, effectiveFrom: string | null, before: Setting, after: Setting): Planned {
  const changes = changesOf(kind, before, after);
  if (!changes.length) throw badRequest(M.settingChangeNothing, 'NOTHING_TO_CHANGE');
  return { kind, target, effectiveFrom, changes, before, after };
}

const proposer = alias(operators, 'proposer');
const decider = alias(operators, 'decider');

/** The changes, newest first (pending only, or decided ones, by `status`); each pending one says whether it went stale. */
export async function listChanges(db: Db, status?: SettingChange['status'], id?: number): Promise<SettingChange[]> {
  const found = await db
    .select({ c: settingChanges, proposedBy: proposer.name, decidedBy: decider.name })
    .from(settingChanges)
    .innerJoin(proposer, eq(proposer.id, settingChanges.proposedBy))
    .leftJoin(decider, eq(decider.id, settingChanges.decidedBy))
    .where(and(status ? eq(settingChanges.status, status) : undefined, id ? eq(settingChanges.id, id) : undefined))
    .orderBy(desc(settingChanges.id))
    .limit(200);
  return Promise.all(
    found.map(async ({ c, proposedBy, decidedBy }) => {
      const kind = c.kind as Kind;
      const before = c.before as Setting;
      const stale = c.status === 'pending' && !sameSetting(await standing(db, kind, c.target, c.effectiveFrom), before);
      return {
        id: c.id,
        kind,
        target: c.target,
        effectiveFrom: c.effectiveFrom,
        changes: changesOf(kind, before, c.after as Setting),
        status: c.status as SettingChange['status'],
        proposedBy,
        decidedBy,
        reason: c.reason,
        createdAt: c.createdAt.toISOString(),
        decidedAt: c.decidedAt?.toISOString() ?? null,
        stale,
      };
    }),
  );
}

async function one(db: Db, id: number): Promise<SettingChange> {
  const [c] = await listChanges(db, undefined, id);
  if (!c) throw new ApiError(404, `no change ${id}`, 'NOT_FOUND');
  return c;
}

const auditTarget = (id: number) => `setting-change:${id}`;

/** Records a proposal with the setting as it stands, for a second operator to decide. */
export async function proposeChange(db: Db, who: Approver, body: SettingChangeBody): Promise<SettingChange> {
  const id = await db.transaction(async (tx) => {
    const p = await previewChange(tx, body);
    const [row] = await tx
      .insert(settingChanges)
      .values({ kind: p.kind, target: p.target, effectiveFrom: p.effectiveFrom, before: p.before, after: p.after, proposedBy: who.id })
      .returning({ id: settingChanges.id });
    await audit(tx, { actor: who.actor, action: 'settings.propose', target: auditTarget(row!.id), before: null, after: { kind: p.kind, target: p.target, effectiveFrom: p.effectiveFrom, changes: p.changes } });
    return row!.id;
  });
  return one(db, id);
}

/** A change under lock, still pending; else why not. */
async function pendingChange(tx: Tx, id: number) {
  const [c] = await tx.select().from(settingChanges).where(eq(settingChanges.id, id)).for('update');
  if (!c) throw new ApiError(404, `no change ${id}`, 'NOT_FOUND');
  if (c.status === 'applied') throw new ApiError(409, M.settingChangeApplied, 'CHANGE_DECIDED');
  if (c.status === 'rejected') throw new ApiError(409, M.settingChangeRejected, 'CHANGE_DECIDED');
  return c;
}

/**
 * A second operator's approval: the change is applied in the same transaction, the change row
 * locked, so a second approval (or two at once) finds it applied and changes nothing.
 */
export async function approveChange(db: Db, who: Approver, id: number): Promise<SettingChange> {
  await db.transaction(async (tx) => {
    const c = await pendingChange(tx, id);
    if (c.proposedBy === who.id) throw new ApiError(403, M.settingChangeOwn, 'OWN_CHANGE');
    const before = c.before as Setting;
    const after = c.after as Setting;
    if (!sameSetting(await standing(tx, c.kind as Kind, c.target, c.effectiveFrom, true), before)) throw new ApiError(409, M.settingChangeStale, 'STALE_CHANGE');
    // The day must still be ahead: a change approved once its day began (or was rewarded) would rewrite it.
    if (c.effectiveFrom && !(await stillFuture(tx, c.kind as Kind, c.effectiveFrom))) throw new ApiError(409, M.settingChangeTooLate, 'CHANGE_TOO_LATE');
    const note = { change: c.id };
    if (c.kind === 'apy') await writeApy(tx, who.actor, c.target, after.apy!, c.effectiveFrom!, note);
    else if (c.kind === 'limits') await writeWithdrawalLimits(tx, who.actor, Object.fromEntries(LIMIT_FIELDS.map((f) => [f, Number(after[f])])), note);
    else if (c.kind === 'referral') await writeConfig(tx, who.actor, referralVersion(after), c.effectiveFrom!, await configOn(tx, c.effectiveFrom!), note);
    else await writePayoutRule(tx, who.actor, c.target, Object.fromEntries(RULE_FIELDS.map((f) => [f, after[f]])) as PayoutRule, note);
    await tx.update(settingChanges).set({ status: 'applied', decidedBy: who.id, decidedAt: new Date() }).where(eq(settingChanges.id, c.id));
    await audit(tx, { actor: who.actor, action: 'settings.approve', target: auditTarget(c.id), before: { status: 'pending' }, after: { status: 'applied', kind: c.kind, target: c.target, effectiveFrom: c.effectiveFrom, changes: changesOf(c.kind as Kind, before, after) } });
  });
  return one(db, id);
}

/** Rejects a pending change with a reason: by another operator, or withdrawn by its proposer. */
export async function rejectChange(db: Db, who: Approver, id: number, reason: string): Promise<SettingChange> {
  await db.transaction(async (tx) => {
    const c = await pendingChange(tx, id);
    await tx.update(settingChanges).set({ status: 'rejected', decidedBy: who.id, decidedAt: new Date(), reason }).where(eq(settingChanges.id, c.id));
    await audit(tx, { actor: who.actor, action: 'settings.reject', target: auditTarget(c.id), before: { status: 'pending' }, after: { status: 'rejected', reason } });
  });
  return one(db, id);
}
