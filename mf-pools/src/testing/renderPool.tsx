import type { ReactElement } from 'react';
import { renderRemote, type RemoteSetup, type RenderedRemote } from '@app/ui/testing';
import { POOL_NAMES, type DashboardPoolResponse } from '@app/contracts';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';

export { deferred, shellApiError } from '@app/ui/testing';

export type PoolSetup = Omit<RemoteSetup, 'namespace' | 'strings' | 'path'>;
export type RenderedPool = RenderedRemote;

/** A part of this remote as the shell mounts it on /cabinet/pools/coin, for a signed-in user. */
export function renderPool(ui: ReactElement, setup: PoolSetup = {}): RenderedPool {
  return renderRemote(ui, {
    namespace: 'pools',
    strings: { en, ru },
    path: '/cabinet/pools/coin',
    session: { status: 'authenticated', user: { id: 'u1', login: 'ann@example.com', role: 'user' } },
    ...setup,
  });
}

/** A pool answer as GET /dashboard/pools/{pool} gives it. */
export function poolAnswer(pool: DashboardPoolResponse['pool'], coins: Record<string, { address: string; price: string; deposited?: string }>): DashboardPoolResponse {
  const entries = Object.entries(coins);
  return {
    pool,
    title: `${pool} pool`,
    apyBps: 1200,
    addresses: Object.fromEntries(entries.map(([c, v]) => [c, v.address])),
    estimate: Object.fromEntries(entries.map(([c, v]) => [c, v.price])),
    deposited: Object.fromEntries(entries.map(([c, v]) => [c, v.deposited ?? '0'])),
    earned: Object.fromEntries(entries.map(([c]) => [c, '0'])),
  };
}

/** What the pool page reads besides the pool itself, answered as a user with nothing in the pools. */
export const insightAnswers = {
  cabinetSummary: async () => ({
    asOf: '2026-01-31',
    totals: { valueUsd: '0.00', principalUsd: '0.00', profitUsd: '0.00', interestUsd: { all: '0.00', day: '0.00', month: '0.00' } },
    currencies: [],
    pools: POOL_NAMES.map((pool) => ({ pool, title: pool, riskLevel: 'low', apy: '0.08', apr: '0.076961', tvlUsd: '0.00', currencies: ['ETH'], positions: [], valueUsd: '0.00' })),
    dailyRewards: { day: null, items: [] },
    decimals: { ETH: 18, USDT: 6 },
    tutorialDismissed: false,
    empty: true,
    revision: '0',
  }),
  cabinetRevision: async () => ({ revision: '0' }),
  dashboardWithdrawals: async () => ({ items: [] }),
  dashboardWithdrawRules: async () => ({
    currencies: [
      { currency: 'ETH', minimum: '1000000000000000', fee: '0' },
      { currency: 'USDT', minimum: '1000000', fee: '0' },
    ],
    perHour: 5,
    perDay: 10,
  }),
  // No fee and no approval unless a test says otherwise: what arrives is what is withdrawn.
  dashboardWithdrawQuote: async (request: unknown) => {
    const { amount } = (request as { query: { amount: string } }).query;
    return { fee: '0', receive: amount, approvalRequired: false };
  },
  poolAssets: async () => ({ pool: 'coin' as const, assets: [] }),
  poolStrategy: async () => ({ pool: 'coin' as const, title: 'Coin pool', description: 'ETH staked and lent.', riskLevel: 'medium' }),
  poolGraph: async () => ({ pool: 'coin' as const, range: 'All' as const, points: [] }),
};
