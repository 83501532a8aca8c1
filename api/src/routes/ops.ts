import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@app/contracts';
import { ping } from '../db/client';
import type { Services } from '../services';

export function opsRoutes(app: FastifyInstance, s: Services) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const started = Date.now();

  r.get(
    '/api/health',
    { schema: { tags: ['ops'], summary: 'Liveness and database reachability', response: { 200: healthResponseSchema, 503: healthResponseSchema } }, config: { rateLimit: false } },
    async (_req, reply) => {
      const up = await ping(s.db);
      reply.code(up ? 200 : 503);
      return { status: up ? ('ok' as const) : ('degraded' as const), database: up ? ('up' as const) : ('down' as const), uptimeSeconds: Math.round((Date.now() - started) / 1000) };
    },
  );
}
