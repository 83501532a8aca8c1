/** @jest-environment jsdom */
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ActivityItem, CabinetSummary } from '@app/contracts';
import { renderRemote, shellApiError, type RemoteSetup } from '@app/ui/testing';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';
import { Activity } from './Activity';
import { DailyRewards, PoolCards, Totals } from './Summary';
import { Tutorial } from './Tutorial';

// The machine running the tests may be busy: a page of the server's answer may take more than a second to show.
configure({ asyncUtilTimeout: 5000 });

const ETH = 10n ** 18n;
const HASH = `0x${'cd'.repeat(32)}`;

function renderCabinet(ui: React.ReactElement, setup: Partial<RemoteSetup> = {}) {
  return renderRemote(ui, {
    namespace: 'cabinet',
    strings: { en, ru },
    path: '/cabinet/dashboard',
    session: { status: 'authenticated', user: { id: 'u1', login: 'ann@example.com', role: 'user' } },
    ...setup,
  });
}

/** A user with 1.000657 ETH in coin (1 ETH deposited) and 100 USDT in stable. */
const summary: CabinetSummary = {
  asOf: '2026-03-02',
  totals: { valueUsd: '3101.97', principalUsd: '3100.00', profitUsd: '-0.10', interestUsd: { all: '1234.56', day: '0.07', month: '1.97' } },
  currencies: [],
  pools: [
    { pool: 'stable', title: 'Stable pool', riskLevel: 'low', apy: '0.12', apr: '0.113346', tvlUsd: '100.00', currencies: ['USDT'], positions: [{ currency: 'USDT', balance: '100000000', earned: '0', valueUsd: '100.00' }], valueUsd: '100.00' },
    { pool: 'coin', title: 'Coin pool', riskLevel: 'medium', apy: '0.125', apr: '0.117', tvlUsd: '3001.97', currencies: ['ETH'], positions: [{ currency: 'ETH', balance: (ETH + 657_000_000_000_000n).toString(), earned: '657000000000000', valueUsd: '3001.97' }], valueUsd: '3001.97' },
    { pool: 'dex', title: 'DEX pool', riskLevel: 'high', apy: '0.26', apr: '0.231', tvlUsd: '0.00', currencies: ['ETH'], positions: [], valueUsd: '0.00' },
  ],
  dailyRewards: { day: '2026-03-01', items: [{ pool: 'coin', currency: 'ETH', amount: '21912000000000' }] },
  decimals: { ETH: 18, USDT: 6 },
  tutorialDismissed: false,
  empty: false,
  revision: '7',
};

describe('totals', () => {
  it('shows the six figures in dollars with a space after the sign, a negative profit with its sign first', () => {
    renderCabinet(<Totals summary={summary} />);
    const figure = (id: string) => within(screen.getByTestId(`total-${id}`)).getByRole('definition').textContent;
    expect(figure('value')).toBe('$\u00a03,101.97');
    expect(figure('principal')).toBe('$\u00a03,100.00');
    expect(figure('interest-all')).toBe('$\u00a01,234.56');
    expect(figure('interest-day')).toBe('$\u00a00.07');
    expect(figure('interest-month')).toBe('$\u00a01.97');
    expect(figure('profit')).toBe('-$\u00a00.10');
    expect(screen.getByText("At today's prices, as of 2026-03-02.")).toBeTruthy();
  });

  it('uses Russian labels and number formatting under /ru', () => {
    renderCabinet(<Totals summary={summary} />, { lang: 'ru' });
    const value = screen.getByTestId('total-value');
    expect(within(value).getByRole('definition').textContent).toBe('$\u00a03\u00a0101,97');
    expect(within(value).getByRole('term').textContent).toBe(ru.totals.value);
  });
});

