/** @jest-environment jsdom */
import { act, screen, waitFor, within } from '@testing-library/react';
import { deferred, harvest, overview, progress, renderReferral, shellApiError } from '../testing/renderReferral';
import { ReferralPage } from './ReferralPage';

const api = (over: Record<string, (request: unknown) => Promise<unknown>> = {}) => ({
  referrals: async () => overview,
  referralsProgress: async () => progress,
  referralsHarvest: async () => harvest(),
  ...over,
});

const click = async (el: HTMLElement) => {
  await act(async () => el.click());
};

describe('the referral page', () => {
  it('shows the id and link, the levels, the network, the rank and its progress, and the rewards', async () => {
    renderReferral(<ReferralPage />, { path: '/cabinet/refferal', api: api() });
    expect(await screen.findByTestId('referral-id')).toHaveProperty('textContent', 'AbC_12');
    expect((screen.getByLabelText('Referral link') as HTMLInputElement).value).toBe('http://localhost/sign-up?invite=AbC_12');
    expect(screen.getByText(/up to 18% additional rewards/)).toBeTruthy();

    const level1 = screen.getByTestId('level-1');
    expect(within(level1).getByTestId('rate').textContent).toBe('10\u00a0%');
    expect(within(level1).getByTestId('your-rate').textContent).toBe('11\u00a0%');
    expect(within(level1).getByTestId('members').textContent).toBe('2');
    expect(screen.getByTestId('total-rate').textContent).toBe('18\u00a0%');
    expect(screen.getByTestId('network-members').textContent).toContain('3');
    expect(screen.getByTestId('network-capital').textContent).toContain('$\u00a012,500.50');
    expect(screen.getByTestId('network-bonuses').textContent).toContain('$\u00a03.21');

    expect(screen.getByTestId('rank-current').textContent).toBe('Your rank: Bronze');
    expect(screen.getByTestId('rank-progress-text').textContent).toBe('$\u00a012,500.50 of $\u00a050,000.00');
    expect(screen.getByRole('progressbar', { name: 'Progress to the next rank' }).getAttribute('aria-valuenow')).toBe('6');
    // Read out as the page writes a percentage: the no-break space before the sign.
    expect(screen.getByRole('progressbar', { name: 'Progress to the next rank' }).getAttribute('aria-valuetext')).toBe('6\u00a0%');
    expect(screen.getByTestId('rank-2').getAttribute('aria-current')).toBe('true');

    expect(screen.getByTestId('reward-all-time').textContent).toContain('4.5\u00a0USDT');
    expect(screen.getByTestId('reward-available').textContent).toContain('3.21\u00a0USDT');
    expect(screen.getByTestId('reward-in-payment').textContent).toContain('0\u00a0USDT');
    expect(screen.getByTestId('reward-paid').textContent).toContain('1.29\u00a0USDT');
    expect(await screen.findByTestId('referral-qr')).toBeTruthy();
  });

  it('speaks Russian under /ru', async () => {
    renderReferral(<ReferralPage />, { path: '/cabinet/refferal', lang: 'ru', api: api() });
    expect(await screen.findByText('Реферальная ссылка')).toBeTruthy();
    expect(screen.getByTestId('network-capital').textContent).toContain('$\u00a012\u00a0500,50');
    expect(screen.getByTestId('reward-available').textContent).toContain('3,21\u00a0USDT');
    expect(screen.getByRole('button', { name: 'Получить награды' })).toBeTruthy();
  });

  it("copies the link and says 'copied to clipboard!'", async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const page = renderReferral(<ReferralPage />, { path: '/cabinet/refferal', api: api() });
    await click(await screen.findByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('http://localhost/sign-up?invite=AbC_12');
    expect(page.notifications()).toEqual([{ kind: 'success', message: 'copied to clipboard!' }]);
  });

  it('claims: Sending Request..., then sent; a second claim during the payment is refused at once', async () => {
    const answer = deferred<{ message: string }>();
    let paying = false;
    const referralsWithdraw = jest.fn(() => answer.promise);
    const page = renderReferral(<ReferralPage />, {
      path: '/cabinet/refferal',
      api: api({
        referralsHarvest: async () => (paying ? harvest({ availableToClaim: '0', inPayment: '3210000', claimInProgress: true }) : harvest()),
        referralsWithdraw,
      }),
    });
    const button = await screen.findByRole('button', { name: 'Claim rewards' });
    await click(button);
    expect(button.textContent).toBe('Sending Request...');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await click(button);
    expect(referralsWithdraw).toHaveBeenCalledTimes(1);

    paying = true;
    await act(async () => answer.resolve({ message: 'ok' }));
    expect(screen.getByTestId('claim-state').textContent).toBe('Withdrawal request has been successfully sent! Payment will be processed soon.');
    await waitFor(() => expect(screen.getByTestId('reward-in-payment').textContent).toContain('3.21\u00a0USDT'));

    await click(screen.getByRole('button', { name: 'Claim rewards' }));
    expect(screen.getByTestId('claim-state').textContent).toBe('Please wait for the current payment to complete before making a new claim');
    expect(referralsWithdraw).toHaveBeenCalledTimes(1);
    expect(page.notifications().map((n) => n.message)).toEqual([
      'Withdrawal request has been successfully sent! Payment will be processed soon.',
      'Please wait for the current payment to complete before making a new claim',
    ]);
  });

  it('shows the server refusing a claim while another is paid, a claim with nothing to claim, and a failure', async () => {
    const referralsWithdraw = jest
      .fn()
      .mockRejectedValueOnce(shellApiError(409, 'Please wait for the current payment to complete before making a new claim'))
      .mockRejectedValueOnce(shellApiError(400, 'There is nothing to claim yet'))
      .mockRejectedValueOnce(shellApiError(0, ''));
    renderReferral(<ReferralPage />, { path: '/cabinet/refferal', api: api({ referralsWithdraw }) });
    const button = await screen.findByRole('button', { name: 'Claim rewards' });
    const state = () => screen.getByTestId('claim-state').textContent;
    await click(button);
    expect(state()).toBe('Please wait for the current payment to complete before making a new claim');
    await click(button);
    expect(state()).toBe('There is nothing to claim yet');
    await click(button);
    expect(state()).toBe('Failed to send withdrawal request. Please try again.');
  });

  it('finding 10: Claim is disabled, and says why, when there is nothing to claim', async () => {
    const referralsWithdraw = jest.fn();
    renderReferral(<ReferralPage />, { path: '/cabinet/refferal', api: api({ referralsWithdraw, referralsHarvest: async () => harvest({ availableToClaim: '0' }) }) });
    const button = (await screen.findByRole('button', { name: 'Claim rewards' })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByTestId('claim-state').textContent).toMatch(/^Nothing to claim yet/);
    expect(referralsWithdraw).not.toHaveBeenCalled();
  });

  it('shows the latest claim with its payout transaction', async () => {
    const hash = `0x${'ab'.repeat(32)}`;
    const claim = { id: 7, status: 'paid' as const, currency: 'USDT', amount: '3210000', to: '0x1', transaction: hash, createdAt: '2026-11-22T10:00:00.000Z', paidAt: '2026-11-22T10:01:00.000Z' };
    renderReferral(<ReferralPage />, { path: '/cabinet/refferal', api: api({ referralsHarvest: async () => harvest({ claim }) }) });
    expect((await screen.findByTestId('latest-claim-status')).textContent).toBe('Paid');
    expect(screen.getByTestId('latest-claim-link').getAttribute('href')).toBe(`https://etherscan.io/tx/${hash}`);
  });

  it('says so when nobody joined yet, and shows a failed load with Retry', async () => {
    let fail = true;
    renderReferral(<ReferralPage />, {
      path: '/cabinet/refferal',
      api: api({
        referrals: async () => ({ ...overview, members: 0, levels: overview.levels.map((l) => ({ ...l, members: 0 })) }),
        referralsHarvest: async () => {
          if (fail) throw shellApiError(500, 'Something went wrong. Please try again later.');
          return harvest();
        },
      }),
    });
    expect(await screen.findByTestId('network-empty')).toBeTruthy();
    const rewards = screen.getByTestId('rewards');
    expect(within(rewards).getByRole('alert').textContent).toContain('Could not load: Something went wrong. Please try again later.');
    fail = false;
    await click(within(rewards).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(rewards).getByTestId('reward-all-time')).toBeTruthy());
  });
});

