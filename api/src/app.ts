import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { apiBasePath, apiMessages as M } from '@app/contracts';
import type { AppConfig } from './config';
import { openDatabase, type Database } from './db/client';
import { seed } from './db/seed';
import { ApiError, badRequest, errorHandler, unauthorized } from './http/errors';
import { clientKey } from './http/client-key';
import { rateLimitStore } from './http/rate-store';
import { loggableError, nestsDeeper, nulPath } from './http/input';
import { authRoutes } from './routes/auth';
import { catalogRoutes } from './routes/catalog';
import { daoRoutes } from './routes/dao';
import { investRoutes } from './routes/invest';
import { operatorRoutes } from './operator/routes';
import { cameThroughOperatorPort, isOperatorPath } from './operator';
import { opsRoutes } from './routes/ops';
import { profileRoutes } from './routes/profile';
import { referralRoutes } from './routes/referrals';
import { cabinetRoutes } from './routes/cabinet';
import { reservesRoutes } from './routes/reserves';
import { defineJobs } from './jobs';
import { settingsRoutes } from './routes/settings';
import { solvencyRoutes } from './routes/solvency';
import { createServices, type Services } from './services';
import './zod-english';

export type BuildOptions = {
  /** An already open database (tests share one per file); otherwise opened from the config. */
  database?: Database;
  /** Pino options or false; defaults to JSON logs at the configured level. */
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (tests read what would be logged). */
  logStream?: { write: (line: string) => void };
};

export type App = FastifyInstance & { services: Services };

/**
 * Builds the API: opens and migrates the database, seeds reference rows, registers every route.
 * Closing the app closes the database it opened.
 */
export async function buildServer(config: AppConfig, opts: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // No log line may carry a secret: a failed query's parameters (hashes, e-mails) are dropped.
      serializers: { err: loggableError },
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimit,
    // Request ids in every log line and in the x-request-id answer header, to find a failure.
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
    // Errors the router raises before any route (bad URL, an over-long path parameter) get the
    // standard error body too.
    frameworkErrors: (err, req, reply) => errorHandler(err, req, reply),
  });
  const database =
    opts.database ?? (await openDatabase(config.database, { onIdleError: (err) => app.log.warn({ err }, 'idle database connection lost') }));
  if (!opts.database) app.addHook('onClose', () => database.close());
  await seed(database.db, { localChain: config.localChain });

  const services = createServices(config, database.db, app.log);
  // The cached reads hear the database's notifies of changed users (on every replica).
  await services.reads.listen(database);
  app.decorate('rateLimitMultiplier', config.rateLimit.multiplier);
  app.decorateRequest('auth', null);
  app.decorate('authenticate', async (req) => {
    const bearer = /^Bearer ([A-Za-z0-9._-]+)$/.exec(req.headers.authorization ?? '')?.[1];
    const claims = bearer ? await services.access.verify(bearer) : null;
    if (!claims) throw unauthorized(M.loginRequired);
    // A revoked or expired session ends its access tokens at once, not when they would expire.
    const user = await services.sessions.userOf(claims.sid, claims.sub);
    if (!user) throw unauthorized(M.sessionExpired, 'SESSION_ENDED');
    req.auth = { user, sessionId: claims.sid };
  });

  // Fastify's own JSON parser (prototype poisoning refused), behind a linear depth check.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (nestsDeeper(body as string)) return done(badRequest(M.invalidFields, 'BAD_REQUEST'), undefined);
    parseJson(req, body as string, done);
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((req, reply) => errorHandler(new ApiError(404, M.notFound, 'NOT_FOUND'), req, reply));
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // An answer to a caller who identified itself is that caller's alone: no browser or proxy
    // keeps it (a route that sets its own policy, e.g. the versioned avatars, keeps that).
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // A user's own write shows at once in their next read on this replica; and whoever's answers
      // a write changed (a referrer's, everyone's), a read this replica serves after it is fresh.
      if (req.auth) services.reads.evict(req.auth.user.id);
      await services.reads.caughtUp();
    }
    if ((req.auth || req.headers.authorization || req.headers['x-operator-key'] || isOperatorPath(req.url)) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  if (config.operatorPort !== null) {
    // The operator API has a port of its own: neither port answers the other's calls.
    app.addHook('onRequest', async (req) => {
      if (isOperatorPath(req.url) !== cameThroughOperatorPort(req.raw)) throw new ApiError(404, M.notFound, 'NOT_FOUND');
    });
  }
  app.addHook('preValidation', async (req) => {
    // A call with a body schema but no body gets field messages, not a bare "expected object".
    if (req.body === undefined && (req.method === 'POST' || req.method === 'PUT')) req.body = {};
    // NUL cannot be stored: refused here for every call, with the field it was found in.
    for (const part of [req.body, req.query, req.params]) {
      const field = nulPath(part);
      if (field !== undefined) throw badRequest(M.invalidFields, 'VALIDATION', { [field]: M.invalidValue });
    }
  });

  await app.register(helmet, {
    // JSON API: the only HTML is the docs page, which swagger-ui gives its own policy.
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  await app.register(cors, { origin: config.corsOrigins.length ? config.corsOrigins : false, credentials: true });
  await app.register(cookie);
  await app.register(rateLimit, {
    global: true,
    max: Math.round(600 * config.rateLimit.multiplier),
    timeWindow: '1 minute',
    keyGenerator: clientKey,
    store: rateLimitStore(services.counters),
    errorResponseBuilder: () => new ApiError(429, M.tooManyRequests, 'RATE_LIMITED'),
  });

  // The docs map every call: production serves them only when asked (API_DOCS=true).
  if (config.apiDocs) await registerDocs(app);

  await app.register(
    async (v1) => {
      authRoutes(v1, services);
      profileRoutes(v1, services);
      catalogRoutes(v1, services);
      investRoutes(v1, services);
      referralRoutes(v1, services);
      daoRoutes(v1, services);
      settingsRoutes(v1, services);
      operatorRoutes(v1, services);
      reservesRoutes(v1, services);
      cabinetRoutes(v1, services);
      solvencyRoutes(v1, services);
    },
    { prefix: apiBasePath },
  );
  opsRoutes(app, services);

  defineJobs(services);
  // Starts once listening (or ready, in tests): a pending deposit is credited after a restart too.
  app.addHook('onReady', async () => services.jobs.start());
  app.addHook('onClose', async () => {
    await services.jobs.stop();
    await services.depositJob.stop();
    services.chain.destroy();
    await services.background.idle();
    await services.mailer.stop();
    await services.reads.close();
  });
  app.decorate('services', services);
  return app as unknown as App;
}

async function registerDocs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Wallet invest API', version: '1.0.0', description: 'Accounts, sessions, wallet sign-in (EIP-4361), pools.' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
