import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { floatRefillBodySchema, operatorIdParams } from '@app/contracts';
import type { Services } from '../services';
import type { Approver } from './approvals';
import { approveRefill, listRefills, requestRefill } from './refills';

/**
 * Custody under /api/v1/operator/custody (issue 26; the CLI's `custody …`): the custody addresses
 * and the float's refills; a sweep on demand, under the sweep job's lease.
 */
export function custodyOperatorRoutes(
  app: FastifyInstance,
  s: Services,
  opts: { onRequest: onRequestHookHandler; schema: Record<string, unknown> },
  approver: (req: { operator: { actor: string; operator: { id: string } } | null }) => Approver,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/operator/custody', opts, async () => ({ addresses: s.signer ? await s.signer.addresses() : null, ...(await listRefills(s.db)) }));
  r.post('/operator/custody/sweep', opts, async () => s.jobs.runNow('custody', () => s.sweeps.run()));
  r.post('/operator/custody/refills', { ...opts, schema: { ...opts.schema, body: floatRefillBodySchema } }, async (req) => requestRefill(s.db, approver(req), s.config.deposits.chainId, req.body));
  r.post('/operator/custody/refills/:id/approve', { ...opts, schema: { ...opts.schema, params: operatorIdParams } }, async (req) => approveRefill(s.db, approver(req), req.params.id));
}
