import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  pgView,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const created = () => ts('created_at').notNull().defaultNow();
/** Money: an integer in base units (wei, token units). numeric(78,0) holds any uint256. */
const baseUnits = (name: string) => numeric(name, { precision: 78, scale: 0 });
/** Fiat values: exact decimals, never floats. */
const usd = (name: string) => numeric(name, { precision: 38, scale: 8 });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    /** Lower-cased e-mail; null for an account made by wallet sign-in. */
    email: text('email'),
    passwordHash: text('password_hash'),
    name: text('name'),
    phone: text('phone'),
    telegram: text('telegram'),
    avatar: text('avatar'),
    /** Lower-cased 0x address; one account per wallet. */
    walletAddress: text('wallet_address'),
    /** null until the e-mail is confirmed. */
    role: text('role'),
    lang: text('lang').notNull().default('en'),
    /** light, dark or system; null until the user picks one in the settings. */
    theme: text('theme'),
    /** A new e-mail waiting for the code mailed to it; `email` changes when the code is confirmed. */
    pendingEmail: text('pending_email'),
    source: text('source'),
    referralCode: text('referral_code').notNull(),
    referrerId: uuid('referrer_id'),
    emailConfirmedAt: ts('email_confirmed_at'),
    /** When the login e-mail last changed in the settings: no code proves the owner through it during the hold. */
    emailChangedAt: ts('email_changed_at'),
    /** A change of the e-mail, password or wallet holds the account's payouts until then (issue 21, finding 1). */
    withdrawalsHeldUntil: ts('withdrawals_held_until'),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_wallet_key').on(t.walletAddress),
    uniqueIndex('users_referral_code_key').on(t.referralCode),
    index('users_referrer_idx').on(t.referrerId),
  ],
);

/** A login: the family of refresh tokens it rotates through. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: created(),
    /** Absolute end of the session: rotation does not extend it. */
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Only hashes are kept: a database leak gives no usable token. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: created(),
    usedAt: ts('used_at'),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const siweNonces = pgTable('siwe_nonces', {
  nonce: text('nonce').primaryKey(),
  createdAt: created(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

/** Codes mailed for approval and recovery; kept as HMACs. */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: created(),
  },
  (t) => [index('email_codes_user_purpose_idx').on(t.userId, t.purpose)],
);

/** Fixed-window counters for limits that must hold across replicas (per account). */
export const rateCounters = pgTable('rate_counters', {
  key: text('key').primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull(),
});

/** Every mail goes here first; a worker sends pending ones over SMTP. */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text_body').notNull(),
    html: text('html_body').notNull(),
    lang: text('lang').notNull(),
    kind: text('kind').notNull(),
    /** pending (to be sent), sending, sent, failed, or unsent (no SMTP configured). Bodies are redacted once not pending. */
    status: text('status').notNull(),
    /** When a worker took it for sending: a stale claim means the worker died, and it is sent again. */
    claimedAt: ts('claimed_at'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: created(),
    sentAt: ts('sent_at'),
  },
  (t) => [index('outbox_status_idx').on(t.status), index('outbox_to_idx').on(t.to)],
);

export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

export const currencies = pgTable('currencies', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  decimals: integer('decimals').notNull(),
  native: boolean('native').notNull().default(false),
  sort: integer('sort').notNull().default(0),
  /** Fiat estimate of one whole unit. */
  usdRate: usd('usd_rate').notNull().default('0'),
});

export const currencyAddresses = pgTable(
  'currency_addresses',
  {
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    chainId: integer('chain_id').notNull(),
    address: text('address').notNull(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.chainId] })],
);

export const pools = pgTable('pools', {
  name: text('name').primaryKey(),
  title: text('title').notNull(),
  riskLevel: text('risk_level').notNull(),
  description: text('description').notNull(),
  /** Address deposits are sent to (set per deployment). */
  depositAddress: text('deposit_address'),
  sort: integer('sort').notNull().default(0),
});