describe('pool cards', () => {
  it('give each pool its APY (compounded daily) beside the APR, the balance and interest per currency, and a link', () => {
    renderCabinet(<PoolCards summary={summary} />);
    const coin = screen.getByTestId('pool-card-coin');
    expect(within(coin).getByText('APY, compounded daily')).toBeTruthy();
    expect(within(coin).getByTestId('apy').textContent).toBe('12.5\u00a0%');
    expect(within(coin).getByTestId('apr').textContent).toBe('11.7\u00a0%');
    const eth = within(coin).getByTestId('position-ETH');
    // Six significant digits, the exact figure on demand (issue 25).
    expect(within(eth).getByTestId('balance').textContent).toBe('1.00066\u00a0ETH');
    expect(within(eth).getByTestId('balance').querySelector('[data-full]')!.getAttribute('data-full')).toBe('1.000657');
    expect(within(eth).getByTestId('balance').querySelector('svg.coin-mark')!.getAttribute('data-coin')).toBe('ETH');
    expect(within(eth).getByTestId('earned').textContent).toBe('0.000657\u00a0ETH');
    // The exact text, no-break space included (the default matcher folds it into a plain space).
    expect(within(coin).getByText('Worth $\u00a03,001.97', { normalizer: (text) => text })).toBeTruthy();
    expect(within(coin).getByRole('link', { name: 'Open the Coin pool' }).getAttribute('href')).toBe('/cabinet/pools/coin');
    expect(within(screen.getByTestId('pool-card-stable')).getByTestId('position-USDT').textContent).toContain('100\u00a0USDT');
    // A pool the user is not in says so rather than showing an empty table.
    const dex = screen.getByTestId('pool-card-dex');
    expect(within(dex).getByText('Nothing in this pool yet.')).toBeTruthy();
    expect(within(dex).queryByRole('table')).toBeNull();
  });

  it('link to the pool under /ru', () => {
    renderCabinet(<PoolCards summary={summary} />, { lang: 'ru' });
    expect(within(screen.getByTestId('pool-card-dex')).getByRole('link').getAttribute('href')).toBe('/ru/cabinet/pools/dex');
    expect(within(screen.getByTestId('pool-card-coin')).getByTestId('apy').textContent).toBe('12,5\u00a0%');
  });

  it('daily rewards list what was credited on the last day, per pool', () => {
    renderCabinet(<DailyRewards summary={summary} />);
    expect(screen.getByText('Interest for 2026-03-01')).toBeTruthy();
    expect(screen.getByTestId('reward-coin-ETH').textContent).toContain('0.000021912\u00a0ETH');
  });
});

const item = (n: number, over: Partial<ActivityItem> = {}): ActivityItem => ({
  kind: 'deposit',
  id: n,
  pool: 'coin',
  currency: 'ETH',
  amount: (ETH / 2n).toString(),
  status: 'credited',
  at: '2026-02-01T10:00:00.000Z',
  transaction: HASH,
  confirmations: 2,
  confirmationsRequired: 2,
  ...over,
});

/** A blob's text (jsdom's Blob has no text()). */
const textOf = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

