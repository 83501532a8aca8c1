/** @jest-environment jsdom */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { WalletState } from '@app/contracts';
import { earned as independentEarned } from '@app/web3/testing';
import { deferred, insightAnswers, poolAnswer, renderPool, shellApiError } from '../testing/renderPool';
import { PoolPage } from './PoolPage';

const POOL_ETH = '0x00000000000000000000000000000000000000e1';
const POOL_USDT = '0x00000000000000000000000000000000000000a1';
const HASH = `0x${'ab'.repeat(32)}`;
const ETH = 10n ** 18n;
const ready: WalletState = { connected: true, chainId: 1, account: '0xabc', balances: { ETH: (2n * ETH).toString(), USDT: '50000000' } };
const coinPool = poolAnswer('coin', { ETH: { address: POOL_ETH, price: '3000' } });
const stablePool = poolAnswer('stable', { USDT: { address: POOL_USDT, price: '1' } });
const movement = { message: 'The deposit is recorded and waits for confirmation on the chain', id: 1, status: 'pending', createdAt: '2026-11-22T12:00:00.000Z' };
const depositStatus = (status: 'pending' | 'credited' | 'refused', confirmations: number, amount = '33333333333333334', currency = 'ETH') => ({
  id: 1, pool: 'coin', currency, amount, transaction: HASH, logIndex: -1, from: '0xabc', to: POOL_ETH, status, confirmations,
  confirmationsRequired: 2, blockNumber: 10, reason: null as string | null, createdAt: '2026-11-22T12:00:00.000Z', creditedAt: null as string | null,
});
const recorded = (status = depositStatus('pending', 0)) => ({ ...movement, deposit: status });

beforeEach(() => localStorage.clear());

async function openPool(setup: Parameters<typeof renderPool>[1] & { pool?: 'coin' | 'stable' }) {
  const page = renderPool(<PoolPage pool={setup.pool ?? 'coin'} />, {
    ...setup,
    api: { ...insightAnswers, dashboardPool: async () => (setup.pool === 'stable' ? stablePool : coinPool), dashboardDeposits: async () => ({ items: [], confirmationsRequired: 1 }), ...setup.api },
  });
  await screen.findByRole('tab', { name: setup.lang === 'ru' ? 'Пополнить' : 'Deposit' });
  return page;
}

const typeAmount = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = async (name = 'Deposit') => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};
const describedBy = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent).join(' | ');

describe('deposit checks (spec §5, §8), in order', () => {
  it('asks for a wallet first, and offers to connect one', async () => {
    const sendTransfer = jest.fn();
    const page = await openPool({ walletApi: { sendTransfer } });
    await submit();
    expect(page.notifications()).toEqual([{ kind: 'warning', message: 'Metamask not connection' }]);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Metamask not connection');
    fireEvent.click(within(alert).getByRole('button', { name: 'Connect wallet' }));
    expect(page.commands).toContainEqual({ type: 'wallet/connect' });
    expect(sendTransfer).not.toHaveBeenCalled();
    // Connected: the warning goes.
    page.setWallet(ready);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('then the network, before the amount', async () => {
    const page = await openPool({ wallet: { ...ready, chainId: 56 } });
    await submit();
    expect(page.notifications()).toEqual([{ kind: 'warning', message: 'Network id 56 is not supported now. Work is in progress.' }]);
    expect(screen.getByRole('alert').textContent).toBe('Network id 56 is not supported now. Work is in progress.');
  });

  it('then an amount, beside its field', async () => {
    const page = await openPool({ wallet: ready });
    await submit();
    const input = screen.getByLabelText('Amount in US dollars');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input)).toContain("It's required field!");
    expect(page.notifications()).toEqual([]);
  });

  it('then the balance: the coin is named, beside the field and in a warning', async () => {
    const sendTransfer = jest.fn();
    const page = await openPool({ wallet: ready, walletApi: { sendTransfer } });
    typeAmount('Amount in US dollars', '6000.1');
    expect(describedBy(screen.getByLabelText('Amount in US dollars'))).toContain("You don't have enough money in your Metamask account by coin ETH");
    await submit();
    expect(page.notifications()).toEqual([{ kind: 'warning', message: "You don't have enough money in your Metamask account by coin ETH" }]);
    expect(sendTransfer).not.toHaveBeenCalled();
  });

  it.each([
    [{ connected: false, chainId: null, account: null, balances: {} }, 'Metamask не подключен'],
    [{ ...ready, chainId: 137 }, 'Сеть с id 137 пока не поддерживается. Работа над этим идёт.'],
    [ready, 'На вашем аккаунте Metamask недостаточно средств в монете ETH'],
  ] as const)('says it in Russian under /ru', async (wallet, message) => {
    const page = await openPool({ lang: 'ru', wallet });
    typeAmount('Сумма в долларах США', '$ 99999');
    await submit('Пополнить');
    expect(page.notifications()).toEqual([{ kind: 'warning', message }]);
  });
});