/** A pool's title and strategy text in a language other than English (English is in `pools`). */
export const poolTexts = pgTable(
  'pool_texts',
  {
    pool: text('pool')
      .notNull()
      .references(() => pools.name),
    lang: text('lang').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.lang] })],
);

export const poolAssets = pgTable(
  'pool_assets',
  {
    pool: text('pool')
      .notNull()
      .references(() => pools.name),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    shareBps: integer('share_bps').notNull(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.currency] })],
);

/**
 * A pool's books at the close of an accrued day, interest of the day included: what its positions
 * held per currency (written by the accrual, 0019). With `interest_days` (the APY the day used),
 * the pool's history.
 */
export const poolDays = pgTable(
  'pool_days',
  {
    pool: text('pool')
      .notNull()
      .references(() => pools.name),
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    tvl: baseUnits('tvl').notNull(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.day, t.currency] })],
);

/** The columns a movement of money in or out of a pool has. */
const poolMovement = () => ({
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  pool: text('pool')
    .notNull()
    .references(() => pools.name),
  currency: text('currency')
    .notNull()
    .references(() => currencies.code),
  amount: baseUnits('amount').notNull(),
  createdAt: created(),
});

/**
 * A deposit read from the chain: one row per (chain, transaction, log) so a transaction counts once,
 * whoever reports it. `amount` is the chain's; ETH rows have log index -1. Status: pending (waiting
 * for confirmations), credited (counted in balances), refused (vanished in a reorg or failed on re-read).
 */
export const deposits = pgTable(
  'deposits',
  {
    ...poolMovement(),
    txHash: text('tx_hash').notNull(),
    status: text('status').notNull().default('pending'),
    chainId: integer('chain_id').notNull().default(1),
    logIndex: integer('log_index').notNull().default(-1),
    fromAddress: text('from_address'),
    toAddress: text('to_address'),
    /** The token contract; null for ETH. */
    tokenAddress: text('token_address'),
    /** What the client said; kept for support, never counted. */
    claimedAmount: baseUnits('claimed_amount'),
    blockNumber: bigint('block_number', { mode: 'number' }),
    blockHash: text('block_hash'),
    confirmations: integer('confirmations').notNull().default(0),
    /** Why a deposit was refused after it was recorded (a code, e.g. REORGED). */
    reason: text('reason'),
    /** When the job first found the transaction gone (a reorg); refused after a grace period. */
    missingSince: ts('missing_since'),
    creditedAt: ts('credited_at'),
    /** The job replica working on the row and until when (so replicas never work on one row at once). */
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deposits_chain_tx_log_key').on(t.chainId, t.txHash, t.logIndex),
    index('deposits_user_idx').on(t.userId),
    index('deposits_pending_idx').on(t.id).where(sql`status = 'pending'`),
  ],
);

/** Operator configuration: where each pool receives each currency, per chain. */
export const poolAddresses = pgTable(
  'pool_addresses',
  {
    pool: text('pool')
      .notNull()
      .references(() => pools.name),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    chainId: integer('chain_id').notNull(),
    /** Lower-cased 0x address. */
    address: text('address').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.currency, t.chainId] })],
);

/** Coin prices in US dollars per price source; the configured source (PRICE_SOURCE) is the one read. */
export const coinPrices = pgTable(
  'coin_prices',
  {
    source: text('source').notNull(),
    currency: text('currency')
      .notNull()
      .references(() => currencies.code),
    usd: usd('usd').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.currency] })],
);

