import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '@app/contracts';
import { reconcile, type ReconcileRow } from '../ledger';
import { addRoute } from '../http/route';
import type { Services } from '../services';

/** Answers are kept this long: a public call must not become a way to load the node. */
const CACHE_MS = 10_000;

/** Public: each pool's reserves per currency, on chain and on the books (the reconciliation). */
export function reservesRoutes(app: FastifyInstance, s: Services) {
  // The promise is cached, not its answer: concurrent callers of a stale pool share one reconciliation.
  const cache = new Map<string, { at: number; items: Promise<ReconcileRow[]> }>();
  addRoute(app, apiRoutes.poolReserves, async ({ params }) => {
    let hit = cache.get(params.pool);
    if (!hit || Date.now() - hit.at > CACHE_MS) {
      const entry = { at: Date.now(), items: reconcile(s.db, s.chain, s.config.deposits.chainId, params.pool) };
      // A failure is not kept: the next caller tries again.
      entry.items.catch(() => cache.get(params.pool) === entry && cache.delete(params.pool));
      cache.set(params.pool, entry);
      hit = entry;
    }
    const items = await hit.items;
    return {
      pool: params.pool,
      items: items.map((r) => ({ currency: r.currency, address: r.address, onChain: r.onChain, books: r.books, difference: r.difference })),
      checkedAt: new Date(hit.at).toISOString(),
    };
  });
}
