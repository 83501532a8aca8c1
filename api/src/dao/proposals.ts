import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { verifyTypedData } from 'ethers';
import { apiMessages as M, QUORUM_ALL_BPS, SUPPORTED_CHAIN_ID, VOTE_DOMAIN_VERSION, quorumCents, voteTypes, type ProposalResponse, type ProposalState, type VoteMessage } from '@app/contracts';
import { formatUnits } from '@app/web3';
import type { Db } from '../db/client';
import { audit } from '../db/audit';
import { preparedRows } from '../db/rows';
import { daoProposals, daoValues, daoVotes, users } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import { poolsTvlAt, usd as dollars } from '../portfolio';
import type { PriceSource } from '../pricing';
import { unitsToUsd, usdToUnits, votingPowerAt } from './power';

/** How far a vote's own timestamp may be from the server's clock, in seconds. */
export const VOTE_TIMESTAMP_WINDOW_S = 300;
export const VOTE_APP = 'invest-pools';

export type ProposalRow = typeof daoProposals.$inferSelect;
/** The brand a vote is signed for: its title names the EIP-712 domain, its host is the space. */
export type VoteSpace = { title: string; space: string };

export const voteDomain = (brand: VoteSpace) => ({ name: brand.title, version: VOTE_DOMAIN_VERSION, chainId: SUPPORTED_CHAIN_ID });

/**
 * Voting opens at the start, and never before the snapshot: power is the positions at the
 * snapshot, which are final only once it has passed (a proposal made before the rule below, with
 * its snapshot after its start, stays pending until the snapshot).
 */
export function stateOf(p: Pick<ProposalRow, 'startsAt' | 'endsAt' | 'snapshotAt'>, now = new Date()): ProposalState {
  if (now < p.startsAt || now < p.snapshotAt) return 'pending';
  return now < p.endsAt ? 'active' : 'closed';
}

/**
 * What the operator gives to create a proposal (the operator's command line and API). No quorum of
 * their own: it follows the rule. A figure given is only a check, refused unless it is the rule's.
 */
export type NewProposal = { title: string; body: string; choices: string[]; startsAt: Date; endsAt: Date; snapshotAt: Date; quorumUsd?: string | undefined };

/** The DAO's quorum share in basis points (`dao_values.quorumBps`). */
async function quorumBpsValue(db: Db): Promise<bigint> {
  const [row] = await db.select({ value: daoValues.value }).from(daoValues).where(eq(daoValues.key, 'quorumBps'));
  if (!row || !/^\d{1,5}$/.test(row.value) || BigInt(row.value) > QUORUM_ALL_BPS) throw new Error('the DAO value quorumBps is not a share in basis points (0 to 10000)');
  return BigInt(row.value);
}

/**
 * Creates a proposal with its quorum by the rule: `quorumBps` of the pools' value locked at the
 * snapshot, in cents rounded up (`quorumCents`), stored with its basis so the page shows how it was
 * derived. The snapshot must have passed: the value locked at it is then settled (a future one
 * would not be known yet).
 */
export async function createProposal(db: Db, prices: PriceSource, p: NewProposal, now = new Date()): Promise<ProposalRow> {
  if (!p.title.trim() || p.choices.length < 2 || p.choices.some((c) => !c.trim())) throw new Error('a proposal needs a title and at least two choices');
  if (!(p.startsAt < p.endsAt)) throw new Error('the start must be before the end');
  // A snapshot after the start would let a vote cast before it count dollars that then move to
  // another account and vote again: the power is taken from a past, settled moment.
  if (p.snapshotAt > p.startsAt) throw new Error('the snapshot must not be after the start');
  if (p.snapshotAt > now) throw new Error('the snapshot must not be in the future: the quorum is a share of the value locked at it');
  if (p.quorumUsd !== undefined && !/^\d+(\.\d{1,8})?$/.test(p.quorumUsd)) throw new Error('the quorum is a dollar amount such as 1000 or 12.5');
  const bps = await quorumBpsValue(db);
  const tvl = [...(await poolsTvlAt(db, prices, p.snapshotAt)).values()].reduce((a, b) => a + b, 0n);
  const quorum = quorumCents(tvl, bps);
  if (p.quorumUsd !== undefined && usdToUnits(p.quorumUsd) !== usdToUnits(dollars(quorum))) {
    throw new Error(`the quorum follows the rule: ${formatUnits(bps, 2)} % of $${dollars(tvl)} locked at the snapshot is $${dollars(quorum)}; leave the quorum out`);
  }
  const [row] = await db
    .insert(daoProposals)
    .values({ title: p.title.trim(), body: p.body, choices: p.choices, startsAt: p.startsAt, endsAt: p.endsAt, snapshotAt: p.snapshotAt, quorumUsd: dollars(quorum), quorumBps: Number(bps), quorumTvlUsd: dollars(tvl) })
    .returning();
  return row!;
}

