import { bigint, date, integer, jsonb, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { bytea, created, ts } from './columns';

// Proof of solvency (api/src/solvency, drizzle/0024_solvency.sql, 0031_solvency_blocks.sql and 0039_solvency_block_sums.sql).

/** Each account's 32-byte nonce for life: never logged, shown only to its owner. */
export const solvencyNonces = pgTable('solvency_nonces', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  nonce: bytea('nonce').notNull(),
  createdAt: created(),
});

/** A snapshot, written with its tree in one transaction; `header` is the canonical JSON that was signed. */
export const solvencySnapshots = pgTable('solvency_snapshots', {
  id: integer('id').primaryKey(),
  /** The daily job's day (one per day); null for one taken on demand. */
  day: date('day', { mode: 'string' }).unique(),
  takenAt: ts('taken_at').notNull(),
  blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
  blockHash: text('block_hash').notNull(),
  root: text('root').notNull(),
  leafCount: bigint('leaf_count', { mode: 'number' }).notNull(),
  users: integer('users').notNull(),
  header: text('header').notNull(),
  signature: text('signature').notNull(),
  signer: text('signer').notNull(),
  addresses: jsonb('addresses').notNull(),
  reserves: jsonb('reserves').notNull(),
  takenBy: text('taken_by').notNull(),
});

/**
 * The nodes of every fourth level below a tree's root, sixteen to a block (fewer in a level that
 * has fewer): block b of level l holds nodes 16b … 16b+15, hashes end to end and sums node after
 * node, as u256be bytes. Leaf-level blocks of padding only are not stored (drizzle/0031_solvency_blocks.sql).
 */
export const solvencyBlocks = pgTable(
  'solvency_blocks',
  {
    snapshotId: integer('snapshot_id').notNull(),
    level: smallint('level').notNull(),
    block: bigint('block', { mode: 'number' }).notNull(),
    hashes: bytea('hashes').notNull(),
    /** u256be per node and currency, node after node (drizzle/0039_solvency_block_sums.sql). */
    sums: bytea('sums').notNull(),
  },
  (t) => [primaryKey({ name: 'solvency_blocks_pk', columns: [t.snapshotId, t.level, t.block] })],
);

/** The leaf of each part of a user's balances. */
export const solvencyParts = pgTable(
  'solvency_parts',
  {
    snapshotId: integer('snapshot_id').notNull(),
    userId: uuid('user_id').notNull(),
    part: integer('part').notNull(),
    leafIndex: bigint('leaf_index', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'solvency_parts_pk', columns: [t.snapshotId, t.userId, t.part] })],
);
