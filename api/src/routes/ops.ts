import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponseSchema, outboxQuerySchema, outboxResponseSchema } from '@app/contracts';
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

  // The mails of the local stack, for people trying the site and the browser tests. Holds codes:
  // never registered in production.
  if (s.config.devOutbox) {
    r.get(
      '/api/dev/outbox',
      { schema: { tags: ['dev'], summary: 'Mails sent (development only), newest first', querystring: outboxQuerySchema, response: { 200: outboxResponseSchema } }, config: { rateLimit: false } },
      async (req) => {
        // Mail is written after the answer of the call that sent it: wait for it, so a reader
        // right after that call finds it.
        await s.background.idle();
        const rows = await s.mailer.list(req.query.to);
        return {
          items: rows.map((m) => ({
            id: m.id,
            to: m.to,
            subject: m.subject,
            text: m.text,
            html: m.html,
            lang: m.lang,
            kind: m.kind,
            code: m.code,
            status: m.status,
            createdAt: m.createdAt.toISOString(),
          })),
        };
      },
    );
  }
}