/**
 * Closes an open proposal now, before its end (the tally stands as cast): its end moves to now. A
 * pending or closed one is refused. Audited with the operator.
 */
export async function closeProposal(db: Db, actor: string, id: number, now = new Date()) {
  return db.transaction(async (tx) => {
    const [p] = await tx.select().from(daoProposals).where(eq(daoProposals.id, id)).for('update');
    if (!p) throw new ApiError(404, M.proposalNotFound, 'NOT_FOUND');
    const state = stateOf(p, now);
    if (state !== 'active') throw badRequest(`proposal ${id} is ${state}: only an open proposal can be closed`, 'PROPOSAL_NOT_OPEN');
    await tx.update(daoProposals).set({ endsAt: now }).where(eq(daoProposals.id, id));
    await audit(tx, { actor, action: 'dao.proposal.close', target: String(id), before: { endsAt: p.endsAt }, after: { endsAt: now } });
    return { id: String(id), state: 'closed' as const, endsAt: now.toISOString() };
  });
}

export async function listProposals(db: Db, now = new Date()) {
  const rows = await db.select().from(daoProposals).orderBy(desc(daoProposals.endsAt));
  const order: Record<ProposalState, number> = { active: 0, pending: 1, closed: 2 };
  return rows
    .map((p) => ({ p, state: stateOf(p, now) }))
    .sort((a, b) => order[a.state] - order[b.state] || (a.state === 'active' ? a.p.endsAt.getTime() - b.p.endsAt.getTime() : 0))
    .map(({ p, state }) => ({ ...summary(p), state }));
}

const summary = (p: ProposalRow) => ({
  id: String(p.id),
  title: p.title,
  state: stateOf(p),
  choices: p.choices,
  startsAt: p.startsAt.toISOString(),
  endsAt: p.endsAt.toISOString(),
  snapshotAt: p.snapshotAt.toISOString(),
});

async function proposalOrThrow(db: Db, id: string): Promise<ProposalRow> {
  const [p] = await db.select().from(daoProposals).where(eq(daoProposals.id, Number(id)));
  if (!p) throw new ApiError(404, M.proposalNotFound, 'PROPOSAL_NOT_FOUND');
  return p;
}

export async function proposalView(db: Db, prices: PriceSource, id: string, userId: string, brand: VoteSpace): Promise<ProposalResponse> {
  const p = await proposalOrThrow(db, id);
  const [tally, mine, myPower] = await Promise.all([
    db
      .select({ choice: daoVotes.choice, power: sql<string>`sum(${daoVotes.powerUsd})::text`, votes: sql<number>`count(*)::int` })
      .from(daoVotes)
      .where(eq(daoVotes.proposalId, p.id))
      .groupBy(daoVotes.choice),
    db.select().from(daoVotes).where(and(eq(daoVotes.proposalId, p.id), eq(daoVotes.userId, userId))),
    votingPowerAt(db, prices, userId, p.snapshotAt),
  ]);
  const results = p.choices.map((label, i) => {
    const row = tally.find((t) => t.choice === i + 1);
    return { choice: i + 1, label, powerUsd: unitsToUsd(usdToUnits(row?.power ?? '0')), votes: Number(row?.votes ?? 0) };
  });
  const total = results.reduce((sum, r) => sum + usdToUnits(r.powerUsd), 0n);
  const vote = mine[0];
  return {
    ...summary(p),
    body: p.body,
    quorumUsd: unitsToUsd(usdToUnits(p.quorumUsd)),
    ...(p.quorumBps !== null && p.quorumTvlUsd !== null ? { quorumRule: { bps: p.quorumBps, tvlUsd: unitsToUsd(usdToUnits(p.quorumTvlUsd)) } } : {}),
    results,
    totalPowerUsd: unitsToUsd(total),
    quorumReached: total >= usdToUnits(p.quorumUsd) && total > 0n,
    myPowerUsd: unitsToUsd(myPower),
    myVote: vote ? { choice: vote.choice, reason: vote.reason, powerUsd: unitsToUsd(usdToUnits(vote.powerUsd)), timestamp: vote.signedAt } : null,
    signing: { domain: voteDomain(brand), space: brand.space, app: VOTE_APP },
  };
}

/**
 * Records a vote after the checks, in this order: the signature and that the signer is the
 * account's linked wallet; the timestamp window; the proposal is open; the choice is valid; the
 * voting power at the snapshot is above zero. A newer vote (by its signed timestamp) replaces an
 * older one; an older one arriving late changes nothing.
 */
