import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';
import { apiMessages as M, errorResponseSchema, type ApiRoutes } from '@app/contracts';
import type { SessionUser } from '../auth';
import { ApiError } from './errors';

type RouteDef = ApiRoutes[keyof ApiRoutes];
type Out<S> = S extends z.ZodMiniType ? z.output<S> : undefined;
type Field<R, K extends string> = R extends Record<K, infer S> ? Out<S> : undefined;

export type AuthInfo = { user: SessionUser; sessionId: string };

export type RouteContext<R extends RouteDef> = {
  body: Field<R, 'body'>;
  query: Field<R, 'query'>;
  params: Field<R, 'params'>;
  req: FastifyRequest;
  reply: FastifyReply;
  auth: R['auth'] extends true ? AuthInfo : AuthInfo | null;
};

export type RouteOptions = {
  /** Per-IP limit for this route: requests per window (before the configured multiplier). */
  rateLimit?: { max: number; timeWindow: string };
  /**
   * An account whose e-mail is not confirmed yet (no role) may call it. Authenticated calls refuse
   * such accounts unless marked, so a call added later is closed to them by default.
   */
  allowUnconfirmed?: true;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
  interface FastifyInstance {
    authenticate: (req: FastifyRequest) => Promise<void>;
    rateLimitMultiplier: number;
  }
}

const errorResponses = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 429: errorResponseSchema };

/** The role check of every authenticated call, after the session check. */
const requireConfirmed = async (req: FastifyRequest) => {
  if (!req.auth?.user.role) throw new ApiError(403, M.accountNotConfirmed, 'ACCOUNT_NOT_CONFIRMED');
};

/**
 * Registers a call of the shared contract: its schemas validate the request, serialise the
 * answer and document it in OpenAPI; calls marked `auth` get the bearer check first.
 */
export function addRoute<R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  handler: (ctx: RouteContext<R>) => Promise<z.input<R['response']>>,
  opts: RouteOptions = {},
) {
  const d = def as RouteDef & { body?: z.ZodMiniType; query?: z.ZodMiniType; params?: z.ZodMiniType };
  app.withTypeProvider<ZodTypeProvider>().route({
    method: d.method,
    url: d.path,
    schema: {
      summary: d.summary,
      tags: [d.path.split('/')[1] ?? 'api'],
      ...(d.auth ? { security: [{ bearerAuth: [] }] } : {}),
      ...(d.body ? { body: d.body } : {}),
      ...(d.query ? { querystring: d.query } : {}),
      ...(d.params ? { params: d.params } : {}),
      response: { 200: d.response, ...errorResponses },
    },
    config: opts.rateLimit
      ? {
          rateLimit: {
            max: Math.max(1, Math.round(opts.rateLimit.max * app.rateLimitMultiplier)),
            timeWindow: opts.rateLimit.timeWindow,
          },
        }
      : {},
    // Before the body is read: a caller without a session learns nothing about the call.
    ...(d.auth ? { onRequest: opts.allowUnconfirmed ? [app.authenticate] : [app.authenticate, requireConfirmed] } : {}),
    handler: async (req, reply) =>
      handler({
        body: req.body as Field<R, 'body'>,
        query: req.query as Field<R, 'query'>,
        params: req.params as Field<R, 'params'>,
        req,
        reply,
        auth: req.auth as RouteContext<R>['auth'],
      }),
  });
}
