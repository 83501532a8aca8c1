import type { ReactElement } from 'react';
import { act, render, type RenderResult } from '@testing-library/react';
import { MemoryRouter } from '@app/singletons/router';
import { I18nextProvider } from '@app/singletons/react-i18n';
import i18next from 'i18next';
import type { ApiClient, BusCommand, DashboardPoolResponse, Notification, RemoteProps, RemoteWallet, WalletState } from '@app/contracts';
import { RemoteContext, createBus, disconnectedWallet } from '@app/ui';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';

export interface PoolSetup {
  lang?: 'en' | 'ru';
  /** Answers by call name; each gets the request. */
  api?: Partial<Record<string, (request: unknown) => Promise<unknown>>>;
  wallet?: WalletState;
  walletApi?: Partial<RemoteWallet>;
}

export interface RenderedPool extends RenderResult {
  commands: BusCommand[];
  notifications(): Notification[];
  calls: Array<{ name: string; request: unknown }>;
  setWallet(wallet: WalletState): void;
}

/** A part of this remote as the shell mounts it: fake props, its namespace, a router. */
export function renderPool(ui: ReactElement, setup: PoolSetup = {}): RenderedPool {
  const lang = setup.lang ?? 'en';
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: lang,
    fallbackLng: 'en',
    ns: ['pools'],
    defaultNS: 'pools',
    resources: { en: { pools: en }, ru: { pools: ru } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const bus = createBus({
    session: { status: 'authenticated', user: { id: 'u1', login: 'ann@example.com', role: 'user' } },
    wallet: setup.wallet ?? disconnectedWallet,
    theme: { choice: 'light', resolved: 'light' },
    locale: lang,
    route: { pathname: '/cabinet/pools/coin', search: '', hash: '', key: 'test' },
  });
  const commands: BusCommand[] = [];
  bus.commands$.subscribe((c) => commands.push(c));
  const calls: RenderedPool['calls'] = [];
  const api: ApiClient = {
    call: ((name: string, request: unknown) => {
      calls.push({ name, request });
      const answer = setup.api?.[name];
      if (!answer) return Promise.reject(new Error(`unexpected call ${name}`));
      return answer(request);
    }) as ApiClient['call'],
  };
  const props = {
    bus: bus.remoteView,
    basename: lang === 'ru' ? '/ru' : '',
    i18n,
    wallet: {
      sendTransfer: () => Promise.reject(new Error('no transfer expected')),
      waitForConfirmations: async () => undefined,
      refreshBalances: async () => undefined,
      ...setup.walletApi,
    },
    api,
    contractVersion: 'test',
    onRemoteError: () => undefined,
    domElement: document.body,
  } as RemoteProps;
  const result = render(
    <RemoteContext.Provider value={props}>
      <I18nextProvider i18n={i18n} defaultNS="pools">
        <MemoryRouter initialEntries={['/cabinet/pools/coin']}>{ui}</MemoryRouter>
      </I18nextProvider>
    </RemoteContext.Provider>,
  );
  return {
    ...result,
    commands,
    calls,
    notifications: () => commands.flatMap((c) => (c.type === 'notify' ? [c.notification] : [])),
    setWallet: (wallet) => act(() => bus.wallet.next(wallet)),
  };
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

/** An error as the shell's API client throws it (its class is the shell's: same name, not the same class). */
export function shellApiError(status: number, message: string): Error {
  return Object.assign(new Error(message), { name: 'ApiError', status, fields: {} });
}

export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