export async function castVote(
  db: Db,
  prices: PriceSource,
  input: { proposalId: string; userId: string; brand: VoteSpace; message: VoteMessage; signature: string; now?: Date },
) {
  const { message, signature, brand } = input;
  const now = input.now ?? new Date();
  let signer: string;
  try {
    signer = verifyTypedData(voteDomain(brand), { Vote: [...voteTypes.Vote] }, message, signature);
  } catch {
    throw badRequest(M.voteSignatureInvalid, 'VOTE_SIGNATURE');
  }
  // The wallet linked now, from the database rather than the session cache: with several replicas
  // it may have been linked or changed a moment ago on another one.
  const [owner] = await db.select({ walletAddress: users.walletAddress }).from(users).where(eq(users.id, input.userId));
  const wallet = owner?.walletAddress?.toLowerCase();
  if (!wallet || signer.toLowerCase() !== wallet || message.from.toLowerCase() !== wallet || message.space !== brand.space) {
    throw badRequest(M.voteSignatureInvalid, 'VOTE_SIGNATURE');
  }
  if (Math.abs(now.getTime() / 1000 - message.timestamp) > VOTE_TIMESTAMP_WINDOW_S) throw badRequest(M.voteTimestamp, 'VOTE_TIMESTAMP');
  if (message.proposal !== input.proposalId) throw badRequest(M.voteSignatureInvalid, 'VOTE_PROPOSAL');
  const p = await proposalOrThrow(db, input.proposalId);
  const state = stateOf(p, now);
  if (state === 'pending') throw badRequest(M.proposalNotStarted, 'PROPOSAL_PENDING');
  if (state === 'closed') throw badRequest(M.proposalNotOpen, 'PROPOSAL_CLOSED');
  if (!Number.isInteger(message.choice) || message.choice < 1 || message.choice > p.choices.length) {
    throw badRequest(M.invalidChoice, 'INVALID_CHOICE', { choice: M.invalidChoice });
  }
  const power = await votingPowerAt(db, prices, input.userId, p.snapshotAt);
  if (power <= 0n) throw badRequest(M.noVotingPower, 'NO_VOTING_POWER');

  const row = {
    proposalId: p.id,
    userId: input.userId,
    voter: wallet,
    choice: message.choice,
    reason: message.reason,
    signedAt: message.timestamp,
    powerUsd: unitsToUsd(power),
    message,
    signature,
    updatedAt: now,
  };
  await db
    .insert(daoVotes)
    .values(row)
    .onConflictDoUpdate({
      target: [daoVotes.proposalId, daoVotes.userId],
      set: { voter: row.voter, choice: row.choice, reason: row.reason, signedAt: row.signedAt, powerUsd: row.powerUsd, message: row.message, signature: row.signature, updatedAt: row.updatedAt },
      // A vote signed earlier than the stored one never replaces it; timestamps are whole seconds,
      // so a change within the same second (signed after the first) replaces it.
      setWhere: sql`${daoVotes.signedAt} <= excluded.signed_at`,
    });
}

/**
 * A page of a proposal's votes, by voter address (a replaced vote keeps its place), after `after`;
 * `next` is the last voter of a full page. Each vote carries its signed message, so anyone can
 * check each signature, and not its power: with the wallet beside it, it would tell anyone what
 * that member holds (the tally is in the proposal).
 */
export async function publicVotes(db: Db, id: string, brand: VoteSpace, page: { after?: string | undefined; limit: number }) {
  const p = await proposalOrThrow(db, id);
  const rows = await db
    .select()
    .from(daoVotes)
    .where(and(eq(daoVotes.proposalId, p.id), page.after ? gt(daoVotes.voter, page.after.toLowerCase()) : undefined))
    .orderBy(asc(daoVotes.voter))
    .limit(page.limit);
  return {
    domain: voteDomain(brand),
    types: { Vote: [...voteTypes.Vote] },
    primaryType: 'Vote' as const,
    votes: rows.map((v) => ({ message: v.message as VoteMessage, signature: v.signature })),
    next: rows.length === page.limit ? rows[rows.length - 1]!.voter : null,
  };
}

/** Prepared, as the stake it is read beside (`stakeAt`): on a user's few votes its planning would cost more than its run. */
export async function proposalsVoted(db: Db, userId: string): Promise<number> {
  const [row] = await preparedRows<{ n: number }>(db, 'dao_proposals_voted', sql`select count(*)::int as n from dao_votes where user_id = ${userId}`);
  return Number(row?.n ?? 0);
}