/**
 * A withdrawal, paid on chain by the payout job. Status: requested, awaiting_approval (above the
 * operator's threshold), sending (signed and stored, then broadcast), paid (N confirmations), or
 * returned (refused by the operator, or the payout failed: the amount is back in the position).
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    ...poolMovement(),
    status: text('status').notNull().default('requested'),
    /** Kept by the house; the user receives amount − fee. */
    fee: baseUnits('fee').notNull().default('0'),
    toAddress: text('to_address'),
    /** The hot wallet that pays. */
    fromAddress: text('from_address'),
    chainId: integer('chain_id').notNull().default(1),
    nonce: bigint('nonce', { mode: 'number' }),
    /** The signed transaction, stored before it is broadcast: a crash never sends twice. */
    signedTx: text('signed_tx'),
    txHash: text('tx_hash'),
    blockNumber: bigint('block_number', { mode: 'number' }),
    confirmations: integer('confirmations').notNull().default(0),
    broadcastAt: ts('broadcast_at'),
    attempts: integer('attempts').notNull().default(0),
    /** Why it was returned (a code). */
    reason: text('reason'),
    decidedBy: text('decided_by'),
    paidAt: ts('paid_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** position: out of a pool; referral: a claim of referral rewards (api/src/referral). */
    kind: text('kind').notNull().default('position'),
    /** Times the recipient refused the payout (a failed estimate or a reverted transfer); at two it is returned. */
    reverts: integer('reverts').notNull().default(0),
    /** The head when it was signed: where a search for the transaction that used its nonce starts. */
    signedBlock: bigint('signed_block', { mode: 'number' }),
    /** When it was signed: a payout not mined long after is cancelled at its nonce. */
    signedAt: ts('signed_at'),
    /** A zero-value self-transfer at the same nonce, replacing a payout that cannot be mined. */
    cancelTx: text('cancel_tx'),
    cancelHash: text('cancel_hash'),
    /** Since when it waits for the hot wallet's funds (status waiting_funds). */
    waitingSince: ts('waiting_since'),
    /** A returned payout's hash is looked up until then: if it mines after all, the operator is alerted. */
    recheckUntil: ts('recheck_until'),
  },
  (t) => [
    index('withdrawals_user_idx').on(t.userId),
    // The limits' reads: an account's recent requests, and a destination's recent withdrawals (0016).
    index('withdrawals_user_created_idx').on(t.userId, t.createdAt),
    index('withdrawals_destination_idx').on(t.toAddress, t.currency, t.createdAt),
    uniqueIndex('withdrawals_one_referral_claim')
      .on(t.userId)
      .where(sql`kind = 'referral' and status in ('requested', 'awaiting_approval', 'waiting_funds', 'sending', 'cancelling')`),
  ],
);

/**
 * Daily compounded interest, one row per user, pool, currency and day: a view of the interest
 * postings (0013), so the ledger is the only copy. Read-only.
 */
export const interestAccruals = pgView('interest_accruals', {
  userId: uuid('user_id').notNull(),
  pool: text('pool').notNull(),
  currency: text('currency').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  amount: baseUnits('amount').notNull(),
}).existing();

/** How a pool's day of interest is split between database sessions (0013): fixed once, reused by reruns. */
export const interestDayParts = pgTable(
  'interest_day_parts',
  {
    pool: text('pool').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    bounds: bigint('bounds', { mode: 'bigint' }).array().notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.day] })],
);

export const faq = pgTable('faq', {
  id: integer('id').primaryKey(),
  lang: text('lang').notNull(),
  question: text('question').notNull(),
  answer: text('answer').notNull(),
  sort: integer('sort').notNull().default(0),
});

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
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.day] })],
);

/**
 * A reward: `level` levels above the referee `fromUserId`, on the referee's interest of `day` in
 * `pool`. Its users and withdrawal are checked once per statement by a trigger (0014), not per row
 * by foreign keys.
 */
export const referralRewards = pgTable(
  'referral_rewards',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    fromUserId: uuid('from_user_id'),
    level: integer('level').notNull(),
    currency: text('currency').notNull(),
    amount: baseUnits('amount').notNull(),
    /** vesting (until `vestsOn` has closed), earned (available), in_payment, paid, or forfeited (back to the house). */
    status: text('status').notNull().default('earned'),
    /** The last day the referee's funds must stay for the reward to vest; null for rewards made before vesting (0018). */
    vestsOn: date('vests_on', { mode: 'string' }),
    /** Why a forfeited reward went back to the house: funds_left or shared_address. */
    forfeitReason: text('forfeit_reason'),
    pool: text('pool'),
    day: date('day', { mode: 'string' }),
    rateBps: integer('rate_bps'),
    transactionId: bigint('transaction_id', { mode: 'number' }),
    /** The claim (a withdrawal of kind 'referral') paying it. */
    withdrawalId: bigint('withdrawal_id', { mode: 'number' }),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('referral_rewards_once').on(t.day, t.pool, t.fromUserId, t.level),
    index('referral_rewards_claimable_idx').on(t.userId, t.currency, t.status),
  ],
);

