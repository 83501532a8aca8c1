import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { baseUnitsSchema, currencyCodeSchema, poolNameSchema } from '@app/contracts';
import { approveWithdrawal, cancelWithdrawal, operatorWithdrawals, rejectWithdrawal, setPayoutRule, setWithdrawalLimits } from '../payouts';
import { apyHistory, setApy, utcDay } from '../interest';
import { referralOperatorRoutes } from '../referral/operator-routes';
import { accrueAsOperator } from '../referral';
import { checkLedger, reconcile } from '../ledger';
import type { Services } from '../services';
import { assignUnclaimed, claimMessage, listUnclaimed } from '../watcher';
import { listAlerts } from '../db/alerts';
import { ApiError } from '../http/errors';
import { listSnapshots, snapshotById, snapshotSettings, takeSnapshot, type SnapshotTaken } from '../solvency';
import { operatorGuard } from './auth';

const isoDay = z.iso.date({ error: 'expected a calendar date YYYY-MM-DD' });
const apyBody = z.object({ pool: poolNameSchema, apy: z.string().check(z.maxLength(30)), effectiveFrom: z.optional(isoDay) });
const accrueBody = z.object({ until: isoDay });
const idParams = z.object({ id: z.coerce.number().check(z.int(), z.positive(), z.lte(Number.MAX_SAFE_INTEGER)) });
const statusQuery = z.object({ status: z.optional(z.enum(['requested', 'awaiting_approval', 'waiting_funds', 'sending', 'cancelling', 'paid', 'returned'])) });
const alertsQuery = z.object({ all: z.optional(z.enum(['true', 'false'])) });
const rejectBody = z.object({ reason: z.optional(z.string().check(z.maxLength(500))) });
const claimTarget = { account: z.string().check(z.minLength(3), z.maxLength(320)), pool: poolNameSchema };
const claimQuery = z.object(claimTarget);
const assignBody = z.object({
  ...claimTarget,
  /** The EIP-4361 message of `claim-message`, signed by the sending wallet. */
  message: z.string().check(z.minLength(1), z.maxLength(2000)),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/, 'expected a 65-byte signature in hex')),
});
const payoutsBody = z.object({
  currency: currencyCodeSchema,
  fee: z.optional(baseUnitsSchema),
  minimum: z.optional(z.nullable(baseUnitsSchema)),
  approvalThreshold: z.optional(z.nullable(baseUnitsSchema)),
});
const count = z.int().check(z.positive(), z.lte(1_000_000));
const limitsBody = z.object({ perHour: z.optional(count), perDay: z.optional(count), windowHours: z.optional(z.int().check(z.positive(), z.lte(24 * 366))) });

/**
 * The operator's calls under /api/v1/operator (the CLI's only way in). Every change is written to
 * the audit log with who, what, when, before and after.
 */
