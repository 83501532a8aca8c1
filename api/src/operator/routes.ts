import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { poolNameSchema } from '@app/contracts';
import { badRequest } from '../http/errors';
import { accrueUntil, apyHistory, setApy, utcDay } from '../interest';
import { checkLedger } from '../ledger';
import type { Services } from '../services';
import { audit } from './audit';
import { operatorGuard } from './auth';

const isoDay = z.iso.date({ error: 'expected a calendar date YYYY-MM-DD' });
const apyBody = z.object({ pool: poolNameSchema, apy: z.string().check(z.maxLength(30)), effectiveFrom: z.optional(isoDay) });
const accrueBody = z.object({ until: isoDay });

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
    return setApy(s.db, actor(req), req.body.pool, req.body.apy, req.body.effectiveFrom ?? today, today);
  });

  r.post('/operator/accrue', { ...opts, schema: { ...schema, body: accrueBody } }, async (req) => {
    const until = req.body.until;
    const today = utcDay(new Date());
    // In production only closed days accrue; elsewhere a future day lets people see a month at once.
    if (!s.config.money.allowFutureAccrual && until >= today) {
      throw badRequest(`only closed days accrue: --until must be before ${today}`, 'DAY_NOT_CLOSED', { until: 'only closed days accrue' });
    }
    const result = await s.jobs.runNow('interest', ({ renew }) => accrueUntil(s.db, until, renew));
    const pools = Array.isArray(result) ? result : [];
    await audit(s.db, { actor: actor(req), action: 'interest.accrue', target: until, after: { pools } });
    return { until, pools, skipped: Array.isArray(result) ? null : 'another replica is accruing; try again shortly' };
  });
}
