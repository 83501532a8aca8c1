/** @jest-environment jsdom */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { affiliateSorts } from '@app/contracts';
import { affiliates, overview, renderReferral } from '../testing/renderReferral';
import { AffiliatesPage } from './AffiliatesPage';

describe('the affiliates page', () => {
  it('lists a level with masked members, dates, capital and rewards; filters, sorts and pages on the server', async () => {
    const referralsAffiliates = jest.fn(async ({ query }: { query: { level: number; page: number; sort: string } }) =>
      query.level === 2 ? affiliates({ level: 2, total: 0, items: [] }) : affiliates({ page: query.page, total: 45, sort: query.sort as 'joined_desc' }),
    );
    const page = renderReferral(<AffiliatesPage />, { path: '/cabinet/affiliates', api: { referrals: async () => overview, referralsAffiliates: referralsAffiliates as never } });
    const rows = await screen.findAllByTestId('affiliate');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('b***@example.com');
    expect(rows[0]!.textContent).toContain('2026-11-20');
    // data honesty: another member's capital is shown as its band only.
    expect(rows[0]!.textContent).toContain('$\u00a0100 – $\u00a01,000');
    expect(rows[0]!.textContent).toContain('0.123456\u00a0USDT');
    expect(rows[1]!.textContent).toContain('0x1234…abcdef');
    expect(rows[1]!.textContent).toContain('$\u00a010,000 – $\u00a0100,000');
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    // Every order the server's contract offers, and no other.
    expect([...(screen.getByLabelText('Sort by') as HTMLSelectElement).options].map((o) => o.value)).toEqual([...affiliateSorts]);

    await act(async () => screen.getByRole('button', { name: 'Next' }).click());
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeTruthy());
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'rewards_desc' } });
    await waitFor(() => expect(referralsAffiliates).toHaveBeenLastCalledWith(expect.objectContaining({ query: { level: 1, page: 1, size: 20, sort: 'rewards_desc' } })));
    await waitFor(() => expect((screen.getByLabelText('Level') as HTMLSelectElement).options).toHaveLength(3));
    fireEvent.change(screen.getByLabelText('Level'), { target: { value: '2' } });
    expect(await screen.findByTestId('affiliates-empty')).toBeTruthy();
    expect(page.calls.filter((c) => c.name === 'referralsAffiliates').map((c) => (c.request as { query: unknown }).query)).toEqual([
      { level: 1, page: 1, size: 20, sort: 'joined_desc' },
      { level: 1, page: 2, size: 20, sort: 'joined_desc' },
      { level: 1, page: 1, size: 20, sort: 'rewards_desc' },
      { level: 2, page: 1, size: 20, sort: 'rewards_desc' },
    ]);
  });
});
