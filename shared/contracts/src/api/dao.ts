import * as z from 'zod/mini';
import * as M from './message-texts';
import { addressSchema, baseUnitsSchema, isoDateTime, pageNumber } from './common';

/** US dollars as an exact decimal string (up to 8 decimals), never a float. */
export const usdSchema = z.string().check(z.regex(/^(?:\d+|\d+\.\d{1,8})$/)).register(z.globalRegistry, { description: 'US dollars, exact decimal string', example: '1250.5' });

/** The quorum's basis points are of this many: 10 000 bps is all the voting power. */
export const QUORUM_ALL_BPS = 10_000n;

/**
 * The DAO's quorum rule, one source for the API and the page: `quorumBps` of all voting power (the
 * pools' value locked, in cents), exact in bigint cents and rounded up, so the figure meets the rule.
 */
export const quorumCents = (allCents: bigint, quorumBps: bigint): bigint => (allCents * quorumBps + QUORUM_ALL_BPS - 1n) / QUORUM_ALL_BPS;

export const daoPersonalResponseSchema = z
  .object({
    /** US-dollar value of the user's credited positions now (a proposal uses its snapshot's). */
    votingPower: usdSchema,
    /** The principal the user keeps in the pools (the positions less the interest still in them), in US dollars now. */
    staked: usdSchema,
    proposalsVoted: z.int(),
  })
  .register(z.globalRegistry, { id: 'DaoPersonal' });
export type DaoPersonalResponse = z.infer<typeof daoPersonalResponseSchema>;

export const daoPoolsResponseSchema = z
  .object({ items: z.array(z.object({ pool: z.string(), title: z.string(), apyBps: z.int(), tvlUsd: z.string() })) })
  .register(z.globalRegistry, { id: 'DaoPools' });
export type DaoPoolsResponse = z.infer<typeof daoPoolsResponseSchema>;

export const daoValuesResponseSchema = z
  .object({ values: z.record(z.string(), z.string()) })
  .register(z.globalRegistry, { id: 'DaoValues' });
export type DaoValuesResponse = z.infer<typeof daoValuesResponseSchema>;

/** The staking rewards: the daily interest credited to the user's positions, all time, per currency and in US dollars now. */
export const daoRewardsResponseSchema = z
  .object({ items: z.array(z.object({ currency: z.string(), decimals: z.int(), earned: baseUnitsSchema, earnedUsd: usdSchema })), totalUsd: usdSchema })
  .register(z.globalRegistry, { id: 'DaoRewards' });
export type DaoRewardsResponse = z.infer<typeof daoRewardsResponseSchema>;

export const proposalStateSchema = z.enum(['pending', 'active', 'closed']);
export type ProposalState = z.infer<typeof proposalStateSchema>;

const proposalSummary = {
  id: z.string(),
  title: z.string(),
  state: proposalStateSchema,
  choices: z.array(z.string()),
  startsAt: isoDateTime,
  endsAt: isoDateTime,
  snapshotAt: isoDateTime,
};

export const proposalsResponseSchema = z
  .object({ items: z.array(z.object(proposalSummary)) })
  .register(z.globalRegistry, { id: 'DaoProposals' });
export type ProposalsResponse = z.infer<typeof proposalsResponseSchema>;

export const proposalParamsSchema = z.object({ id: z.string().check(z.regex(/^[1-9][0-9]{0,15}$/, M.proposalNotFound)) });

/**
 * The vote in Snapshot's `Vote` shape (EIP-712). `choice` counts from 1; `timestamp` is in seconds.
 * The domain is { name: the brand's title, version: '1', chainId: SUPPORTED_CHAIN_ID }.
 */
export const voteTypes = {
  Vote: [
    { name: 'from', type: 'address' },
    { name: 'space', type: 'string' },
    { name: 'timestamp', type: 'uint64' },
    { name: 'proposal', type: 'string' },
    { name: 'choice', type: 'uint32' },
    { name: 'reason', type: 'string' },
    { name: 'app', type: 'string' },
    { name: 'metadata', type: 'string' },
  ],
} as const;
export const VOTE_DOMAIN_VERSION = '1';

export const voteMessageSchema = z.object({
  from: addressSchema,
  space: z.string().check(z.maxLength(100)),
  timestamp: z.int().check(z.minimum(0)),
  proposal: z.string().check(z.maxLength(32)),
  choice: z.int({ error: M.invalidChoice }),
  reason: z.string().check(z.maxLength(500, 'Max length is 500!')),
  app: z.string().check(z.maxLength(50)),
  metadata: z.string().check(z.maxLength(200)),
});
export type VoteMessage = z.infer<typeof voteMessageSchema>;

export const voteBodySchema = z
  .object({
    message: voteMessageSchema,
    signature: z.string({ error: M.voteSignatureInvalid }).check(z.regex(/^0x[0-9a-fA-F]{130}$/, M.voteSignatureInvalid)),
  })
  .register(z.globalRegistry, { id: 'VoteBody' });
export type VoteBody = z.input<typeof voteBodySchema>;

const voteDomainSchema = z.object({ name: z.string(), version: z.string(), chainId: z.int() });

export const proposalResponseSchema = z
  .object({
    ...proposalSummary,
    body: z.string(),
    quorumUsd: usdSchema,
    /** How the quorum was derived when the proposal was made: `bps` of the pools' value locked at the snapshot (absent on proposals made before the rule was applied). */
    quorumRule: z.optional(z.object({ bps: z.int(), tvlUsd: usdSchema })),
    results: z.array(z.object({ choice: z.int(), label: z.string(), powerUsd: usdSchema, votes: z.int() })),
    totalPowerUsd: usdSchema,
    quorumReached: z.boolean(),
    /** The user's power at the snapshot. */
    myPowerUsd: usdSchema,
    myVote: z.nullable(z.object({ choice: z.int(), reason: z.string(), powerUsd: usdSchema, timestamp: z.int() })),
    /** What a vote is signed with: the brand's domain, the space and the app. */
    signing: z.object({ domain: voteDomainSchema, space: z.string(), app: z.string() }),
  })
  .register(z.globalRegistry, { id: 'DaoProposal' });
export type ProposalResponse = z.infer<typeof proposalResponseSchema>;

export const voteResponseSchema = z
  .object({ message: z.string(), proposal: proposalResponseSchema })
  .register(z.globalRegistry, { id: 'VoteResponse' });

/** A page of the public vote list: votes by voter address, after the one given. */
export const proposalVotesQuerySchema = z.object({
  after: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, M.invalidValue))),
  limit: pageNumber(500, 100),
});

/**
 * Every vote of a proposal with its signed message, a page at a time: anyone can check each
 * signature. No vote carries its power (another member's holdings).
 */
export const proposalVotesResponseSchema = z
  .object({
    domain: voteDomainSchema,
    types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
    primaryType: z.literal('Vote'),
    votes: z.array(z.object({ message: voteMessageSchema, signature: z.string() })),
    /** The `after` of the next page; null on the last. */
    next: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'DaoProposalVotes' });
export type ProposalVotesResponse = z.infer<typeof proposalVotesResponseSchema>;