describe('a deposit', () => {
  it('shows the coin amount before sending, and Max fills the balance in dollars', async () => {
    await openPool({ pool: 'stable', wallet: ready });
    typeAmount('Amount in US dollars', '$ 12.34');
    expect((screen.getByLabelText('Amount in US dollars') as HTMLInputElement).value).toBe('$ 12.3');
    expect(describedBy(screen.getByLabelText('Amount in US dollars'))).toContain('≈ 12.3\u00a0USDT');
    expect(describedBy(screen.getByLabelText('Amount in US dollars'))).toContain('Wallet balance: 50\u00a0USDT (≈ $\u00a050)');
    fireEvent.click(screen.getByRole('button', { name: 'Max' }));
    expect((screen.getByLabelText('Amount in US dollars') as HTMLInputElement).value).toBe('$ 50');
  });

  it('finding 4: a coin amount typed beside the dollars is sent exactly, and the dollar field follows it', async () => {
    const sendTransfer = jest.fn(async () => ({ hash: HASH }));
    await openPool({ wallet: ready, walletApi: { sendTransfer }, api: { dashboardDeposit: async () => recorded(depositStatus('pending', 0)) } });
    typeAmount('Or the amount in ETH', '1');
    // 1 ETH at the pool's price of $3000, to the spec's precision of one place.
    expect((screen.getByLabelText('Amount in US dollars') as HTMLInputElement).value).toBe('$ 3000');
    await submit();
    expect(sendTransfer).toHaveBeenCalledWith({ currency: 'ETH', to: POOL_ETH, units: (10n ** 18n).toString() });
    // Dollars typed again drive the coin amount.
    typeAmount('Amount in US dollars', '100');
    expect((screen.getByLabelText('Or the amount in ETH') as HTMLInputElement).value).toBe('0.033333333333333334');
  });

  it('sends ETH rounded up, notifies the hash with an explorer link, records it and follows it to credited', async () => {
    const transfer = deferred<{ hash: string }>();
    const sendTransfer = jest.fn(() => transfer.promise);
    const confirmation = [deferred<void>(), deferred<void>()];
    const waitForConfirmations = jest.fn((_hash: string, n: number) => confirmation[n - 1]!.promise);
    let server: ReturnType<typeof depositStatus> | null = null;
    const page = await openPool({
      wallet: ready,
      walletApi: { sendTransfer, waitForConfirmations },
      api: {
        dashboardDeposit: async () => {
          server = depositStatus('pending', 0);
          return recorded(server);
        },
        dashboardDeposits: async () => ({ items: server ? [server] : [], confirmationsRequired: 2 }),
      },
    });
    typeAmount('Amount in US dollars', '100');
    expect(describedBy(screen.getByLabelText('Amount in US dollars'))).toContain('≈ 0.0333333\u00a0ETH');
    await submit();

    // One click, one transaction: the button is busy and disabled while the wallet asks.
    const busy = screen.getByRole('button', { name: 'Confirm in your wallet…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(busy);
    expect(sendTransfer).toHaveBeenCalledTimes(1);
    expect(sendTransfer).toHaveBeenCalledWith({ currency: 'ETH', to: POOL_ETH, units: '33333333333333334' });

    await act(async () => transfer.resolve({ hash: HASH }));
    expect(page.notifications()[0]).toEqual({
      kind: 'success',
      message: `Transaction sent: ${HASH}`,
      link: { href: `https://etherscan.io/tx/${HASH}`, label: 'View on Etherscan' },
    });
    expect(page.calls.find((c) => c.name === 'dashboardDeposit')?.request).toEqual({
      body: { pool: 'coin', amount: '33333333333333334', currency: 'ETH', transaction: HASH, chainId: 1 },
    });
    const progress = () => screen.getByTestId('deposit-progress').textContent;
    await waitFor(() => expect(progress()).toContain('Confirming (0 of 2)'));
    await act(async () => confirmation[0]!.resolve());
    await waitFor(() => expect(progress()).toContain('Confirming (1 of 2)'));
    server = { ...depositStatus('credited', 2), creditedAt: '2026-11-22T12:01:00.000Z' };
    await act(async () => confirmation[1]!.resolve());
    await waitFor(() => expect(progress()).toContain('Credited'));
    expect(waitForConfirmations.mock.calls).toEqual([[HASH, 1], [HASH, 2]]);
    // Six significant digits of the 33333333333333334 wei sent; the exact figure kept beside them.
    await waitFor(() => expect(screen.getByTestId('deposit-row').textContent).toContain('0.0333333\u00a0ETH'));
    expect(screen.getByTestId('deposit-row').querySelector('[data-full]')!.getAttribute('data-full')).toBe('0.033333333333333334');
    expect(screen.getByTestId('deposit-row').textContent).toContain('Credited');
    expect((screen.getByLabelText('Amount in US dollars') as HTMLInputElement).value).toBe('');
  });

  it('waits for the block when the server cannot see the transaction yet, then records it', async () => {
    let attempts = 0;
    const waitForConfirmations = jest.fn(async () => undefined);
    const page = await openPool({
      wallet: ready,
      walletApi: { sendTransfer: async () => ({ hash: HASH }), waitForConfirmations },
      api: {
        dashboardDeposit: async () => {
          if (++attempts === 1) throw Object.assign(shellApiError(409, 'The transaction is not in a block yet. Please try again in a moment.'), { code: 'TX_NOT_MINED' });
          return recorded(depositStatus('credited', 2));
        },
      },
    });
    typeAmount('Amount in US dollars', '100');
    await submit();
    await waitFor(() => expect(screen.getByTestId('deposit-progress').textContent).toContain('Credited'));
    expect(attempts).toBe(2);
    expect(waitForConfirmations).toHaveBeenCalledWith(HASH, 1);
    expect(page.notifications().map((n) => n.kind)).toEqual(['success']);
  });

  it('shows the server’s reason when it does not credit a deposit', async () => {
    await openPool({
      wallet: ready,
      walletApi: { sendTransfer: async () => ({ hash: HASH }) },
      api: { dashboardDeposit: async () => recorded({ ...depositStatus('refused', 0), reason: 'The transaction disappeared from the chain (reorganisation) and was not credited' }) },
    });
    typeAmount('Amount in US dollars', '100');
    await submit();
    await waitFor(() =>
      expect(screen.getByTestId('deposit-progress').textContent).toContain('Not credited: The transaction disappeared from the chain (reorganisation) and was not credited'),
    );
  });

  it('sends USDT scaled by 6 decimals', async () => {
    const sendTransfer = jest.fn(async () => ({ hash: HASH }));
    await openPool({ pool: 'stable', wallet: ready, walletApi: { sendTransfer }, api: { dashboardDeposit: async () => recorded(depositStatus('pending', 0, '25500000', 'USDT')) } });
    typeAmount('Amount in US dollars', '25.5');
    await submit();
    expect(sendTransfer).toHaveBeenCalledWith({ currency: 'USDT', to: POOL_USDT, units: '25500000' });
  });

  it('changes nothing when the person rejects the transaction (4001)', async () => {
    const rejection = Object.assign(new Error('user rejected action'), { code: 'ACTION_REJECTED', info: { error: { code: 4001 } } });
    const page = await openPool({ wallet: ready, walletApi: { sendTransfer: async () => Promise.reject(rejection) } });
    typeAmount('Amount in US dollars', '100');
    await submit();
    expect(page.notifications()).toEqual([{ kind: 'warning', message: 'You declined the transaction in your wallet. Nothing was sent.' }]);
    expect(page.calls.map((c) => c.name)).not.toContain('dashboardDeposit');
    expect(screen.queryByTestId('deposit-progress')).toBeNull();
    expect((screen.getByLabelText('Amount in US dollars') as HTMLInputElement).value).toBe('$ 100');
    expect((screen.getByRole('button', { name: 'Deposit' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it.each([
    ['insufficient funds for intrinsic transaction cost', undefined, 'Your wallet has no ETH to pay the network fee for this transaction. Add a little ETH to the wallet and try again.'],
    ['replacement transaction underpriced', 'REPLACEMENT_UNDERPRICED', 'The network fee offered was too low for the network now. Try again: your wallet will offer a current fee.'],
    ['nonce too low', undefined, "Your wallet's transaction count is out of step with the network. Reset the account's activity in the wallet (MetaMask: Settings → Advanced → Clear activity tab data) and try again."],
    ['execution reverted: 0xdeadbeef', undefined, 'The wallet could not send the transaction.'],
  ])('finding 6: a wallet or node failure (%s) is said in the product’s words, beside the form and in a warning; the raw text never shows', async (raw, code, said) => {
    const failure = Object.assign(new Error(`long text: ${raw}`), { shortMessage: raw, ...(code ? { code } : {}) });
    const page = await openPool({ wallet: ready, walletApi: { sendTransfer: async () => Promise.reject(failure) } });
    typeAmount('Amount in US dollars', '100');
    await submit();
    expect(page.notifications()).toEqual([{ kind: 'warning', message: said }]);
    expect(screen.getByTestId('deposit-wallet-error').textContent).toBe(said);
    expect(document.body.textContent).not.toContain(raw);
  });

  it('finding 6: a token deposit with no ETH for the network fee is refused before anything is sent', async () => {
    const sendTransfer = jest.fn();
    const page = await openPool({ pool: 'stable', wallet: { ...ready, balances: { ...ready.balances, ETH: '0' } }, walletApi: { sendTransfer } });
    typeAmount('Amount in US dollars', '10');
    await submit();
    expect(sendTransfer).not.toHaveBeenCalled();
    expect(page.notifications()).toEqual([{ kind: 'warning', message: 'Your wallet has no ETH to pay the network fee for this transaction. Add a little ETH to the wallet and try again.' }]);
    expect(screen.getByTestId('deposit-wallet-error')).toBeTruthy();
  });

  it('warns with the server’s message when the record fails, and can record again', async () => {
    let attempts = 0;
    const page = await openPool({
      wallet: ready,
      walletApi: { sendTransfer: async () => ({ hash: HASH }) },
      api: {
        dashboardDeposit: async () => {
          attempts++;
          if (attempts === 1) throw shellApiError(409, 'This transaction is already recorded');
          return recorded();
        },
      },
    });
    typeAmount('Amount in US dollars', '100');
    await submit();
    expect(page.notifications()[1]).toEqual({ kind: 'warning', message: 'This transaction is already recorded' });
    expect(screen.getByTestId('deposit-progress').textContent).toContain('Not recorded yet');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Record again' }));
    });
    expect(attempts).toBe(2);
    await waitFor(() => expect(screen.getByTestId('deposit-progress').textContent).toMatch(/Confirming|Credited/));
  });
});

it('records on the next visit a deposit whose record got no answer (the money left the wallet)', async () => {
  const first = await openPool({
    wallet: ready,
    walletApi: { sendTransfer: async () => ({ hash: HASH }) },
    api: { dashboardDeposit: async () => Promise.reject(shellApiError(0, 'Something went wrong. Please try again later.')) },
  });
  typeAmount('Amount in US dollars', '100');
  await submit();
  expect(first.notifications()[1]).toEqual({ kind: 'warning', message: 'Something went wrong. Please try again later.' });
  first.unmount();

  const second = await openPool({ wallet: ready, api: { dashboardDeposit: async () => recorded(depositStatus('credited', 2)) } });
  await waitFor(() => expect(screen.getByTestId('deposit-progress').textContent).toContain('Credited'));
  expect(second.calls.find((c) => c.name === 'dashboardDeposit')?.request).toEqual({
    body: { pool: 'coin', amount: '33333333333333334', currency: 'ETH', transaction: HASH, chainId: 1 },
  });
  second.unmount();
  // Recorded: a third visit has nothing to send.
  const third = await openPool({ wallet: ready });
  expect(third.calls.map((c) => c.name)).not.toContain('dashboardDeposit');
});

describe('withdraw', () => {
  async function openWithdraw(answer: () => Promise<unknown>, more: Parameters<typeof openPool>[0] = {}) {
    const api = { dashboardPool: async () => ({ ...coinPool, deposited: { ETH: (ETH / 10n).toString() } }), dashboardWithdraw: answer, ...more.api };
    const page = await openPool({ ...more, api });
    const tab = more.lang === 'ru' ? 'Вывести' : 'Withdraw';
    fireEvent.click(screen.getByRole('tab', { name: tab }));
    expect(screen.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true');
    expect(document.getElementById('withdraw-amount-available')!.textContent).toBe(more.lang === 'ru' ? 'В этом пуле: 0,1\u00a0ETH' : 'In this pool: 0.1\u00a0ETH');
    return page;
  }

  it('shows the smallest withdrawal and refuses less in the server’s words, without a request', async () => {
    const page = await openWithdraw(async () => ({ ...movement, status: 'requested' }));
    const input = screen.getByLabelText('Amount in ETH');
    // The rules answer says 10^15 wei: 0.001 ETH.
    await waitFor(() => expect(describedBy(input)).toContain('Smallest withdrawal: 0.001\u00a0ETH'));
    typeAmount('Amount in ETH', '0.0009');
    await submit('Request withdrawal');
    expect(describedBy(input)).toContain('The smallest withdrawal of ETH is 0.001 ETH');
    expect(page.calls.map((c) => c.name)).not.toContain('dashboardWithdraw');
    typeAmount('Amount in ETH', '0.001');
    await submit('Request withdrawal');
    await submit('Confirm withdrawal');
    expect(page.calls.find((c) => c.name === 'dashboardWithdraw')?.request).toEqual({ body: { pool: 'coin', amount: (ETH / 1000n).toString(), currency: 'ETH' } });
  });

  it('says a currency the server does not list cannot be withdrawn, in Russian too', async () => {
    const rules = async () => ({ currencies: [{ currency: 'USDT', minimum: '1000000', fee: '0' }], perHour: 5, perDay: 10 });
    const page = await openWithdraw(async () => ({ ...movement, status: 'requested' }), { lang: 'ru', api: { dashboardWithdrawRules: rules } });
    const input = screen.getByLabelText('Сумма в ETH');
    await waitFor(() => expect(describedBy(input)).toContain('Вывод ETH пока недоступен'));
    typeAmount('Сумма в ETH', '0.05');
    await submit('Запросить вывод');
    expect(describedBy(input)).toContain('Вывод ETH пока недоступен');
    expect(page.calls.map((c) => c.name)).not.toContain('dashboardWithdraw');
  });

  it('sends the request in base units and shows the server’s answer', async () => {
    const page = await openWithdraw(async () => ({ ...movement, message: 'Withdrawal request has been successfully sent! Payment will be processed soon.', status: 'requested' }));
    fireEvent.click(screen.getByRole('button', { name: 'Max' }));
    await submit('Request withdrawal');
    await submit('Confirm withdrawal');
    expect(page.calls.find((c) => c.name === 'dashboardWithdraw')?.request).toEqual({ body: { pool: 'coin', amount: (ETH / 10n).toString(), currency: 'ETH' } });
    expect(page.notifications()).toEqual([{ kind: 'success', message: 'Withdrawal request has been successfully sent! Payment will be processed soon.' }]);
  });

  it('shows the server’s refusal: nothing deposited', async () => {
    const page = await openWithdraw(async () => Promise.reject(shellApiError(400, 'You have not replenished this pool yet')));
    fireEvent.change(screen.getByLabelText('Amount in ETH'), { target: { value: '0.05' } });
    await submit('Request withdrawal');
    await submit('Confirm withdrawal');
    expect(page.notifications()).toEqual([{ kind: 'warning', message: 'You have not replenished this pool yet' }]);
    expect(describedBy(screen.getByLabelText('Amount in ETH'))).toContain('You have not replenished this pool yet');
  });

  it('says the request failed when the server does not answer', async () => {
    const page = await openWithdraw(async () => Promise.reject(shellApiError(0, 'Something went wrong. Please try again later.')));
    fireEvent.change(screen.getByLabelText('Amount in ETH'), { target: { value: '0.05' } });
    await submit('Request withdrawal');
    await submit('Confirm withdrawal');
    expect(page.notifications()).toEqual([{ kind: 'error', message: 'Failed to send withdrawal request. Please try again.' }]);
  });
});

describe('withdrawal quote (issue 27, finding 5)', () => {
  const held = '2026-02-01T10:30:00.000Z';
  async function quoted(answer: { fee: string; receive: string; approvalRequired: boolean; heldUntil?: string }, lang?: 'ru') {
    const api = {
      dashboardPool: async () => ({ ...coinPool, deposited: { ETH: (ETH / 10n).toString() } }),
      dashboardWithdraw: async () => ({ ...movement, status: 'requested' }),
      dashboardWithdrawQuote: async () => answer,
    };
    const page = await openPool({ api, lang });
    fireEvent.click(screen.getByRole('tab', { name: lang === 'ru' ? 'Вывести' : 'Withdraw' }));
    typeAmount(lang === 'ru' ? 'Сумма в ETH' : 'Amount in ETH', '0.05');
    await submit(lang === 'ru' ? 'Запросить вывод' : 'Request withdrawal');
    return page;
  }

  it('finding 5: before anything is requested the form shows the amount, the fee, what arrives and that an approval comes first', async () => {
    // 0.05 ETH less a fee of 0.000123456789012345 ETH: 0.049876543210987655 ETH, every digit shown.
    const fee = 123456789012345n;
    const page = await quoted({ fee: String(fee), receive: String(ETH / 20n - fee), approvalRequired: true });
    expect(page.calls.find((c) => c.name === 'dashboardWithdrawQuote')?.request).toMatchObject({ query: { pool: 'coin', currency: 'ETH', amount: String(ETH / 20n) } });
    expect(page.calls.map((c) => c.name)).not.toContain('dashboardWithdraw');
    expect(screen.getByTestId('quote-amount').textContent).toBe('0.05\u00a0ETH');
    expect(screen.getByTestId('quote-fee').textContent).toBe('0.000123456789012345\u00a0ETH');
    expect(screen.getByTestId('quote-receive').textContent).toBe('0.049876543210987655\u00a0ETH');
    expect(screen.getByTestId('quote-next').textContent).toBe('Above the approval limit: an operator approves it before it is sent.');
    // Change goes back to the amount; nothing was requested.
    await submit('Change');
    expect(screen.queryByTestId('withdraw-quote')).toBeNull();
    expect(page.calls.map((c) => c.name)).not.toContain('dashboardWithdraw');
  });

  it('finding 5: a hold after an account change is said with its end, in Russian too', async () => {
    await quoted({ fee: '0', receive: String(ETH / 20n), approvalRequired: false, heldUntil: held }, 'ru');
    expect(screen.getByTestId('quote-receive').textContent).toBe('0,05\u00a0ETH');
    expect(screen.getByTestId('quote-next').textContent).toContain('ждёт до');
    expect(screen.getByTestId('quote-next').textContent).toContain('UTC');
  });
});

it("finding 9: the pool page shows the interest the user earned in that pool beside the position", async () => {
  const summary = await insightAnswers.cabinetSummary();
  const withEarned = {
    ...summary,
    pools: summary.pools.map((p) => (p.pool === 'coin' ? { ...p, positions: [{ currency: 'ETH', balance: '1001234500000000000', earned: '1234500000000000', valueUsd: '3003.70' }], valueUsd: '3003.70' } : p)),
  };
  await openPool({ api: { cabinetSummary: async () => withEarned } });
  const earned = await screen.findByTestId('figure-earned');
  // 0.0012345 ETH has five significant digits: shown whole.
  await waitFor(() => expect(earned.textContent).toContain('0.0012345\u00a0ETH'));
  expect(earned.textContent).toContain('Interest earned here');
});

it('finding 4: the ROI calculator starts from the user\'s position, says its unit, and shows a figure by magnitude with the exact one on demand', async () => {
  await openPool({ api: { dashboardPool: async () => ({ ...coinPool, deposited: { ETH: (ETH / 2n).toString() } }) } });
  const amount = (await screen.findByLabelText('Amount to project, in ETH')) as HTMLInputElement;
  expect(amount.value).toBe('0.5');
  const earned = await screen.findByTestId('roi-earned-amount');
  // 0.5 ETH for 30 days at 8 % (the test's own compounding): exact to the wei on demand, shown to six
  // significant digits (0.00dddddd) rounded half up.
  const wei = independentEarned(ETH / 2n, 8n, 100n, 30);
  const decimal = (units: bigint, places: number) => `0.${String(units).padStart(places, '0')}`.replace(/0+$/, '');
  expect(wei < 10n ** 16n && wei >= 10n ** 15n).toBe(true);
  expect(earned.textContent).toBe(`${decimal((wei + 5n * 10n ** 9n) / 10n ** 10n, 8)}\u00a0ETH`);
  fireEvent.click(within(earned).getByRole('button'));
  expect(earned.textContent).toBe(`${decimal(wei, 18)}\u00a0ETH`);
  expect(earned.getAttribute('data-full')).toBe(decimal(wei, 18));
});

it('moves between the tabs with the arrow keys', async () => {
  await openPool({});
  const deposit = screen.getByRole('tab', { name: 'Deposit' });
  deposit.focus();
  fireEvent.keyDown(deposit, { key: 'ArrowRight' });
  const withdraw = screen.getByRole('tab', { name: 'Withdraw' });
  expect(document.activeElement).toBe(withdraw);
  expect(withdraw.getAttribute('aria-selected')).toBe('true');
  expect(screen.getByRole('tabpanel').id).toBe('pool-panel-withdraw');
  expect(withdraw.tabIndex).toBe(0);
  expect(deposit.tabIndex).toBe(-1);
});

it('offers ETH only, and refuses it, when the server has no such pool (spec §3)', async () => {
  await openPool({ api: { dashboardPool: async () => Promise.reject(shellApiError(404, 'Not found')) } });
  const select = within(screen.getByRole('tabpanel')).getByLabelText('Currency') as HTMLSelectElement;
  expect([...select.options].map((o) => o.value)).toEqual(['ETH']);
  expect(screen.getByText('This pool does not take ETH deposits right now.')).toBeTruthy();
});
