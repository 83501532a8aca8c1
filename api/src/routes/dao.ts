import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asc, eq, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { apiMessages as M, apiRoutes, brandForHost, brandTitle, hostName } from '@app/contracts';
import { requestHost } from '../auth/siwe';
import { castVote, createProposal, listProposals, proposalView, proposalsVoted, publicVotes, type VoteSpace } from '../dao/proposals';
import { unitsToUsd, votingPowerAt } from '../dao/power';
import { queryRows } from '../db/rows';
import { daoMembers, daoValues } from '../db/schema';
import { badRequest } from '../http/errors';
import { addRoute } from '../http/route';
import type { Services } from '../services';

export function daoRoutes(app: FastifyInstance, s: Services) {
  const db = s.db;
  const member = async (userId: string) => (await db.select().from(daoMembers).where(eq(daoMembers.userId, userId)))[0];
  /** The brand the request came through: votes are signed for its name and space. */
  const spaceOf = (req: FastifyRequest): VoteSpace => {
    const host = requestHost(req);
    const brand = brandForHost(s.config.brands, host);
    return { title: brandTitle(s.config.brands, host), space: brand ? brand.host : hostName(host ?? 'localhost') };
  };

  addRoute(app, apiRoutes.daoPersonal, async ({ auth }) => {
    const [power, voted] = await Promise.all([votingPowerAt(db, s.prices, auth.user.id, new Date()), proposalsVoted(db, auth.user.id)]);
    return { votingPower: unitsToUsd(power), staked: unitsToUsd(power), proposalsVoted: voted };
  });

  addRoute(app, apiRoutes.daoPools, async () => {
    // Each pool with its latest value locked.
    const rows = await queryRows<{ pool: string; title: string; apy_bps: number; tvl_usd: string | null }>(
      db,
      sql`select p.name as pool, p.title, p.apy_bps,
                 (select g.tvl_usd from pool_graph g where g.pool = p.name order by g.day desc limit 1) as tvl_usd
          from pools p order by p.sort`,
    );
    return { items: rows.map((r) => ({ pool: r.pool, title: r.title, apyBps: Number(r.apy_bps), tvlUsd: String(r.tvl_usd ?? '0') })) };
  });

  addRoute(app, apiRoutes.daoValues, async () => {
    const rows = await db.select().from(daoValues).orderBy(asc(daoValues.key));
    return { values: Object.fromEntries(rows.map((r) => [r.key, r.value])) };
  });

  addRoute(app, apiRoutes.daoRewards, async ({ auth }) => {
    const [m, [token]] = await Promise.all([
      member(auth.user.id),
      db.select().from(daoValues).where(eq(daoValues.key, 'governanceToken')),
    ]);
    return { currency: token?.value ?? '', earned: m?.rewardsEarned ?? '0', claimed: m?.rewardsClaimed ?? '0' };
  });

  addRoute(app, apiRoutes.daoProposals, async () => ({ items: await listProposals(db) }));

  addRoute(app, apiRoutes.daoProposal, async ({ params, auth, req }) => proposalView(db, s.prices, params.id, auth.user.id, spaceOf(req)));

  addRoute(app, apiRoutes.daoVote, async ({ params, body, auth, req }) => {
    const brand = spaceOf(req);
    await castVote(db, s.prices, { proposalId: params.id, userId: auth.user.id, linkedWallet: auth.user.walletAddress, brand, message: body.message, signature: body.signature });
    return { message: M.voteRecorded, proposal: await proposalView(db, s.prices, params.id, auth.user.id, brand) };
  }, { rateLimit: { max: 60, timeWindow: '1 minute' } });

  addRoute(app, apiRoutes.daoProposalVotes, async ({ params, req }) => publicVotes(db, params.id, spaceOf(req)));

  // The local stack's way for tests and demos to create proposals (the operator uses the CLI).
  if (s.config.env !== 'production') {
    const when = z.string().check(z.maxLength(40));
    const devProposal = z.object({
      title: z.string().check(z.minLength(1), z.maxLength(200)),
      body: z.string().check(z.maxLength(20_000)),
      choices: z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.minLength(2), z.maxLength(10)),
      startsAt: when,
      endsAt: when,
      snapshotAt: when,
      quorumUsd: z.optional(z.string().check(z.maxLength(40))),
    });
    const date = (text: string) => {
      const d = new Date(text);
      if (Number.isNaN(d.getTime())) throw badRequest(M.invalidFields, 'BAD_DATE');
      return d;
    };
    app.post('/dev/dao/proposals', { schema: { hide: true } }, async (req) => {
      const parsed = devProposal.safeParse(req.body);
      if (!parsed.success) throw badRequest(M.invalidFields);
      const b = parsed.data;
      try {
        const p = await createProposal(db, { title: b.title, body: b.body, choices: b.choices, startsAt: date(b.startsAt), endsAt: date(b.endsAt), snapshotAt: date(b.snapshotAt), quorumUsd: b.quorumUsd ?? '0' });
        return { id: String(p.id) };
      } catch (err) {
        if (err instanceof Error && !('statusCode' in err)) throw badRequest(err.message, 'BAD_PROPOSAL');
        throw err;
      }
    });
  }
}