export function operatorRoutes(app: FastifyInstance, s: Services) {
  app.decorateRequest('operator', null);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = operatorGuard(s.config.operatorKey, app.authenticate);
  const schema = { tags: ['operator'], security: [{ bearerAuth: [] }] };
  const opts = { onRequest: guard, schema };
  const actor = (req: { operator: { actor: string } | null }) => req.operator?.actor ?? 'unknown';

  r.get('/operator/ledger/check', opts, async () => checkLedger(s.db));

  r.get('/operator/apy', { ...opts, schema: { ...schema, querystring: z.object({ pool: z.optional(poolNameSchema) }) } }, async (req) => ({
    items: await apyHistory(s.db, req.query.pool),
  }));

  r.post('/operator/apy', { ...opts, schema: { ...schema, body: apyBody } }, async (req) => {
    const today = utcDay(new Date());
    return setApy(s.db, actor(req), req.body.pool, req.body.apy, req.body.effectiveFrom ?? today);
  });

  r.post('/operator/accrue', { ...opts, schema: { ...schema, body: accrueBody } }, async (req) => accrueAsOperator(s, actor(req), req.body.until));

  r.get('/operator/withdrawals', { ...opts, schema: { ...schema, querystring: statusQuery } }, async (req) =>
    operatorWithdrawals(s.db, req.query.status, s.config.money.payoutConfirmations),
  );

  r.post('/operator/withdrawals/:id/approve', { ...opts, schema: { ...schema, params: idParams } }, async (req) => {
    const done = await approveWithdrawal(s.db, actor(req), req.params.id);
    s.jobs.kick('payouts');
    return done;
  });

  r.post('/operator/withdrawals/:id/reject', { ...opts, schema: { ...schema, params: idParams, body: rejectBody } }, async (req) =>
    rejectWithdrawal(s.db, s.returnNotice, actor(req), req.params.id, req.body.reason),
  );

  r.post('/operator/withdrawals/:id/cancel', { ...opts, schema: { ...schema, params: idParams } }, async (req) => {
    const done = await cancelWithdrawal(s.db, s.returnNotice, actor(req), req.params.id);
    s.jobs.kick('payouts');
    return done;
  });

  r.get('/operator/alerts', { ...opts, schema: { ...schema, querystring: alertsQuery } }, async (req) => ({ items: await listAlerts(s.db, req.query.all === 'true') }));

  r.post('/operator/treasury', opts, async () => {
    const result = (await s.jobs.runNow('treasury', () => s.treasury.run())) as Awaited<ReturnType<typeof s.treasury.run>> | undefined;
    return { treasury: s.treasury.address, items: result?.checked ?? [], funded: result?.funded ?? 0, short: result?.short ?? 0 };
  });

  r.post('/operator/payouts', { ...opts, schema: { ...schema, body: payoutsBody } }, async (req) =>
    setPayoutRule(s.db, actor(req), req.body.currency, {
      ...(req.body.fee !== undefined ? { fee: req.body.fee } : {}),
      ...(req.body.minimum !== undefined ? { minimum: req.body.minimum } : {}),
      ...(req.body.approvalThreshold !== undefined ? { approvalThreshold: req.body.approvalThreshold } : {}),
    }),
  );

  r.post('/operator/payouts/limits', { ...opts, schema: { ...schema, body: limitsBody } }, async (req) => {
    const { perHour, perDay, windowHours } = req.body;
    return setWithdrawalLimits(s.db, actor(req), {
      ...(perHour !== undefined ? { perHour } : {}),
      ...(perDay !== undefined ? { perDay } : {}),
      ...(windowHours !== undefined ? { windowHours } : {}),
    });
  });

  r.get('/operator/unclaimed', opts, async () => ({ items: await listUnclaimed(s.db) }));

  const claims = { brands: s.config.brands, publicUrl: s.config.publicUrl };
  r.get('/operator/unclaimed/:id/claim-message', { ...opts, schema: { ...schema, params: idParams, querystring: claimQuery } }, async (req) =>
    claimMessage(s.db, claims, req.params.id, req.query.account, req.query.pool),
  );

  r.post('/operator/unclaimed/:id/assign', { ...opts, schema: { ...schema, params: idParams, body: assignBody } }, async (req) => {
    const { account, pool, message, signature } = req.body;
    const r2 = await assignUnclaimed(s.db, claims, actor(req), req.params.id, account, pool, { message, signature });
    s.jobs.kick('deposits');
    return r2;
  });

  referralOperatorRoutes(app, s.db, opts, actor);

  // Proof of solvency: a snapshot on demand under the daily job's lease, so two never build at once.
  r.post('/operator/solvency/snapshot', opts, async (req) => {
    const result = (await s.jobs.runNow('solvency', () => takeSnapshot(s.db, s.chain, snapshotSettings(s), { actor: actor(req) }))) as
      | SnapshotTaken
      | { skipped: string };
    if ('skipped' in result) throw new ApiError(409, result.skipped, 'SOLVENCY_BUSY');
    return result;
  });
  r.get('/operator/solvency', opts, async () => ({ items: await listSnapshots(s.db) }));
  r.get('/operator/solvency/:id', { ...opts, schema: { ...schema, params: idParams } }, async (req) => snapshotById(s.db, req.params.id));

  r.get('/operator/reconcile', opts, async () => ({ items: await reconcile(s.db, s.chain, s.config.deposits.chainId) }));
}
