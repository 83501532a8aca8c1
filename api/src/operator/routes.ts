import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  apiMessages as M,
  accrueBodySchema,
  alertsQuerySchema,
  apyBodySchema,
  assignBodySchema,
  auditQuerySchema,
  claimQuerySchema,
  limitsBodySchema,
  operatorIdParams,
  operatorSignInSchema,
  operatorWithdrawalsQuery,
  payoutRuleBodySchema,
  poolNameSchema,
  rejectBodySchema,
  solvencyAttestBodySchema,
  userLookupQuery,
} from '@app/contracts';
import { approveWithdrawal, cancelWithdrawal, custodyOperatorRoutes, operatorWithdrawals, rejectWithdrawal, setPayoutRule, setWithdrawalLimits } from '../payouts';
import { apyHistory, setApy, utcDay } from '../interest';
import { referralOperatorRoutes } from '../referral/operator-routes';
import { accrueAsOperator } from '../referral';
import { checkLedger, checkLedgerIncremental, reconcile } from '../ledger';
import type { Services } from '../services';
import { assignUnclaimed, claimMessage, listUnclaimed } from '../watcher';
import { listAlerts } from '../db/alerts';
import { ApiError } from '../http/errors';
import { attestControl, listSnapshots, snapshotById, snapshotSettings, takeSnapshot, type SnapshotTaken } from '../solvency';
import { operatorGuard } from './auth';
import { auditEntries, verifyAuditChain } from './audit-log';
import { endOperatorSession, signInOperator } from './identity';
import { lookUpUser } from './users';
import { overview } from './overview';
import { operatorConsoleRoutes } from './console-routes';

/** Only the fields given: an absent field leaves the setting as it is. */
const given = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };

/**
 * The operator's calls under /api/v1/operator (the console's and the command line's only way in),
 * each by a named operator; every change asks for a fresh TOTP code and is written to the audit
 * log with the operator, what, when, before and after.
 */
