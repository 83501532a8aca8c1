import * as z from 'zod/mini';
import * as H from './home';
import { poolNameSchema } from './common';
import type { RouteDef } from './routes';

/**
 * The public home page's calls, apart from the other calls' schemas: the API client loads these
 * alone (a small chunk), so a first visit carries no other screen's.
 */
export const homeRoutes = {
  poolsOverview: { method: 'GET', path: '/pools/overview', auth: false, summary: "The pools for a visitor: APY, APR, value locked on the books, risk and its reason, where the yield comes from, and the fees", response: H.poolsOverviewResponseSchema },
  // The home page shows the reserves too: their schema rides in this chunk, not with every other call's.
  poolReserves: { method: 'GET', path: '/pools/:pool/reserves', auth: false, summary: "The pool's reserves per currency, on chain and on the books", params: z.object({ pool: poolNameSchema }), response: H.poolReservesResponseSchema },
} as const satisfies Record<string, RouteDef>;

export type HomeRouteName = keyof typeof homeRoutes;