describe('finding 10: the vesting period and earlier payout currencies on the referral page', () => {
  it('finding 10: shows the vesting period and what is still vesting; the Low item: an earlier currency and its claim', async () => {
    const claim = { id: 8, status: 'in_payment' as const, currency: 'ETH', amount: '1500000000000000', to: '0x1', transaction: null, createdAt: '2026-11-22T10:00:00.000Z', paidAt: null };
    const eth = { currency: 'ETH', decimals: 18, vesting: '0', availableToClaim: '2000000000000000', inPayment: '1500000000000000', alreadyPaid: '0' };
    renderReferral(<ReferralPage />, { path: '/cabinet/refferal', api: api({ referralsHarvest: async () => harvest({ vestingDays: 14, others: [eth], claim }) }) });
    expect((await screen.findByTestId('reward-vesting')).textContent).toContain('0.15\u00a0USDT');
    expect(screen.getByTestId('vesting-note').textContent).toMatch(/^A reward becomes available 14 days after the day that earned it/);
    const row = screen.getByTestId('reward-other-ETH');
    expect(row.textContent).toContain('0.002\u00a0ETH');
    expect(row.textContent).toContain('0.0015\u00a0ETH');
    // The claim in ETH is shown with ETH's 18 decimals, not the payout currency's 6.
    expect(screen.getByTestId('latest-claim').textContent).toContain('0.0015\u00a0ETH');
  });

  it('finding 10: with no vesting period, says rewards are available at once', async () => {
    renderReferral(<ReferralPage />, { path: '/cabinet/refferal', api: api({ referralsHarvest: async () => harvest({ vestingDays: 0 }) }) });
    expect((await screen.findByTestId('vesting-note')).textContent).toMatch(/^A reward becomes available as soon as its day is counted/);
  });
});

