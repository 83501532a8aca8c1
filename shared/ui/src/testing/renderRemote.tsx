import type { ReactElement } from 'react';
import { act, render, type RenderResult } from '@testing-library/react';
import { MemoryRouter, useLocation } from '@app/singletons/router';
import { I18nextProvider } from '@app/singletons/react-i18n';
import i18next from 'i18next';
import type { ApiClient, BusCommand, Notification, RemoteProps, RemoteWallet, SessionState, WalletState } from '@app/contracts';
import { createBus, disconnectedWallet } from '../bus';
import { RemoteContext } from '../remote/RemoteContext';

export interface RemoteSetup {
  /** The remote's i18next namespace and its strings. */
  namespace: string;
  strings: Record<'en' | 'ru', Record<string, unknown>>;
  /** The address opened, without the locale prefix, e.g. '/sign-in?error=auth'. */
  path: string;
  lang?: 'en' | 'ru';
  /** Answers by call name; each gets the request. A call without an answer fails the request. */
  api?: Partial<Record<string, (request: unknown) => Promise<unknown>>>;
  session?: SessionState;
  wallet?: WalletState;
  walletApi?: Partial<RemoteWallet>;
  /** The shell throws on every notification (as a broken notification centre would). */
  notificationsThrow?: boolean;
}

export interface RenderedRemote extends RenderResult {
  commands: BusCommand[];
  notifications(): Notification[];
  calls: Array<{ name: string; request: unknown }>;
  /** Where the remote's router is now (with the locale prefix). */
  location(): string;
  setWallet(wallet: WalletState): void;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/**
 * Part of a remote as the shell mounts it, for component tests: the parcel props (a real bus,
 * a scripted API client, a wallet that sends nothing unless told), its namespace, and a router
 * under the locale's basename.
 */
export function renderRemote(ui: ReactElement, setup: RemoteSetup): RenderedRemote {
  const lang = setup.lang ?? 'en';
  const basename = lang === 'ru' ? '/ru' : '';
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: lang,
    fallbackLng: 'en',
    ns: [setup.namespace],
    defaultNS: setup.namespace,
    resources: { en: { [setup.namespace]: setup.strings.en }, ru: { [setup.namespace]: setup.strings.ru } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const bus = createBus({
    session: setup.session ?? { status: 'anonymous' },
    wallet: setup.wallet ?? disconnectedWallet,
    theme: { choice: 'light', resolved: 'light' },
    locale: lang,
    route: { pathname: `${basename}${setup.path}`, search: '', hash: '', key: 'test' },
  });
  const commands: BusCommand[] = [];
  bus.commands$.subscribe((c) => commands.push(c));
  const calls: RenderedRemote['calls'] = [];
  const api: ApiClient = {
    call: ((name: string, request: unknown) => {
      calls.push({ name, request });
      const answer = setup.api?.[name];
      if (!answer) return Promise.reject(new Error(`unexpected call ${name}`));
      return answer(request);
    }) as ApiClient['call'],
  };
  const send: RemoteProps['bus']['send'] = (command) => {
    bus.send(command);
    if (setup.notificationsThrow && command.type === 'notify') throw new TypeError('Illegal invocation');
  };
  const props = {
    bus: { ...bus.remoteView, send },
    basename,
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
      <I18nextProvider i18n={i18n} defaultNS={setup.namespace}>
        <MemoryRouter basename={basename || '/'} initialEntries={[`${basename}${setup.path}`]}>
          {ui}
          <LocationProbe />
        </MemoryRouter>
      </I18nextProvider>
    </RemoteContext.Provider>,
  );
  return {
    ...result,
    commands,
    calls,
    notifications: () => commands.flatMap((c) => (c.type === 'notify' ? [c.notification] : [])),
    location: () => `${basename}${result.getByTestId('location').textContent ?? ''}`,
    setWallet: (wallet) => act(() => bus.wallet.next(wallet)),
  };
}

/** A promise with its settle functions, to hold a request open while the test looks. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * An error as the shell's API client throws it. The client is the shell's, so is its ApiError
 * class: this is deliberately another class of that name, not the one a remote bundles.
 */
export function shellApiError(status: number, message: string, fields: Record<string, string> = {}): Error {
  return Object.assign(new Error(message), { name: 'ApiError', status, fields });
}
