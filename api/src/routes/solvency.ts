import type { FastifyInstance } from 'fastify';
import { apiMessages as M, apiRoutes } from '@app/contracts';
import { ApiError } from '../http/errors';
import { addRoute } from '../http/route';
import type { Services } from '../services';
import { listSnapshots, mine, proofOf, signerAddress, snapshotById } from '../solvency';

/** Proof of solvency: public snapshots and signer; a signed-in user's proof and nonce. */
export function solvencyRoutes(app: FastifyInstance, s: Services) {
  addRoute(app, apiRoutes.solvencyList, async () => ({ signer: await signerAddress(s), items: await listSnapshots(s.db) }));

  addRoute(app, apiRoutes.solvencySigner, async () => {
    const address = await signerAddress(s);
    if (!address) throw new ApiError(503, M.solvencyNoKey, 'SOLVENCY_NO_KEY');
    return { address };
  });

  addRoute(app, apiRoutes.solvencySnapshot, async ({ params }) => snapshotById(s.db, params.id));

  addRoute(app, apiRoutes.solvencyProof, async ({ auth, query }) => proofOf(s.db, auth.user.id, query.snapshot));

  addRoute(app, apiRoutes.solvencyMine, async ({ auth }) => mine(s.db, auth.user.id));
}
