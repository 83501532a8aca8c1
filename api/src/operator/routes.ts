import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { checkLedger } from '../ledger';
import type { Services } from '../services';
import { operatorGuard } from './auth';

/**
 * The operator's calls under /api/v1/operator (the CLI's only way in). Every change is written to
 * the audit log with who, what, when, before and after.
 */
export function operatorRoutes(app: FastifyInstance, s: Services) {
  app.decorateRequest('operator', null);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = operatorGuard(s.config.operatorKey, app.authenticate);
  const opts = { onRequest: guard, schema: { tags: ['operator'], security: [{ bearerAuth: [] }] } };

  r.get('/operator/ledger/check', opts, async () => checkLedger(s.db));
}
