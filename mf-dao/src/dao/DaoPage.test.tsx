/** @jest-environment jsdom */
import { screen, waitFor } from '@testing-library/react';
import { renderRemote } from '@app/ui/testing';
import type { DaoPersonalResponse, DaoPoolsResponse, DaoRewardsResponse } from '@app/contracts';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';
import { DaoPage } from './DaoPage';

const personal: DaoPersonalResponse = { votingPower: '1234.5', staked: '0', proposalsVoted: 0 };
const rewards: DaoRewardsResponse = { items: [], totalUsd: '1234567.891' };
// A negative figure only to show its sign survives: the old formatter dropped it ("$0.50").
const pools: DaoPoolsResponse = { items: [{ pool: 'coin', title: 'Coin pool', apyBps: 800, tvlUsd: '-0.5' }] };

const api = {
  daoPersonal: async () => personal,
  daoRewards: async () => rewards,
  daoPools: async () => pools,
  daoValues: async () => ({ values: {} }),
  daoProposals: async () => ({ items: [] }),
};

describe('the DAO page', () => {
  // The product's one dollar format: the spec's "$ " prefix, grouped digits, cents cut (never rounded up) to two.
  it.each([
    ['en', '$\u00a01,234.50', '$\u00a00.00', '$\u00a01,234,567.89', '-$\u00a00.50'],
    ['ru', '$\u00a01\u00a0234,50', '$\u00a00,00', '$\u00a01\u00a0234\u00a0567,89', '-$\u00a00,50'],
  ] as const)('one source per fact: its dollar amounts use the shared format (%s)', async (lang, power, staked, total, tvl) => {
    renderRemote(<DaoPage />, { namespace: 'dao', strings: { en, ru }, path: '/cabinet/dao', lang, api });
    await waitFor(() => expect(screen.getByTestId('voting-power').textContent).toBe(power));
    expect(screen.getByTestId('staked').textContent).toBe(staked);
    expect(screen.getByTestId('rewards').textContent).toBe(total);
    expect(screen.getByRole('cell', { name: tvl })).toBeTruthy();
  });
});

describe('DAO values in words (issue 27, finding 10)', () => {
  it.each([
    ['en', 'Quorum', '20\u00a0% of all voting power must vote', '7 days', '1,000\u00a0IPT', 'Coin pool', '8\u00a0%'],
    ['ru', 'Кворум', 'должны проголосовать 20\u00a0% всей силы голосов', '7 дн.', '1\u00a0000\u00a0IPT', 'Пул монет', '8\u00a0%'],
  ] as const)('finding 10: no raw keys and no wei: quorum, period, threshold and pools in words and units (%s)', async (lang, quorum, share, period, threshold, pool, apy) => {
    const values = { quorumBps: '2000', votingPeriodDays: '7', proposalThreshold: '1000000000000000000000', governanceToken: 'IPT' };
    renderRemote(<DaoPage />, { namespace: 'dao', strings: { en, ru }, path: '/cabinet/dao', lang, api: { ...api, daoValues: async () => ({ values }) } });
    const q = await screen.findByTestId('dao-value-quorumBps');
    expect(q.querySelector('dt')!.textContent).toBe(quorum);
    expect(q.querySelector('dd')!.textContent).toBe(share);
    expect(screen.getByTestId('dao-value-votingPeriodDays').querySelector('dd')!.textContent).toBe(period);
    expect(screen.getByTestId('dao-value-proposalThreshold').querySelector('dd')!.textContent).toBe(threshold);
    expect(screen.getByText(pool)).toBeTruthy();
    // The exact text, no-break space included (the default matcher folds it into a plain space).
    expect(screen.getByText(apy, { normalizer: (text) => text })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/quorumBps|votingPeriodDays|proposalThreshold|governanceToken/);
  });
});
