import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '@app/contracts';
import { reconcile, type ReconcileRow } from '../ledger';
import { addRoute } from '../http/route';
import type { Services } from '../services';

/** Answers are kept this long: a public call must not become a way to load the node. */
const CACHE_MS = 10_000;

/** Public: each pool's reserves per currency, on chain and on the books (the reconciliation). */
export function reservesRoutes(app: FastifyInstance, s: Services) {
  const cache = new Map<string, { at: number; items: ReconcileRow[] }>();
  addRoute(app, apiRoutes.poolReserves, async ({ params }) => {
    let hit = cache.get(params.pool);
    if (!hit || Date.now() - hit.at > CACHE_MS) {
      hit = { at: Date.now(), items: await reconcile(s.db, s.chain, s.config.deposits.chainId, params.pool) };
      cache.set(params.pool, hit);
    }
    return {
      pool: params.pool,
      items: hit.items.map((r) => ({ currency: r.currency, address: r.address, onChain: r.onChain, books: r.books, difference: r.difference })),
      checkedAt: new Date(hit.at).toISOString(),
    };
  });
}
