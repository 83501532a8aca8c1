/** @jest-environment jsdom */
import { screen } from '@testing-library/react';
import type { PoolsOverviewResponse } from '@app/contracts';
import { renderPage } from '../testing/renderPage';
import { HomePage } from './HomePage';

const overview: PoolsOverviewResponse = {
  asOf: '2026-11-25',
  pools: [{ pool: 'coin', title: 'Coin', description: 'Staking.', riskLevel: 'medium', riskReason: 'Prices move.', apy: '0.08', apr: '0.076961', tvlUsd: '4750.00', currencies: ['ETH'] }],
  depositFee: '0',
  withdrawal: [],
  decimals: { ETH: 18 },
};
const api = {
  poolsOverview: async () => overview,
  poolReserves: async () => ({ pool: 'coin', items: [], checkedAt: '2026-11-25T00:00:00.000Z' }),
};

describe('the home page (issue 27, finding 1)', () => {
  it.each([
    ['en', 'Proof of solvency: what we owe against what we hold, checkable by anyone'],
    ['ru', 'Доказательство платёжеспособности: что мы должны и что у нас есть, проверить может любой'],
  ] as const)('finding 1: beside the reserves, links the public solvency page (%s)', async (lang, name) => {
    renderPage(<HomePage />, { path: lang === 'ru' ? '/ru' : '/', lang, api });
    const link = await screen.findByRole('link', { name });
    expect(link.getAttribute('href')).toBe(lang === 'ru' ? '/ru/solvency' : '/solvency');
  });
});
