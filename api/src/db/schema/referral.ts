import { bigint, bigserial, boolean, date, index, integer, numeric, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { currencies, pools } from './catalog';
import { created, baseUnits, ts, usd } from './columns';

/** Every ancestor of a user up to level 10, written once with the user (migration 0009's trigger). */
export const referralTree = pgTable(
  'referral_tree',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    level: integer('level').notNull(),
    ancestorId: uuid('ancestor_id')
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.level] }), index('referral_tree_ancestor_idx').on(t.ancestorId, t.level, t.userId)],
);

/** A version of the programme's configuration; day D uses the latest version effective on or before D. Never updated. */
export const referralConfig = pgTable('referral_config', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
  /** The payout currency of every reward. */
  currency: text('currency').notNull(),
  /** Whole days after the day that earned it before a reward can be claimed, if the referee's funds stayed (0018). */
  vestingDays: integer('vesting_days').notNull().default(30),
  setBy: text('set_by').notNull(),
  createdAt: created(),
});

export const referralConfigLevels = pgTable(
  'referral_config_levels',
  {
    configId: bigint('config_id', { mode: 'number' })
      .notNull()
      .references(() => referralConfig.id),
    level: integer('level').notNull(),
    rewardBps: integer('reward_bps').notNull(),
  },
  (t) => [primaryKey({ columns: [t.configId, t.level] })],
);

export const referralConfigRanks = pgTable(
  'referral_config_ranks',
  {
    configId: bigint('config_id', { mode: 'number' })
      .notNull()
      .references(() => referralConfig.id),
    rank: integer('rank').notNull(),
    title: text('title').notNull(),
    capitalUsd: usd('capital_usd').notNull(),
    bonusBps: integer('bonus_bps').notNull(),
  },
  (t) => [primaryKey({ columns: [t.configId, t.rank] })],
);

/** The USD prices a day's rewards were converted with, taken once per day. */
export const referralPrices = pgTable(
  'referral_prices',
  {
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    usd: usd('usd').notNull(),
    source: text('source').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.day, t.currency] })],
);

/** The marker of a pool's day whose interest has been rewarded. */
export const referralRewardDays = pgTable(
  'referral_reward_days',
  {
    pool: text('pool')
      .notNull()
      .references(() => pools.name),
    day: date('day', { mode: 'string' }).notNull(),
    configId: bigint('config_id', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    rewards: integer('rewards').notNull(),
    total: baseUnits('total').notNull(),
    transactionId: bigint('transaction_id', { mode: 'number' }),
    /** The last day the referees' funds must stay for the day's rewards to vest (0035). */
    vestsOn: date('vests_on', { mode: 'string' }),
    /** Whether the day's vesting is decided. */
    decided: boolean('decided').notNull().default(false),
    /** The day's earners who gave no reward (no proved e-mail, or an address shared with an ancestor), left out of a recomputation. */
    withheld: uuid('withheld').array(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.day] })],
);

/**
 * How a pool's day of rewards is split between database sessions (0043), fixed by whoever starts
 * the day first: part k holds the referees whose user id is in [bounds[k-1], bounds[k]).
 */
export const referralDayParts = pgTable(
  'referral_day_parts',
  {
    pool: text('pool').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    bounds: uuid('bounds').array().notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ name: 'referral_day_parts_pk', columns: [t.pool, t.day] })],
);

/** A part of a pool's day rewarded (0043), in the part's own transaction; the day's marker is written from these when all are done. */
export const referralRewardParts = pgTable(
  'referral_reward_parts',
  {
    pool: text('pool').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    part: smallint('part').notNull(),
    rewards: integer('rewards').notNull(),
    total: baseUnits('total').notNull(),
    withheld: uuid('withheld').array(),
    /** The part's ledger transaction (none when it paid nothing). */
    transactionId: bigint('transaction_id', { mode: 'number' }),
    createdAt: created(),
  },
  (t) => [primaryKey({ name: 'referral_reward_parts_pk', columns: [t.pool, t.day, t.part] })],
);