describe('finding 10: referral tiles say what each figure is', () => {
  it.each([
    ['en', "Share of members' interest", 'Your share with your rank bonus', 'What your network holds in the pools now, in US dollars', 'What a claim pays to your linked wallet'],
    ['ru', 'Доля от процентов участников', 'Ваша доля с бонусом ранга', 'Сколько ваша сеть сейчас держит в пулах, в долларах США', 'Что выплатит запрос на ваш привязанный кошелёк'],
  ] as const)('finding 10: every tile has a line saying what it counts, and "Rate" says of what (%s)', async (lang, rate, yourRate, capital, available) => {
    renderReferral(<ReferralPage />, { path: '/cabinet/refferal', lang, api: api() });
    await screen.findByTestId('reward-all-time');
    // The level table's columns, and the names the stacked rows carry at 390 px.
    const headers = within(screen.getByTestId('levels')).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining([rate, yourRate]));
    expect(within(screen.getByTestId('level-1')).getByTestId('rate').getAttribute('data-label')).toBe(rate);
    expect(screen.getByTestId('network-capital-hint').textContent).toBe(capital);
    expect(screen.getByTestId('reward-available-hint').textContent).toBe(available);
    // No tile is left with a bare figure: each has a hint of words, distinct from its name.
    const tiles = ['network-members', 'network-capital', 'network-bonuses', 'reward-all-time', 'reward-earned', 'reward-available', 'reward-in-payment', 'reward-paid', 'reward-vesting'];
    const hints = tiles.map((id) => screen.getByTestId(`${id}-hint`).textContent ?? '');
    for (const [i, id] of tiles.entries()) expect(hints[i]!.length).toBeGreaterThan(screen.getByTestId(id).querySelector('dt')!.textContent!.length);
    expect(new Set(hints).size).toBe(tiles.length);
  });
});
