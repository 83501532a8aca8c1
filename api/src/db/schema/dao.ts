import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { ts, created, usd } from './columns';

export const daoValues = pgTable('dao_values', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
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
  /** The quorum's basis (0032): the rule's share in basis points and the pools' value locked at the snapshot; null on proposals made before. */
  quorumBps: integer('quorum_bps'),
  quorumTvlUsd: usd('quorum_tvl_usd'),
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
