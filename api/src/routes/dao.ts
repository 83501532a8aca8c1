import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { asc } from 'drizzle-orm';
import { apiMessages as M, apiRoutes, brandTitle, hostName, newProposalBodySchema as newProposalBody, operatorIdParams } from '@app/contracts';
import { requestHost } from '../auth';
import {
  castVote,
  closeProposal,
  createProposal,
  listProposals,
  personalStake,
  proposalsVoted,
  proposalView,
  publicVotes,
  stakingRewards,
  unitsToUsd,
  usdToUnits,
  type ProposalRow,
  type VoteSpace,
} from '../dao';
import { daoValues, pools } from '../db/schema';
import { badRequest } from '../http/errors';
import { briefCache } from '../http/brief-cache';
import { addRoute } from '../http/route';
import { audit } from '../db/audit';
import { apyBps, apysOn } from '../interest';
import { operatorGuard } from '../operator';
import { asOfDay, poolsTvl, usd } from '../portfolio';
import { sharedPriceSource } from '../pricing';
import type { Services } from '../services';

/** How long a page of a public vote list is served from memory (other replicas see a new vote within it). */
const VOTE_LIST_CACHE_MS = 5000;

export function daoRoutes(app: FastifyInstance, s: Services) {
  const db = s.db;
  const voteLists = briefCache<Awaited<ReturnType<typeof publicVotes>>>(VOTE_LIST_CACHE_MS);
  /** The brand the request came through: votes are signed for its name and space. */
  const spaceOf = (req: FastifyRequest): VoteSpace => {
    const host = requestHost(req);
    return { title: brandTitle(s.config.brands, host), space: hostName(host ?? 'localhost') };
  };

  // From memory while the user's positions and votes do not change (http/user-reads.ts); computed, with the prices everyone shares.
  const sharedPrices = sharedPriceSource(s.prices, s.figures);
  addRoute(app, apiRoutes.daoPersonal, async ({ auth, req }) =>
    s.reads.read(auth.user.id, req, async () => {
      const [stake, voted] = await Promise.all([personalStake(db, sharedPrices, auth.user.id, new Date()), proposalsVoted(db, auth.user.id)]);
      return { votingPower: unitsToUsd(stake.votingPower), staked: unitsToUsd(stake.staked), proposalsVoted: voted };
    }),
  );

  addRoute(app, apiRoutes.daoPools, async () => {
    // Each pool with its APY in force and its value locked: the same books and function as the pools' TVL cards.
    const [list, tvl, apys] = await Promise.all([
      db.select({ pool: pools.name, title: pools.title }).from(pools).orderBy(asc(pools.sort)),
      poolsTvl(db, s.prices),
      asOfDay(db).then((day) => apysOn(db, day)),
    ]);
    return { items: list.map((p) => ({ pool: p.pool, title: p.title, apyBps: apyBps(apys.get(p.pool) ?? '0'), tvlUsd: usd(tvl.get(p.pool) ?? 0n) })) };
  });

  addRoute(app, apiRoutes.daoValues, async () => {
    const rows = await db.select().from(daoValues).orderBy(asc(daoValues.key));
    return { values: Object.fromEntries(rows.map((r) => [r.key, r.value])) };
  });

  addRoute(app, apiRoutes.daoRewards, async ({ auth }) => stakingRewards(db, s.prices, auth.user.id, new Date()));

  addRoute(app, apiRoutes.daoProposals, async () => ({ items: await listProposals(db) }));

  addRoute(app, apiRoutes.daoProposal, async ({ params, auth, req }) => proposalView(db, s.prices, params.id, auth.user.id, spaceOf(req)));

  addRoute(app, apiRoutes.daoVote, async ({ params, body, auth, req }) => {
    const brand = spaceOf(req);
    await castVote(db, s.prices, { proposalId: params.id, userId: auth.user.id, brand, message: body.message, signature: body.signature });
    voteLists.forget(`${params.id}|`);
    return { message: M.voteRecorded, proposal: await proposalView(db, s.prices, params.id, auth.user.id, brand) };
  }, { rateLimit: { max: 60, timeWindow: '1 minute' } });

  addRoute(app, apiRoutes.daoProposalVotes, async ({ params, query, req }) => {
    const space = spaceOf(req);
    const key = `${params.id}|${space.space}|${space.title}|${query.after?.toLowerCase() ?? ''}|${query.limit}`;
    return voteLists.get(key, () => publicVotes(db, params.id, space, query));
  });

  // The operator's DAO calls (the `npm run dao` command line), under the operator's guard and audit log.
  const r = app.withTypeProvider<ZodTypeProvider>();
  const operatorOnly = { onRequest: operatorGuard(db), schema: { tags: ['operator'], security: [{ bearerAuth: [] }] } };
  r.get('/operator/dao/proposals', operatorOnly, async () => ({ items: await listProposals(db) }));
  r.post('/operator/dao/proposals', { ...operatorOnly, schema: { ...operatorOnly.schema, body: newProposalBody } }, async (req) => {
    const b = req.body;
    let p: ProposalRow;
    try {
      p = await createProposal(db, s.prices, { ...b, startsAt: new Date(b.startsAt), endsAt: new Date(b.endsAt), snapshotAt: new Date(b.snapshotAt) });
    } catch (err) {
      // The proposal's own rules (two choices, start before end, …) answer with what is wrong.
      if (err instanceof Error && !('statusCode' in err)) throw badRequest(err.message, 'BAD_PROPOSAL');
      throw err;
    }
    await audit(db, { actor: req.operator?.actor ?? 'unknown', action: 'dao.proposal.create', target: String(p.id), after: { title: p.title, choices: p.choices, startsAt: p.startsAt, endsAt: p.endsAt, snapshotAt: p.snapshotAt, quorumUsd: p.quorumUsd, quorumBps: p.quorumBps, quorumTvlUsd: p.quorumTvlUsd } });
    return { id: String(p.id), title: p.title, startsAt: p.startsAt.toISOString(), endsAt: p.endsAt.toISOString(), snapshotAt: p.snapshotAt.toISOString(), quorumUsd: unitsToUsd(usdToUnits(p.quorumUsd)), quorumBps: p.quorumBps, quorumTvlUsd: unitsToUsd(usdToUnits(p.quorumTvlUsd ?? '0')) };
  });
  r.post('/operator/dao/proposals/:id/close', { ...operatorOnly, schema: { ...operatorOnly.schema, params: operatorIdParams } }, async (req) =>
    closeProposal(db, req.operator?.actor ?? 'unknown', req.params.id),
  );
}