export function operatorRoutes(app: FastifyInstance, s: Services) {
  app.decorateRequest('operator', null);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const schema = { tags: ['operator'], security: [{ bearerAuth: [] }] };
  const opts = { onRequest: operatorGuard(s.db), schema };
  const actor = (req: { operator: { actor: string } | null }) => req.operator?.actor ?? 'unknown';
  const approver = (req: { operator: { actor: string; operator: { id: string } } | null }) => ({ id: req.operator!.operator.id, actor: actor(req) });

  r.post('/operator/session', { schema: { tags: ['operator'], body: operatorSignInSchema }, config: { rateLimit: { max: 10, timeWindow: '1 minute' } } }, async (req) =>
    signInOperator(s.db, s.hasher, req.body),
  );
  r.get('/operator/me', opts, async (req) => ({ id: req.operator!.operator.id, name: req.operator!.operator.name }));
  r.post('/operator/session/end', { schema: { tags: ['operator'] } }, async (req) => {
    const token = /^Operator (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (token) await endOperatorSession(s.db, token);
    return { ok: true };
  });

  r.get('/operator/ledger/check', { ...opts, schema: { ...schema, querystring: z.object({ full: z.optional(z.literal('yes')) }) } }, async (req) =>
    req.query.full ? checkLedger(s.db) : checkLedgerIncremental(s.db),
  );
  r.get('/operator/overview', opts, async () => overview(s.db, s.chain, s.config.deposits.chainId));

  r.get('/operator/apy', { ...opts, schema: { ...schema, querystring: z.object({ pool: z.optional(poolNameSchema) }) } }, async (req) => ({
    items: await apyHistory(s.db, req.query.pool),
  }));

  // An APY, an approval threshold, the withdrawal limits or a referral version moves money: beyond
  // the local chain (`npm start`, the tests' set-up) it changes only through a proposal another
  // operator approves (setting-changes.ts).
  const fourEyesOnly = () => {
    if (!s.config.localChain) throw new ApiError(403, M.settingFourEyesOnly, 'FOUR_EYES_REQUIRED');
  };

  r.post('/operator/apy', { ...opts, schema: { ...schema, body: apyBodySchema } }, async (req) => {
    fourEyesOnly();
    const today = utcDay(new Date());
    return setApy(s.db, actor(req), req.body.pool, req.body.apy, req.body.effectiveFrom ?? today);
  });

  r.post('/operator/accrue', { ...opts, schema: { ...schema, body: accrueBodySchema } }, async (req) => accrueAsOperator(s, actor(req), req.body.until));

  r.get('/operator/withdrawals', { ...opts, schema: { ...schema, querystring: operatorWithdrawalsQuery } }, async (req) =>
    operatorWithdrawals(s.db, req.query, s.config.money.payoutConfirmations),
  );

  r.post('/operator/withdrawals/:id/approve', { ...opts, schema: { ...schema, params: operatorIdParams } }, async (req) => {
    const done = await approveWithdrawal(s.db, approver(req), req.params.id);
    if (done.status === 'requested') s.jobs.kick('payouts');
    return done;
  });

  r.post('/operator/withdrawals/:id/reject', { ...opts, schema: { ...schema, params: operatorIdParams, body: rejectBodySchema } }, async (req) =>
    rejectWithdrawal(s.db, s.returnNotice, actor(req), req.params.id, req.body.reason),
  );

  r.post('/operator/withdrawals/:id/cancel', { ...opts, schema: { ...schema, params: operatorIdParams } }, async (req) => {
    const done = await cancelWithdrawal(s.db, s.returnNotice, actor(req), req.params.id);
    s.jobs.kick('payouts');
    return done;
  });

  r.get('/operator/alerts', { ...opts, schema: { ...schema, querystring: alertsQuerySchema } }, async (req) => ({ items: await listAlerts(s.db, req.query.all === 'true') }));

  r.post('/operator/treasury', opts, async () => {
    const result = (await s.jobs.runNow('treasury', () => s.treasury.run())) as Awaited<ReturnType<typeof s.treasury.run>> | undefined;
    return { treasury: s.treasury.address, items: result?.checked ?? [], funded: result?.funded ?? 0, short: result?.short ?? 0 };
  });

  r.post('/operator/payouts', { ...opts, schema: { ...schema, body: payoutRuleBodySchema } }, async (req) => {
    const { currency, ...change } = req.body;
    if (change.approvalThreshold !== undefined || change.dualApprovalThreshold !== undefined) fourEyesOnly();
    return setPayoutRule(s.db, actor(req), currency, given(change));
  });

  r.post('/operator/payouts/limits', { ...opts, schema: { ...schema, body: limitsBodySchema } }, async (req) => {
    fourEyesOnly();
    return setWithdrawalLimits(s.db, actor(req), given(req.body));
  });

  r.get('/operator/unclaimed', opts, async () => ({ items: await listUnclaimed(s.db) }));

  const claims = { brands: s.config.brands, publicUrl: s.config.publicUrl };
  r.get('/operator/unclaimed/:id/claim-message', { ...opts, schema: { ...schema, params: operatorIdParams, querystring: claimQuerySchema } }, async (req) =>
    claimMessage(s.db, claims, req.params.id, req.query.account, req.query.pool),
  );

  r.post('/operator/unclaimed/:id/assign', { ...opts, schema: { ...schema, params: operatorIdParams, body: assignBodySchema } }, async (req) => {
    const { account, pool, message, signature } = req.body;
    const r2 = await assignUnclaimed(s.db, claims, actor(req), req.params.id, account, pool, { message, signature });
    s.jobs.kick('deposits');
    return r2;
  });

  referralOperatorRoutes(app, s.db, opts, actor, fourEyesOnly);
  operatorConsoleRoutes(app, s.db, opts, approver);
  custodyOperatorRoutes(app, s, opts, approver);

  // Proof of solvency: a snapshot on demand under the daily job's lease, so two never build at once.
  r.post('/operator/solvency/snapshot', opts, async (req) => {
    const result = (await s.jobs.runNow('solvency', () => takeSnapshot(s.db, s.chain, snapshotSettings(s), { actor: actor(req) }))) as
      | SnapshotTaken
      | { skipped: string };
    if ('skipped' in result) throw new ApiError(409, result.skipped, 'SOLVENCY_BUSY');
    return result;
  });
  r.get('/operator/solvency', opts, async () => ({ items: await listSnapshots(s.db) }));
  r.get('/operator/solvency/:id', { ...opts, schema: { ...schema, params: operatorIdParams } }, async (req) => snapshotById(s.db, req.params.id));
  // The cold address's proof of control, signed offline by its key holder (attest.ts).
  r.post('/operator/solvency/:id/attest', { ...opts, schema: { ...schema, params: operatorIdParams, body: solvencyAttestBodySchema } }, async (req) =>
    attestControl(s.db, s.chain, { actor: actor(req) }, req.params.id, req.body.address, req.body.signature),
  );

  r.get('/operator/reconcile', opts, async () => ({ items: await reconcile(s.db, s.chain, s.config.deposits.chainId) }));

  r.get('/operator/audit', { ...opts, schema: { ...schema, querystring: auditQuerySchema } }, async (req) => ({ items: await auditEntries(s.db, req.query) }));
  r.get('/operator/audit/verify', opts, async () => verifyAuditChain(s.db));
  r.get('/operator/users', { ...opts, schema: { ...schema, querystring: userLookupQuery } }, async (req) => lookUpUser(s.db, actor(req), req.query.q));
}
