import * as H from './home';
import type { RouteDef } from './routes';

/**
 * The public home page's calls, apart from the other calls' schemas: the API client loads these
 * alone (a small chunk), so a first visit carries no other screen's.
 */
export const homeRoutes = {
  poolsOverview: { method: 'GET', path: '/pools/overview', auth: false, summary: "The pools for a visitor: APY, APR, value locked on the books, risk and its reason, where the yield comes from, and the fees", response: H.poolsOverviewResponseSchema },
} as const satisfies Record<string, RouteDef>;

export type HomeRouteName = keyof typeof homeRoutes;
