import { asc, desc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { currencies, referralConfig, referralConfigLevels, referralConfigRanks } from '../db/schema';
import { apiMessages as M, formatMessage } from '@app/contracts';
import { badRequest } from '../http/errors';
import { rows } from '../db/rows';
import { audit } from '../db/audit';
import { toE8 } from './network';

/** The programme's promise: "up to 18 %" of a referee's interest, every level and rank bonus included. */
export const MAX_TOTAL_BPS = 1800;
/** The deepest level a configuration may reward (the closure table `referral_tree` keeps 10). */
export const MAX_LEVELS = 10;

export type LevelConfig = { level: number; rewardBps: number };
export type RankConfig = { rank: number; title: string; capitalUsd: string; bonusBps: number };
export type ReferralConfig = { id: number; effectiveFrom: string; currency: string; vestingDays: number; setBy: string; levels: LevelConfig[]; ranks: RankConfig[] };
export type ConfigChange = { levels?: number[]; ranks?: Omit<RankConfig, 'rank'>[]; currency?: string; vestingDays?: number; effectiveFrom?: string };

/** The longest vesting period a version may set, in days (the database checks it too). */
export const MAX_VESTING_DAYS = 365;
/** A version's head as `load` takes it. */
const headOf = (h: typeof referralConfig.$inferSelect) => ({ id: h.id, effectiveFrom: h.effectiveFrom, currency: h.currency, vestingDays: h.vestingDays, setBy: h.setBy });

/**
 * What the referees' interest pays out at most: every level's rate plus the largest rank bonus,
 * since a rank bonus is added to the holder's rate at every level.
 */
export const totalBps = (levels: readonly LevelConfig[], ranks: readonly RankConfig[]) =>
  levels.reduce((n, l) => n + l.rewardBps, 0) + levels.length * Math.max(0, ...ranks.map((r) => r.bonusBps));

const USD = /^(0|[1-9]\d{0,20})(\.\d{1,8})?$/;
/** Refuses a configuration the programme cannot honour; the message says what to change. */
export function validateConfig(levels: readonly LevelConfig[], ranks: readonly RankConfig[]) {
  const refuse = (field: string, template: string, params: Record<string, string | number>) => {
    const msg = formatMessage(template, params);
    return badRequest(msg, 'BAD_REFERRAL_CONFIG', { [field]: msg });
  };
  if (levels.length < 1 || levels.length > MAX_LEVELS) throw refuse('levels', M.referralLevelsCount, { max: MAX_LEVELS });
  for (const l of levels) {
    if (!Number.isInteger(l.rewardBps) || l.rewardBps < 0 || l.rewardBps > MAX_TOTAL_BPS) throw refuse('levels', M.referralLevelRate, { level: l.level, max: MAX_TOTAL_BPS });
  }
  if (ranks.length < 1 || ranks.length > 100) throw refuse('ranks', M.referralRanksCount, { max: 100 });
  let previous = -1n;
  for (const r of ranks) {
    if (!r.title || r.title.length > 40) throw refuse('ranks', M.referralRankTitle, { rank: r.rank, max: 40 });
    if (!USD.test(r.capitalUsd)) throw refuse('ranks', M.referralRankCapital, { rank: r.rank });
    if (!Number.isInteger(r.bonusBps) || r.bonusBps < 0 || r.bonusBps > MAX_TOTAL_BPS) throw refuse('ranks', M.referralRankBonus, { rank: r.rank, max: MAX_TOTAL_BPS });
    const capital = toE8(r.capitalUsd);
    if (capital <= previous) throw refuse('ranks', M.referralRankOrder, { rank: r.rank });
    previous = capital;
  }
  const total = totalBps(levels, ranks);
  if (total > MAX_TOTAL_BPS) {
    throw refuse('levels', M.referralTotalOverCap, { total, max: MAX_TOTAL_BPS });
  }
}

async function load(db: Pick<Db, 'select'>, id: number, head: Omit<ReferralConfig, 'levels' | 'ranks'>): Promise<ReferralConfig> {
  const levels = await db.select().from(referralConfigLevels).where(eq(referralConfigLevels.configId, id)).orderBy(asc(referralConfigLevels.level));
  const ranks = await db.select().from(referralConfigRanks).where(eq(referralConfigRanks.configId, id)).orderBy(asc(referralConfigRanks.rank));
  return {
    ...head,
    levels: levels.map((l) => ({ level: l.level, rewardBps: l.rewardBps })),
    ranks: ranks.map((r) => ({ rank: r.rank, title: r.title, capitalUsd: plainUsd(r.capitalUsd), bonusBps: r.bonusBps })),
  };
}

/** numeric(38,8) prints '10000.00000000': shown as '10000'. */
export const plainUsd = (v: string) => (v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v);

/** The version in force on a day: the latest effective on or before it (the later-made one on a tie). */
export async function configOn(db: Pick<Db, 'select'>, day: string): Promise<ReferralConfig> {
  const [head] = await db
    .select()
    .from(referralConfig)
    .where(lte(referralConfig.effectiveFrom, day))
    .orderBy(desc(referralConfig.effectiveFrom), desc(referralConfig.id))
    .limit(1);
  if (!head) throw new Error(`no referral configuration in force on ${day}`);
  return load(db, head.id, headOf(head));
}

export async function configHistory(db: Db): Promise<ReferralConfig[]> {
  const heads = await db.select().from(referralConfig).orderBy(desc(referralConfig.effectiveFrom), desc(referralConfig.id)).limit(50);
  return Promise.all(heads.map((h) => load(db, h.id, headOf(h))));
}

/**
 * The version that applies to the next rewards: on today, or on the day after the last rewarded day
 * when the days were accrued ahead of the calendar (the operator's catch-up), so the page shows the
 * rates the next rewards will be computed with.
 */
export async function configInForce(db: Db, today: string): Promise<ReferralConfig> {
  const [last] = await rows<{ next: string | null }>(db, sql`select (max(day) + 1)::text as next from referral_reward_days`);
  return configOn(db, last?.next && last.next > today ? last.next : today);
}

/** The last day whose rewards are computed (null before the first): a version starts after it. */
export async function lastRewardedDay(db: Pick<Db, 'execute'>): Promise<string | null> {
  const [last] = await rows<{ day: string | null }>(db, sql`select max(day)::text as day from referral_reward_days`);
  return last?.day ?? null;
}

/** A version's parts: those of `change` given, the others as in `base`; refused when the programme cannot honour it. */
export async function versionOf(db: Pick<Db, 'select'>, base: Omit<ReferralConfig, 'id' | 'effectiveFrom' | 'setBy'> | null, change: ConfigChange) {
  const levels = change.levels ? change.levels.map((rewardBps, i) => ({ level: i + 1, rewardBps })) : (base?.levels ?? []);
  const ranks = change.ranks ? change.ranks.map((r, i) => ({ ...r, rank: i + 1 })) : (base?.ranks ?? []);
  const currency = change.currency ?? base?.currency ?? 'USDT';
  const vestingDays = change.vestingDays ?? base?.vestingDays ?? 30;
  validateConfig(levels, ranks);
  if (!Number.isInteger(vestingDays) || vestingDays < 0 || vestingDays > MAX_VESTING_DAYS) {
    const msg = formatMessage(M.referralVestingDays, { max: MAX_VESTING_DAYS });
    throw badRequest(msg, 'BAD_REFERRAL_CONFIG', { vestingDays: msg });
  }
  const [known] = await db.select({ code: currencies.code }).from(currencies).where(eq(currencies.code, currency));
  if (!known) {
    const msg = formatMessage(M.referralUnknownCurrency, { currency });
    throw badRequest(msg, 'BAD_REFERRAL_CONFIG', { currency: msg });
  }
  return { levels, ranks, currency, vestingDays };
}

export type ReferralVersion = Awaited<ReturnType<typeof versionOf>>;

/**
 * Stores a version from `effectiveFrom` with its audit entry, in the caller's transaction (an
 * approved change applies in its own; `note` names it). The caller checked the day.
 */
export async function writeConfig(tx: Pick<Db, 'insert'>, actor: string, v: ReferralVersion, effectiveFrom: string, before: ReferralConfig | null, note?: Record<string, unknown>): Promise<ReferralConfig> {
  const [head] = await tx.insert(referralConfig).values({ effectiveFrom, currency: v.currency, vestingDays: v.vestingDays, setBy: actor }).returning();
  if (!head) throw new Error('referral configuration not stored');
  await tx.insert(referralConfigLevels).values(v.levels.map((l) => ({ configId: head.id, ...l })));
  await tx.insert(referralConfigRanks).values(v.ranks.map((r) => ({ configId: head.id, ...r })));
  const after = { id: head.id, effectiveFrom, setBy: actor, ...v };
  await audit(tx, { actor, action: 'referral.config', target: effectiveFrom, before, after: { ...after, ...note } });
  return after;
}

/**
 * Adds a configuration version from a day on: the version in force that day (before the first
 * day of any, the latest) with the given parts replaced.
 * Days already rewarded keep what they were rewarded with, so it starts after the last of them.
 * The operator's one-step call (the local chain only); elsewhere a version is a setting change
 * another operator approves (operator/setting-changes.ts).
 */
export async function setConfig(db: Db, actor: string, change: ConfigChange, today: string): Promise<ReferralConfig> {
  const effectiveFrom = change.effectiveFrom ?? today;
  const last = await lastRewardedDay(db);
  if (last && effectiveFrom <= last) {
    const msg = formatMessage(M.referralConfigInThePast, { day: last });
    throw badRequest(msg, 'CONFIG_IN_THE_PAST', { effectiveFrom: msg });
  }
  // The parts not given are those in force on the new version's first day: a version approved for a later day does not leak into it.
  const [base] = await db
    .select()
    .from(referralConfig)
    .orderBy(sql`${referralConfig.effectiveFrom} <= ${effectiveFrom} desc`, desc(referralConfig.effectiveFrom), desc(referralConfig.id))
    .limit(1);
  const before = base ? await load(db, base.id, headOf(base)) : null;
  const version = await versionOf(db, before, change);
  return db.transaction((tx) => writeConfig(tx, actor, version, effectiveFrom, before));
}

/** The rank a capital reaches (0 when below the first rank's threshold). */
export function rankFor(ranks: readonly RankConfig[], capitalUsd: string): RankConfig | undefined {
  const capital = toE8(capitalUsd);
  return ranks.filter((r) => toE8(r.capitalUsd) <= capital).at(-1);
}
