import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts, created, baseUnits } from './columns';
import { poolMovement } from './movements';

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
    /** The operator who asked for it on the account's behalf: they may not approve it (0027). */
    requestedBy: uuid('requested_by'),
    /** Why the signer refused to sign it (0033): it is not signed again; the operator cancels it or has it corrected. */
    signerRefusal: text('signer_refusal'),
    signerRefusedAt: ts('signer_refused_at'),
    /** A refusal that passes with time (the rate, the day's cap): asked again from then on. */
    signerRetryAt: ts('signer_retry_at'),
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

export const hotWalletNonces = pgTable(
  'hot_wallet_nonces',
  { chainId: integer('chain_id').notNull(), address: text('address').notNull(), nextNonce: bigint('next_nonce', { mode: 'number' }).notNull() },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
);

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

/** A refill of the float from a deposit address: one operator asks, another approves (0033). */
export const floatRefills = pgTable('float_refills', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  chainId: integer('chain_id').notNull(),
  pool: text('pool').notNull(),
  currency: text('currency').notNull(),
  fromAddress: text('from_address').notNull(),
  amount: baseUnits('amount').notNull(),
  /** awaiting_approval → approved (a sweep row carries it out) → done; or rejected. */
  status: text('status').notNull().default('awaiting_approval'),
  requestedBy: uuid('requested_by').notNull(),
  approvedBy: uuid('approved_by'),
  createdAt: created(),
  decidedAt: ts('decided_at'),
});

/**
 * Transfers out of a deposit address signed by the signer (api/src/payouts/sweep.ts, 0033): sweeps
 * to the operator's cold address, and approved refills of the float.
 */
export const sweeps = pgTable(
  'sweeps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** sweep (to cold) or refill (to the float). */
    kind: text('kind').notNull().default('sweep'),
    refillId: bigint('refill_id', { mode: 'number' }),
    chainId: integer('chain_id').notNull(),
    pool: text('pool').notNull(),
    currency: text('currency').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amount: baseUnits('amount').notNull(),
    /** signing (nonce taken) → sending (signed bytes stored) → done or failed; refused by the signer. */
    status: text('status').notNull().default('signing'),
    nonce: bigint('nonce', { mode: 'number' }).notNull(),
    signedTx: text('signed_tx'),
    txHash: text('tx_hash'),
    refusal: text('refusal'),
    broadcastAt: ts('broadcast_at'),
    blockNumber: bigint('block_number', { mode: 'number' }),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // A refused transfer gives its nonce back: only the others hold one.
    uniqueIndex('sweeps_sender_nonce_key').on(t.chainId, t.fromAddress, t.nonce).where(sql`status <> 'refused'`),
    uniqueIndex('sweeps_open_key').on(t.chainId, t.fromAddress, t.currency).where(sql`status in ('signing', 'sending')`),
  ],
);