describe('activity', () => {
  const pageOf = (total: number) => async (request: unknown) => {
    const { page, size } = (request as { query: { page: number; size: number } }).query;
    const count = Math.max(0, Math.min(size, total - (page - 1) * size));
    return { items: Array.from({ length: count }, (_, i) => item((page - 1) * size + i + 1)), page, size, total };
  };

  it('pages from the server, ten at a time', async () => {
    const view = renderCabinet(<Activity revision="1" decimals={summary.decimals} />, { api: { cabinetActivity: pageOf(25) } });
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    expect(screen.getAllByTestId('activity-deposit')).toHaveLength(10);
    const previous = screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement;
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(previous.disabled).toBe(true);
    fireEvent.click(next);
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 3 of 3')).toBeTruthy();
    expect(screen.getAllByTestId('activity-deposit')).toHaveLength(5);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    expect(view.calls.map((c) => (c.request as { query: unknown }).query)).toEqual([
      { page: 1, size: 10, interest: 'month' },
      { page: 2, size: 10, interest: 'month' },
      { page: 3, size: 10, interest: 'month' },
    ]);
  });

  it('finding 8: filters by type, pool and currency on the server, from the first page', async () => {
    const view = renderCabinet(<Activity revision="1" decimals={summary.decimals} />, { api: { cabinetActivity: pageOf(25) } });
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    const filters = screen.getByRole('group', { name: 'Filter activity' });
    fireEvent.change(within(filters).getByLabelText('Type'), { target: { value: 'withdrawal' } });
    fireEvent.change(within(filters).getByLabelText('Pool'), { target: { value: 'stable' } });
    fireEvent.change(within(filters).getByLabelText('Currency'), { target: { value: 'USDT' } });
    await waitFor(() => expect((view.calls.at(-1)!.request as { query: unknown }).query).toEqual({ page: 1, size: 10, interest: 'month', kind: 'withdrawal', pool: 'stable', currency: 'USDT' }));
    // Every currency the dashboard knows, and "All" to lift a filter.
    expect(within(filters).getAllByRole('option').map((o) => o.textContent)).toEqual(['All', 'Deposit', 'Daily interest', 'Withdrawal', 'All', 'Stable', 'Coin', 'DEX', 'All', 'ETH', 'USDT']);
    fireEvent.change(within(filters).getByLabelText('Type'), { target: { value: '' } });
    await waitFor(() => expect((view.calls.at(-1)!.request as { query: unknown }).query).toEqual({ page: 1, size: 10, interest: 'month', pool: 'stable', currency: 'USDT' }));
  });

  it("finding 8: a month's interest is one row, and its days open beneath it", async () => {
    const month = item(0, { kind: 'interest', id: null, amount: String(3n * ETH / 1000n), month: '2026-02', days: 28, at: '2026-02-01T00:00:00.000Z', transaction: null });
    const days = [2, 1].map((d) => item(0, { kind: 'interest', id: null, amount: String(BigInt(d) * ETH / 1000n), at: `2026-02-0${d}T00:00:00.000Z`, transaction: null }));
    const view = renderCabinet(<Activity revision="1" decimals={summary.decimals} />, {
      api: {
        cabinetActivity: async (request: unknown) => {
          const q = (request as { query: { month?: string } }).query;
          return q.month ? { items: days, page: 1, size: 100, total: 2, next: null } : { items: [item(1), month], page: 1, size: 10, total: 2, next: null };
        },
      },
    });
    const row = await screen.findByTestId('activity-interest-month');
    expect(row.textContent).toContain('February 2026');
    expect(row.textContent).toContain('Interest, 28 days');
    expect(row.textContent).toContain('0.003\u00a0ETH');
    expect(screen.getByTestId('activity-deposit')).toBeTruthy();
    const open = within(row).getByRole('button', { name: 'Show the days of February 2026, Coin, ETH' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(open);
    const shown = await screen.findAllByTestId('activity-interest-day');
    expect(shown.map((d) => [d.textContent!.slice(0, 10), d.textContent!.includes('0.002\u00a0ETH'), d.textContent!.includes('0.001\u00a0ETH')])).toEqual([
      ['2026-02-02', true, false],
      ['2026-02-01', false, true],
    ]);
    expect((view.calls.at(-1)!.request as { query: unknown }).query).toEqual({ page: 1, size: 100, kind: 'interest', pool: 'coin', currency: 'ETH', month: '2026-02' });
    const close = within(row).getByRole('button', { name: 'Hide the days of February 2026, Coin, ETH' });
    expect(close.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(close);
    expect(screen.queryAllByTestId('activity-interest-day')).toHaveLength(0);
  });

  it('finding 8: says so in Russian, with the month in Russian', async () => {
    const month = item(0, { kind: 'interest', id: null, month: '2026-02', days: 21, at: '2026-02-01T00:00:00.000Z', transaction: null });
    renderCabinet(<Activity revision="1" decimals={summary.decimals} />, { lang: 'ru', api: { cabinetActivity: async () => ({ items: [month], page: 1, size: 10, total: 1, next: null }) } });
    const row = await screen.findByTestId('activity-interest-month');
    expect(row.textContent).toContain('Проценты, 21 день');
    expect(row.textContent!.toLowerCase()).toContain('февраль 2026');
    expect(within(row).getByRole('button', { name: /Показать дни/ })).toBeTruthy();
  });

  it('shows each movement with its state and explorer link, and no pager for one page', async () => {
    renderCabinet(<Activity revision="1" decimals={summary.decimals} />, {
      api: {
        cabinetActivity: async () => ({
          items: [
            item(1, { status: 'pending', confirmations: 1, confirmationsRequired: 12 }),
            item(2, { kind: 'withdrawal', status: 'awaiting_approval', transaction: null, currency: 'USDT', amount: '2500000', pool: 'stable' }),
            item(3, { kind: 'interest', id: null, amount: '21912000000000' }),
          ],
          page: 1,
          size: 10,
          total: 3,
        }),
      },
    });
    const rows = await screen.findAllByRole('row');
    const [deposit, withdrawal, interest] = rows.slice(1);
    expect(within(deposit!).getByTestId('status').textContent).toBe('Confirming (1 of 12)');
    expect(within(deposit!).getByRole('link').getAttribute('href')).toContain(HASH);
    expect(deposit!.textContent).toContain('2026-02-01');
    expect(deposit!.textContent).toContain('0.5\u00a0ETH');
    expect(within(withdrawal!).getByTestId('status').textContent).toBe('Awaiting approval');
    expect(withdrawal!.textContent).toContain('2.5\u00a0USDT');
    expect(within(withdrawal!).queryByRole('link')).toBeNull();
    expect(interest!.textContent).toContain('Daily interest');
    expect(screen.queryByRole('navigation', { name: 'Activity pages' })).toBeNull();
  });

  describe('CSV export', () => {
    let click: jest.SpyInstance;
    const made: Blob[] = [];
    beforeEach(() => {
      made.length = 0;
      Object.assign(URL, {
        createObjectURL: jest.fn((blob: Blob) => {
          made.push(blob);
          return 'blob:activity';
        }),
        revokeObjectURL: jest.fn(),
      });
      click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    });
    afterEach(() => click.mockRestore());

    it('downloads all of it as the server made it, under the server’s file name', async () => {
      const csv = 'date,type,pool,currency,amount,status,transaction\n2026-02-01,deposit,coin,ETH,0.5,credited,' + HASH + '\n';
      const view = renderCabinet(<Activity revision="1" decimals={summary.decimals} />, {
        api: { cabinetActivity: pageOf(1), cabinetActivityExport: async () => ({ csv, filename: 'activity-2026-03-02.csv', rows: 1 }) },
      });
      await screen.findByTestId('activity-deposit');
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      });
      expect(view.calls.filter((c) => c.name === 'cabinetActivityExport')).toHaveLength(1);
      expect(click).toHaveBeenCalledTimes(1);
      const anchor = click.mock.instances[0] as unknown as HTMLAnchorElement;
      expect(anchor.download).toBe('activity-2026-03-02.csv');
      expect(anchor.href).toBe('blob:activity');
      expect(made).toHaveLength(1);
      expect(made[0]!.type).toBe('text/csv;charset=utf-8');
      expect(await textOf(made[0]!)).toBe(csv);
    });

    it('finding 8: the tax export asks the server for Koinly\'s layout and keeps its file name', async () => {
      const csv = 'Date,Sent Amount\r\n';
      const view = renderCabinet(<Activity revision="1" decimals={summary.decimals} />, {
        api: { cabinetActivity: pageOf(1), cabinetActivityExport: async () => ({ csv, filename: 'koinly-2026-03-02.csv', rows: 0 }) },
      });
      await screen.findByTestId('activity-deposit');
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Export for tax (Koinly)' }));
      });
      expect(view.calls.filter((c) => c.name === 'cabinetActivityExport').map((c) => (c.request as { query?: unknown } | undefined)?.query)).toEqual([{ format: 'koinly' }]);
      expect((click.mock.instances[0] as unknown as HTMLAnchorElement).download).toBe('koinly-2026-03-02.csv');
      expect(await textOf(made[0]!)).toBe(csv);
    });

    it.each([
      ['en', { inFlight: 1, returned: 2 }, 'Not in the tax file yet: 1 deposit or withdrawal still in progress. It goes in once settled; “Export CSV” lists it now. Left out of the tax file: 2 returned withdrawals. The money never left your account, so they are no disposal.'],
      ['ru', { inFlight: 5, returned: 0 }, 'Пока не в файле для налогов: 5 депозитов или выводов в процессе. Они попадут в файл после завершения; «Скачать CSV» показывает их уже сейчас.'],
    ] as const)('finding 8: after the tax export the activity says what the file left out and why (%s)', async (lang, leftOut, text) => {
      renderCabinet(<Activity revision="1" decimals={summary.decimals} />, {
        lang,
        api: { cabinetActivity: pageOf(1), cabinetActivityExport: async () => ({ csv: 'Date\r\n', filename: 'koinly-2026-03-02.csv', rows: 0, leftOut }) },
      });
      await screen.findByTestId('activity-deposit');
      expect(screen.queryByTestId('tax-left-out')).toBeNull();
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: lang === 'en' ? 'Export for tax (Koinly)' : 'Для налогов (Koinly)' }));
      });
      expect(screen.getByTestId('tax-left-out').textContent).toBe(text);
      expect(screen.getByTestId('tax-left-out').getAttribute('role')).toBe('status');
    });

    it('finding 8: a tax file that left nothing out needs no note', async () => {
      renderCabinet(<Activity revision="1" decimals={summary.decimals} />, {
        api: { cabinetActivity: pageOf(1), cabinetActivityExport: async () => ({ csv: 'Date\r\n', filename: 'koinly-2026-03-02.csv', rows: 0, leftOut: { inFlight: 0, returned: 0 } }) },
      });
      await screen.findByTestId('activity-deposit');
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Export for tax (Koinly)' }));
      });
      expect(click).toHaveBeenCalledTimes(1);
      expect(screen.queryByTestId('tax-left-out')).toBeNull();
    });

    it('says so when the file could not be made, and lets the user try again', async () => {
      let fail = true;
      renderCabinet(<Activity revision="1" decimals={summary.decimals} />, {
        api: {
          cabinetActivity: pageOf(1),
          cabinetActivityExport: async () => {
            if (fail) throw shellApiError(500, 'Internal server error');
            return { csv: 'date\n', filename: 'a.csv', rows: 0 };
          },
        },
      });
      await screen.findByTestId('activity-deposit');
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      });
      expect(screen.getByRole('alert').textContent).toBe('The CSV could not be made. Please try again.');
      expect(click).not.toHaveBeenCalled();
      fail = false;
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      });
      expect(click).toHaveBeenCalledTimes(1);
      expect(screen.queryByRole('alert')).toBeNull();
    });
  });
});

