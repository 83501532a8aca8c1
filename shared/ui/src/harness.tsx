import './styles.css';
import i18next from 'i18next';
import { createApiClient, type RemoteModule, type RemoteProps } from '@app/contracts';
import { createBus, disconnectedWallet, routeFromLocation } from './bus';

/**
 * A small stand-in for the shell, so a team can run its remote alone: a bus, i18n, the
 * browser history, and the remote mounted in #root. Commands are logged.
 */
export async function runHarness(remote: RemoteModule): Promise<void> {
  const locale = location.pathname.startsWith('/ru') ? 'ru' : 'en';
  const i18n = i18next.createInstance();
  await i18n.init({ lng: locale, fallbackLng: 'en', resources: {}, interpolation: { escapeValue: false } });
  const current = () => routeFromLocation({ ...location, state: history.state, key: String(Date.now()) });
  const bus = createBus({
    session: { status: 'authenticated', user: { id: 1, login: 'harness@example.com', name: 'Harness', role: 'user' } },
    wallet: disconnectedWallet,
    theme: { choice: 'light', resolved: 'light' },
    locale,
    route: current(),
  });
  bus.commands$.subscribe((command) => {
    console.info('[harness] command', command);
    if (command.type === 'navigate') {
      history[command.replace ? 'replaceState' : 'pushState'](command.state ?? null, '', command.to);
      bus.route.next(current());
    } else if (command.type === 'history/go') history.go(command.delta);
  });
  addEventListener('popstate', () => bus.route.next(current()));

  const domElement = document.getElementById('root')!;
  const props: RemoteProps = {
    bus: bus.remoteView,
    basename: locale === 'ru' ? '/ru' : '',
    i18n,
    // The harness has no session of its own: calls go to the API (proxied by the dev server)
    // with the token of a sign-in made from the remote, if any.
    api: (() => {
      let token: string | null = null;
      return createApiClient({ accessToken: () => token, refresh: async () => null, onAuthenticated: (auth) => (token = auth.token), language: () => locale });
    })(),
    // No wallet in the harness: wallet actions fail as they would with none connected.
    wallet: {
      sendTransfer: () => Promise.reject(new Error('Metamask not connection')),
      waitForConfirmations: () => Promise.reject(new Error('Metamask not connection')),
      refreshBalances: async () => undefined,
    },
    contractVersion: remote.contractVersion,
    onRemoteError: (error) => console.error('[harness] remote error', error),
    domElement,
  };
  await remote.bootstrap(props);
  await remote.mount(props);
}
