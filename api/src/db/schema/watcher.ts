import { bigint, bigserial, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts, created, baseUnits } from './columns';

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