describe('tutorial', () => {
  it('lists the first steps with the ones done marked, and is dismissed for the account on the server', async () => {
    const onChanged = jest.fn();
    const view = renderCabinet(<Tutorial summary={{ ...summary, totals: { ...summary.totals, interestUsd: { all: '0.00', day: '0.00', month: '0.00' } } }} onChanged={onChanged} />, {
      api: { cabinetTutorial: async () => ({ dismissed: true }) },
    });
    const steps = within(screen.getByTestId('tutorial')).getAllByRole('listitem');
    expect(steps.map((s) => [s.textContent, s.getAttribute('data-done')])).toEqual([
      ['Connect your wallet', 'false'],
      ['Make a deposit in a pool (done)', 'true'],
      ['Watch interest arrive every day', 'false'],
    ]);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Hide the first steps' }));
    });
    expect(view.calls).toEqual([{ name: 'cabinetTutorial', request: { body: { dismissed: true } } }]);
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('marks the wallet step when a wallet is connected', () => {
    renderCabinet(<Tutorial summary={summary} onChanged={() => undefined} />, { wallet: { connected: true, chainId: 1, account: '0xabc', balances: {} } });
    expect(within(screen.getByTestId('tutorial')).getAllByRole('listitem').map((s) => s.getAttribute('data-done'))).toEqual(['true', 'true', 'true']);
  });

  it('stays, with the server’s message, when dismissing fails', async () => {
    const onChanged = jest.fn();
    renderCabinet(<Tutorial summary={summary} onChanged={onChanged} />, {
      lang: 'ru',
      api: {
        cabinetTutorial: async () => {
          throw shellApiError(503, 'Сервис недоступен');
        },
      },
    });
    const button = screen.getByRole('button', { name: ru.tutorial.dismiss }) as HTMLButtonElement;
    await act(async () => {
      fireEvent.click(button);
    });
    await waitFor(() => expect(button.disabled).toBe(false));
    expect(screen.getByRole('alert').textContent).toContain('Сервис недоступен');
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('is not shown once dismissed', () => {
    renderCabinet(<Tutorial summary={{ ...summary, tutorialDismissed: true }} onChanged={() => undefined} />);
    expect(screen.queryByTestId('tutorial')).toBeNull();
  });
});
