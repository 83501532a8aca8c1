import { bigint, date, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { bytea, created, ts } from './columns';

// Proof of solvency (api/src/solvency, drizzle/0024_solvency.sql).

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

/** Every node of every tree by (snapshot, level, index); level 0 are the leaves. */
export const solvencyNodes = pgTable(
  'solvency_nodes',
  {
    snapshotId: integer('snapshot_id').notNull(),
    level: smallint('level').notNull(),
    idx: bigint('idx', { mode: 'number' }).notNull(),
    hash: bytea('hash').notNull(),
    sums: numeric('sums', { precision: 78, scale: 0 }).array().notNull(),
  },
  (t) => [primaryKey({ name: 'solvency_nodes_pk', columns: [t.snapshotId, t.level, t.idx] })],
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

/** Parts of a snapshot being built, read back in the order of a random key: the shuffle. */
export const solvencyShuffle = pgTable(
  'solvency_shuffle',
  {
    snapshotId: integer('snapshot_id').notNull(),
    sortKey: bytea('sort_key').notNull(),
    userId: uuid('user_id').notNull(),
    part: integer('part').notNull(),
    hash: bytea('hash').notNull(),
    sums: numeric('sums', { precision: 78, scale: 0 }).array().notNull(),
  },
  (t) => [primaryKey({ name: 'solvency_shuffle_pk', columns: [t.snapshotId, t.sortKey] })],
);