/**
 * A referrer's rewards of one part of a pool's day (0046), from the part's commit until the day's
 * marker: the day's rows are written from these once, with the marker. Owed meanwhile, so counted
 * wherever the day rows are.
 */
export const referralPartSums = pgTable(
  'referral_part_sums',
  {
    userId: uuid('user_id').notNull(),
    pool: text('pool').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    part: smallint('part').notNull(),
    currency: text('currency').notNull(),
    bonusBps: smallint('bonus_bps').notNull(),
    amount: baseUnits('amount').notNull(),
  },
  (t) => [primaryKey({ name: 'referral_part_sums_pk', columns: [t.userId, t.pool, t.day, t.part] })],
);

/**
 * A referrer's rewards of one day (0035): one row per (referrer, day) whatever the size of the
 * downline, in the day's payout currency. What each member gave is in `referralMemberRewards`;
 * how the day was computed is in its pool days' markers and ledger transactions. Its user and
 * claim are checked once per statement by a trigger (0014), not per row by foreign keys.
 */
export const referralDayRewards = pgTable(
  'referral_day_rewards',
  {
    userId: uuid('user_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    /** The rank bonus the day's rewards used (added to each level's rate). */
    bonusBps: smallint('bonus_bps').notNull().default(0),
    /** vesting (until the day's period has closed), earned (available), in_payment, paid, or forfeited (all of it back to the house). */
    status: text('status').notNull(),
    /** What is still the referrer's, in base units. */
    amount: baseUnits('amount').notNull(),
    /** What went back to the house when the day vested (members whose funds left, or who share an address with an ancestor). */
    forfeited: baseUnits('forfeited').notNull().default('0'),
    /** The claim (a withdrawal of kind 'referral') paying it. */
    withdrawalId: bigint('withdrawal_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ name: 'referral_day_rewards_pk', columns: [t.userId, t.day] }),
    index('referral_day_rewards_claimable_idx').on(t.userId, t.currency, t.status),
  ],
);

/**
 * What a member gave each of their referrers in a month, forfeits taken off (0035): `amounts[L]` is
 * the share of the member's ancestor at level L (`referralTree`). The affiliates page's per-member figure.
 */
export const referralMemberRewards = pgTable(
  'referral_member_rewards',
  {
    memberId: uuid('member_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    amounts: numeric('amounts', { precision: 78, scale: 0 }).array().notNull(),
  },
  (t) => [primaryKey({ name: 'referral_member_rewards_pk', columns: [t.memberId, t.month, t.currency] })],
);

/** Members per referrer and level (0022), moved with the tree. */
export const referralMembers = pgTable(
  'referral_members',
  {
    ancestorId: uuid('ancestor_id').notNull(),
    level: integer('level').notNull(),
    members: bigint('members', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'referral_members_pk', columns: [t.ancestorId, t.level] })],
);

/** What a referrer's members hold per level and currency (0022), signed like the balances, moved with every change of a member's position. */
export const referralCapital = pgTable(
  'referral_capital',
  {
    ancestorId: uuid('ancestor_id').notNull(),
    level: integer('level').notNull(),
    currency: text('currency').notNull(),
    balance: baseUnits('balance').notNull().default('0'),
  },
  (t) => [primaryKey({ name: 'referral_capital_pk', columns: [t.ancestorId, t.level, t.currency] })],
);

/** A referrer's rewards per currency and status (0022), moved with every reward written or changing state. */
export const referralRewardTotals = pgTable(
  'referral_reward_totals',
  {
    userId: uuid('user_id').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    amount: baseUnits('amount').notNull().default('0'),
  },
  (t) => [primaryKey({ name: 'referral_reward_totals_pk', columns: [t.userId, t.currency, t.status] })],
);

/**
 * The referees who share an address (a wallet, a deposit's sender, a payout address) with any of
 * their ancestors, and give no rewards (0048): kept by the triggers on those addresses and on the
 * tree, at commit, and held by `ledger check --full` to the whole recomputation.
 */
export const referralSharingReferees = pgTable('referral_sharing_referees', {
  userId: uuid('user_id').primaryKey(),
  since: ts('since').notNull().defaultNow(),
});
