import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '@app/contracts';
import { submitDeposit } from '../deposits';
import { langOf } from '../http/lang';
import { addRoute } from '../http/route';
import { balanceHistory, sharedReads } from '../portfolio';
import { requestWithdrawal, withdrawalAccepted, withdrawalList, withdrawalQuote, withdrawRules } from '../payouts';
import { dashboardPool, poolAssetsOf, poolGraph, poolRow, poolsOverview, poolStrategy, yieldOf } from '../pools';
import type { Services } from '../services';
import { heldUntil } from '../settings';

export function investRoutes(app: FastifyInstance, s: Services) {
  const db = s.db;
  const chainId = s.config.deposits.chainId;
  // The kept read takes the figures everyone shares from memory; the refresh reads them too.
  const [shared, fresh] = [sharedReads(db, s.prices, s.figures), sharedReads(db, s.prices)];

  addRoute(app, apiRoutes.balance, async ({ query, auth }) => balanceHistory(db, auth.user.id, query));

  // From memory while the user's rows do not change (http/user-reads.ts); the refresh below always reads.
  addRoute(app, apiRoutes.dashboardPool, async ({ params, query, auth, req }) =>
    s.reads.read(auth.user.id, req, () => dashboardPool(db, shared, chainId, auth.user.id, params.pool, query.currency)),
  );
  addRoute(app, apiRoutes.dashboardRefreshPool, async ({ params, query, auth }) =>
    dashboardPool(db, fresh, chainId, auth.user.id, params.pool, query.currency),
  );

  addRoute(app, apiRoutes.dashboardYield, async ({ auth }) => yieldOf(db, auth.user.id));

  addRoute(app, apiRoutes.dashboardWithdraw, async ({ body, auth }) => {
    await poolRow(db, body.pool);
    const until = heldUntil(auth.user);
    const w = await requestWithdrawal(db, auth.user.id, body, until ? { until, notice: s.returnNotice } : undefined);
    s.jobs.kick('payouts');
    if (until) void s.mailer.poll();
    return withdrawalAccepted(w, until);
  });

  addRoute(app, apiRoutes.dashboardWithdrawals, async ({ query, auth }) =>
    withdrawalList(db, auth.user.id, query.pool, s.config.money.payoutConfirmations, heldUntil(auth.user)),
  );

  addRoute(app, apiRoutes.dashboardWithdrawQuote, async ({ query, auth }) =>
    withdrawalQuote(db, auth.user.id, query.currency, BigInt(query.amount), heldUntil(auth.user)),
  );

  addRoute(app, apiRoutes.dashboardWithdrawRules, async () => withdrawRules(db));

  addRoute(app, apiRoutes.dashboardDeposit, async ({ body, auth }) => {
    const { answer, creditNow } = await submitDeposit(s.deposits, auth.user, body);
    if (creditNow) s.jobs.kick('deposits');
    return answer;
  },
    // Each call costs 3-4 reads from the chain's node: a tighter limit than the global one.
    { rateLimit: { max: 20, timeWindow: '1 minute' } },
  );

  addRoute(app, apiRoutes.dashboardDeposits, async ({ query, auth }) => ({
    items: await s.deposits.list(auth.user.id, query),
    confirmationsRequired: s.config.deposits.confirmations,
  }));

  addRoute(app, apiRoutes.poolsOverview, async ({ req }) => poolsOverview(db, s.prices, langOf(req)));

  addRoute(app, apiRoutes.poolAssets, async ({ params }) => poolAssetsOf(db, chainId, params.pool));

  addRoute(app, apiRoutes.poolStrategy, async ({ req, params }) => poolStrategy(db, params.pool, langOf(req)));

  addRoute(app, apiRoutes.poolGraph, async ({ params, query }) => poolGraph(db, s.prices, params.pool, query.range));
}
