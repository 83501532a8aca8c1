import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, baseUnits } from './columns';
import { poolMovement } from './movements';

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