export const daoValues = pgTable('dao_values', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Ledger accounts (see `src/ledger/README.md`). `balance` is the signed sum of the account's
 * postings (debit positive), maintained in the posting's own transaction; `ledger check` holds it
 * equal to the entries.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    /** position, house, reserves, withdrawals_in_flight, referral_rewards_payable */
    kind: text('kind').notNull(),
    currency: text('currency').notNull(),
    userId: uuid('user_id'),
    pool: text('pool'),
    address: text('address'),
    balance: baseUnits('balance').notNull().default('0'),
    createdAt: created(),
  },
  (t) => [uniqueIndex('ledger_accounts_key').on(t.key), index('ledger_accounts_user_idx').on(t.userId)],
);

/** A balanced set of postings with a unique idempotency reference; never updated or deleted. */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    kind: text('kind').notNull(),
    /** When the movement takes effect (interest of day D: the end of D). */
    at: ts('at').notNull().defaultNow(),
    detail: jsonb('detail'),
    createdAt: created(),
  },
  (t) => [uniqueIndex('ledger_transactions_reference').on(t.reference), index('ledger_transactions_at_idx').on(t.at)],
);

/** One leg per transaction and account (0013). Its transaction and account are checked once per inserting statement by a trigger (0010), not per row by foreign keys. */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    transactionId: bigint('transaction_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /** Signed base units: debit positive, credit negative. */
    amount: baseUnits('amount').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('ledger_postings_account_idx').on(t.accountId, t.at), primaryKey({ name: 'ledger_postings_once', columns: [t.transactionId, t.accountId] })],
);

/** Each pool's APY from a day on; the history is kept. */
export const poolApy = pgTable(
  'pool_apy',
  {
    pool: text('pool').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    apy: numeric('apy', { precision: 24, scale: 18 }).notNull(),
    setBy: text('set_by').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.effectiveFrom] })],
);

/** Accrued days per pool (the marker that a day is done) with the rate used. */
export const interestDays = pgTable(
  'interest_days',
  {
    pool: text('pool').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    apy: numeric('apy', { precision: 24, scale: 18 }).notNull(),
    rate: numeric('rate', { precision: 40, scale: 0 }).notNull(),
    transactionId: bigint('transaction_id', { mode: 'number' }).notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pool, t.day] })],
);

export const operatorAudit = pgTable('operator_audit', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  target: text('target'),
  before: jsonb('before'),
  after: jsonb('after'),
  at: ts('at').notNull().defaultNow(),
});

/** One runner per job across replicas. */
export const jobLeases = pgTable('job_leases', {
  job: text('job').primaryKey(),
  owner: text('owner').notNull(),
  leaseUntil: ts('lease_until').notNull(),
  lastRunAt: ts('last_run_at'),
  lastError: text('last_error'),
});

export const hotWalletNonces = pgTable(
  'hot_wallet_nonces',
  { chainId: integer('chain_id').notNull(), address: text('address').notNull(), nextNonce: bigint('next_nonce', { mode: 'number' }).notNull() },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
);

/** What the operator must look at (`npm run operator -- alerts`): one row per subject, counted when raised again. */
export const operatorAlerts = pgTable('operator_alerts', {
  key: text('key').primaryKey(),
  kind: text('kind').notNull(),
  message: text('message').notNull(),
  detail: jsonb('detail'),
  firstAt: ts('first_at').notNull().defaultNow(),
  lastAt: ts('last_at').notNull().defaultNow(),
  count: integer('count').notNull().default(1),
  resolvedAt: ts('resolved_at'),
});

