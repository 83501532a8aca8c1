import * as K from './cabinet';
import type { RouteDef } from './routes';

/**
 * The dashboard's calls, apart from the other calls' schemas: the API client loads these alone
 * (a small chunk) when the dashboard first calls, so its first load carries no other screen's.
 */
export const cabinetRoutes = {
  cabinetSummary: { method: 'GET', path: '/cabinet/summary', auth: true, summary: 'Dashboard: totals, a card per pool, daily rewards, tutorial state', response: K.cabinetSummaryResponseSchema },
  cabinetActivity: { method: 'GET', path: '/cabinet/activity', auth: true, summary: 'Deposits, daily interest and withdrawals, newest first, a page at a time', query: K.activityQuerySchema, response: K.activityResponseSchema },
  cabinetActivityExport: { method: 'GET', path: '/cabinet/activity/export', auth: true, summary: 'All activity as CSV (format=koinly: a tax tool\'s layout with USD values and running balances)', query: K.activityExportQuerySchema, response: K.activityExportResponseSchema },
  cabinetTutorial: { method: 'PUT', path: '/cabinet/tutorial', auth: true, summary: 'Dismiss or bring back the first-steps tutorial', body: K.tutorialBodySchema, response: K.tutorialResponseSchema },
  cabinetRevision: { method: 'GET', path: '/cabinet/revision', auth: true, summary: 'Changes when a deposit, interest or withdrawal moves (polled by open pages)', response: K.cabinetRevisionResponseSchema },
} as const satisfies Record<string, RouteDef>;

export type CabinetRouteName = keyof typeof cabinetRoutes;
