import type { FastifyInstance } from 'fastify';
import { apiMessages as M, apiRoutes } from '@app/contracts';
import { addRoute } from '../http/route';
import { affiliates, claimNext, harvest, inviteValid, rankProgress, referralOverview } from '../referral';
import type { Services } from '../services';

/** The invite check answers only valid or invalid; this bounds guessing codes from one address. */
const INVITE_CHECKS_PER_MINUTE = 30;

export function referralRoutes(app: FastifyInstance, s: Services) {
  const db = s.db;

  // From memory while the user's referral figures do not change (http/user-reads.ts).
  addRoute(app, apiRoutes.referrals, async ({ auth, req }) => s.reads.read(auth.user.id, req, () => referralOverview(db, s.prices, auth.user, s.config.publicUrl, s.figures)));

  addRoute(app, apiRoutes.referralsHarvest, async ({ auth }) => harvest(db, auth.user.id));

  addRoute(app, apiRoutes.referralsProgress, async ({ auth }) => rankProgress(db, s.prices, auth.user.id));

  addRoute(app, apiRoutes.referralsAffiliates, async ({ auth, query }) => affiliates(db, s.prices, auth.user.id, query));

  addRoute(app, apiRoutes.referralsInvite, async ({ params }) => inviteValid(db, params.code), {
    rateLimit: { max: INVITE_CHECKS_PER_MINUTE, timeWindow: '1 minute' },
  });

  addRoute(app, apiRoutes.referralsWithdraw, async ({ auth }) => {
    await claimNext(db, auth.user.id, s.config.deposits.chainId);
    s.jobs.kick('payouts');
    return { message: M.withdrawalSent };
  });
}