/** Transfers from the treasury (yield) address to a pool's paying address (api/src/payouts/treasury.ts). */
export const treasuryTransfers = pgTable(
  'treasury_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chainId: integer('chain_id').notNull(),
    pool: text('pool').notNull(),
    currency: text('currency').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amount: baseUnits('amount').notNull(),
    status: text('status').notNull().default('sending'),
    nonce: bigint('nonce', { mode: 'number' }).notNull(),
    signedTx: text('signed_tx').notNull(),
    txHash: text('tx_hash').notNull(),
    broadcastAt: ts('broadcast_at'),
    blockNumber: bigint('block_number', { mode: 'number' }),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('treasury_transfers_sender_nonce_key').on(t.chainId, t.fromAddress, t.nonce),
    uniqueIndex('treasury_transfers_open_key').on(t.toAddress, t.currency).where(sql`status = 'sending'`),
  ],
);

/** The chain watcher's cursor: the last block read, with its hash. */
export const watcherCursor = pgTable('watcher_cursor', {
  chainId: integer('chain_id').primaryKey(),
  blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
  blockHash: text('block_hash').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const watcherBlocks = pgTable(
  'watcher_blocks',
  { chainId: integer('chain_id').notNull(), blockNumber: bigint('block_number', { mode: 'number' }).notNull(), blockHash: text('block_hash').notNull() },
  (t) => [primaryKey({ columns: [t.chainId, t.blockNumber] })],
);

/** A transfer into a pool address from an unknown wallet; the operator assigns it to an account. */
export const unclaimedTransfers = pgTable(
  'unclaimed_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    tokenAddress: text('token_address'),
    currency: text('currency').notNull(),
    pool: text('pool'),
    amount: baseUnits('amount').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    /** unclaimed, assigned (by the operator, with the sender's proof), reported (by its owner, who linked the wallet) */
    status: text('status').notNull().default('unclaimed'),
    depositId: bigint('deposit_id', { mode: 'number' }),
    assignedBy: text('assigned_by'),
    createdAt: created(),
  },
  (t) => [uniqueIndex('unclaimed_transfers_chain_tx_log_key').on(t.chainId, t.txHash, t.logIndex)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** Avatar images, apart from users: every authenticated request reads the user row, none needs the image. */
export const avatars = pgTable('avatars', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const daoProposals = pgTable('dao_proposals', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  title: text('title').notNull(),
  /** Markdown, rendered safely (no HTML) by the page. */
  body: text('body').notNull(),
  choices: jsonb('choices').$type<string[]>().notNull(),
  startsAt: ts('starts_at').notNull(),
  endsAt: ts('ends_at').notNull(),
  /** Voting power is the value of positions at this moment: at or before the start (checked by 0018 for new rows). */
  snapshotAt: ts('snapshot_at').notNull(),
  quorumUsd: usd('quorum_usd').notNull().default('0'),
  createdAt: created(),
});

/** One vote per user and proposal; a newer signed vote replaces the older. */
export const daoVotes = pgTable(
  'dao_votes',
  {
    proposalId: bigint('proposal_id', { mode: 'number' })
      .notNull()
      .references(() => daoProposals.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    voter: text('voter').notNull(),
    choice: integer('choice').notNull(),
    reason: text('reason').notNull(),
    /** The message's own timestamp (seconds): the newer one wins. */
    signedAt: bigint('signed_at', { mode: 'number' }).notNull(),
    powerUsd: usd('power_usd').notNull(),
    message: jsonb('message').notNull(),
    signature: text('signature').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.userId] }), index('dao_votes_user_idx').on(t.userId), index('dao_votes_proposal_voter_idx').on(t.proposalId, t.voter)],
);

/** Accounts that dismissed the cabinet's first-steps tutorial (remembered per account, not per browser). */
export const tutorialDismissals = pgTable('tutorial_dismissals', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  dismissedAt: ts('dismissed_at').notNull().defaultNow(),
});
