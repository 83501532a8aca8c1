import type { ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { MemoryRouter, useLocation } from '@app/singletons/router';
import { I18nextProvider } from '@app/singletons/react-i18n';
import i18next from 'i18next';
import type { ApiClient, BusCommand, Notification, RemoteProps, SessionState, WalletState } from '@app/contracts';
import { RemoteContext, createBus, disconnectedWallet } from '@app/ui';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';

export interface PageSetup {
  /** The address opened, without the locale prefix, e.g. '/sign-in?error=auth'. */
  path: string;
  lang?: 'en' | 'ru';
  /** Answers by call name; each gets the request. */
  api?: Partial<Record<string, (request: unknown) => Promise<unknown>>>;
  session?: SessionState;
  wallet?: WalletState;
  /** The shell throws on every notification (as a broken notification centre would). */
  notificationsThrow?: boolean;
}

export interface RenderedPage extends RenderResult {
  commands: BusCommand[];
  notifications(): Notification[];
  calls: Array<{ name: string; request: unknown }>;
  /** Where the page's router is now (with the locale prefix). */
  location(): string;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** A page of this remote as the shell mounts it: its props, its namespace, its router under the basename. */
export function renderPage(ui: ReactElement, setup: PageSetup): RenderedPage {
  const lang = setup.lang ?? 'en';
  const basename = lang === 'ru' ? '/ru' : '';
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: lang,
    fallbackLng: 'en',
    ns: ['auth'],
    defaultNS: 'auth',
    resources: { en: { auth: en }, ru: { auth: ru } },
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
  const calls: RenderedPage['calls'] = [];
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
      sendTransfer: () => Promise.reject(new Error('no wallet in these tests')),
      waitForConfirmations: () => Promise.reject(new Error('no wallet in these tests')),
      refreshBalances: async () => undefined,
    },
    api,
    contractVersion: 'test',
    onRemoteError: () => undefined,
    domElement: document.body,
  } as RemoteProps;
  const result = render(
    <RemoteContext.Provider value={props}>
      <I18nextProvider i18n={i18n} defaultNS="auth">
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
 * class: this is deliberately another class of that name, not the one this remote bundles.
 */
export function shellApiError(status: number, message: string, fields: Record<string, string> = {}): Error {
  class ApiError extends Error {
    constructor(
      readonly status: number,
      message: string,
      readonly fields: Record<string, string>,
    ) {
      super(message);
      this.name = 'ApiError';
    }
  }
  return new ApiError(status, message, fields);
}
