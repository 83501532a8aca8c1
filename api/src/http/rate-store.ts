import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Counters } from '../auth';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];

// The plugin's own in-memory store (it is not among the package's typed exports): the global flood
// guard stays in each process, where a write to the database per request would cost more than it guards.
const LocalStore = createRequire(__filename)('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding?: boolean,
  exponentialBackoff?: boolean,
  cache?: number,
) => FastifyRateLimitStore;

/** A route's own limit, counted in the database: every replica adds to the same count. */
class RouteCounters implements FastifyRateLimitStore {
  constructor(
    private readonly counters: Counters,
    private readonly route: string,
  ) {}

  // The client's address is kept hashed with the route, never in the clear.
  private key(client: string) {
    return `route:${createHash('sha256').update(this.route).update('\0').update(client).digest('base64url')}`;
  }

  incr(client: string, cb: Callback, timeWindow: number) {
    this.counters.take(this.key(client), timeWindow / 1000).then(
      ({ count, ttlMs }) => cb(null, { current: count, ttl: ttlMs }),
      (err: Error) => cb(err),
    );
  }

  child() {
    return this;
  }
}

/**
 * The rate limits' store. A route's own limit (sign-in, codes, mail, proofs) is counted in the
 * database, so it holds however many API processes serve; the global limit is counted per process.
 */
export function rateLimitStore(counters: Counters): FastifyRateLimitStoreCtor {
  return class RateLimitStore implements FastifyRateLimitStore {
    private readonly local: FastifyRateLimitStore;
    constructor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      this.local = new LocalStore(options.continueExceeding, options.exponentialBackoff);
    }
    incr(client: string, cb: Callback, timeWindow: number, max: number) {
      this.local.incr(client, cb, timeWindow, max);
    }
    /** The plugin passes the route it is for as `routeInfo`, beside the merged limit options. */
    child(options: RouteOptions) {
      const { method, url } = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
      return new RouteCounters(counters, `${[method ?? ''].flat().join(',')} ${url ?? ''}`);
    }
  };
}
