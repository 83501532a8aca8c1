import { createRoot } from 'react-dom/client';
import type { Location as RouterLocation } from '@app/singletons/router';
import { I18nextProvider } from '@app/singletons/react-i18n';
import { Provider as JotaiProvider, createStore } from 'jotai';
import i18next from 'i18next';
import { createBus, disconnectedWallet, routeFromLocation } from '@app/ui';
import { readPageBrand } from '../brand/brand';
import { createTranslations } from '../i18n/translations';
import { localeOfPath, rememberLocale, rememberedLocale, stripLocale, withLocale } from '../locale/locale';
import { createNotificationCenter } from '../notifications/notifications';
import { LastResort } from '../pages/ErrorPages';
import { StartupErrorPage } from '../pages/StartupErrorPage';
import { ManifestError, fetchRuntimeManifest, routeOwner } from '../remotes/manifest';
import { rememberArrival } from '../tracking/tracking';
import { resolveTheme, startThemeService, storedThemeChoice } from '../theme/theme';
import { createShellHistory } from './history';
import { ShellRoutes, buildRoutes, loadInnerLayout } from './routes';
import { ShellContext } from './ShellContext';
import { termsOpenAtom, walletPromptOpenAtom } from './uiState';
import { createSessionService } from '../session/session';
import { fetchTakingEarlyCalls } from '../session/early';
import { createLazyWalletService } from '../wallet/lazyWallet';

export async function start(): Promise<void> {
  const root = createRoot(document.getElementById('root')!);

  // A visitor who chose Russian before lands on the Russian page of an English link.
  const remembered = rememberedLocale();
  if (remembered === 'ru' && localeOfPath(location.pathname) === 'en') {
    history.replaceState(history.state, '', withLocale(location.pathname, 'ru') + location.search + location.hash);
  }
  rememberArrival(location.search);

  const locale = localeOfPath(location.pathname);
  const translations = createTranslations();
  translations.add('shell', {
    en: () => import('../i18n/en.json').then((m) => m.default),
    ru: () => import('../i18n/ru.json').then((m) => m.default),
  });
  const i18n = i18next.createInstance();
  const bus = createBus({
    session: { status: 'unknown' },
    wallet: disconnectedWallet,
    theme: resolveTheme(storedThemeChoice(), matchMedia('(prefers-color-scheme: dark)').matches),
    locale,
    route: routeFromLocation({ ...location, state: history.state }),
  });
  startThemeService(bus);
  const notifications = createNotificationCenter(bus);

  const store = createStore();
  const session = createSessionService(bus, {
    onLoggedOut: (silent) => {
      if (!silent) bus.send({ type: 'notify', notification: { kind: 'success', message: i18n.t('session.loggedOut', { ns: 'shell' }) } });
    },
    // Preferences kept with the account follow it to another device. After the sign-in page's
    // own navigation (a timer later), so the language switch applies to the page it went to.
    onSignedIn: ({ preferences }) => {
      if (!preferences) return;
      setTimeout(() => {
        if (preferences.theme !== bus.theme.getValue().choice) bus.send({ type: 'theme/set', choice: preferences.theme });
        if (preferences.lang !== bus.locale.getValue()) bus.send({ type: 'locale/set', locale: preferences.lang });
      }, 0);
    },
    // The refresh and first calls the page's inline script started are taken, not made again.
  }, fetchTakingEarlyCalls());
  // The session is read from the refresh cookie while the strings load and the page renders:
  // guarded routes wait for it, and a signed-in page's remote gets ready meanwhile.
  void session.restore();

  // The runtime manifest is fetched while the strings load.
  const manifestLoad = fetchRuntimeManifest().then(
    (manifest) => ({ manifest }),
    (error: unknown) => ({ error }),
  );
  await i18n.use(translations.backend).init({
    lng: locale,
    fallbackLng: 'en',
    ns: ['shell'],
    defaultNS: 'shell',
    interpolation: { escapeValue: false },
    // Loads the strings at once rather than from a timer: under a busy start-up a timer task
    // waits behind everything else queued.
    initAsync: false,
  });
  rememberLocale(locale);
  document.documentElement.lang = locale;

  const brand = readPageBrand();
  const brandTitle = brand.title;
  document.title = brandTitle;

  const loaded = await manifestLoad;
  if ('error' in loaded) {
    const { error } = loaded;
    const kind = error instanceof ManifestError && error.message === 'malformed' ? 'malformed' : 'unreachable';
    root.render(<StartupErrorPage i18n={i18n} kind={kind} detail={error instanceof ManifestError ? error.detail : String(error)} />);
    return;
  }
  const { manifest } = loaded;

  // A cabinet page's layout is in before the first render, which then shows it at once.
  if (routeOwner(manifest, stripLocale(location.pathname))?.route.layout === 'inner') await loadInnerLayout().catch(() => undefined);

  const wallet = createLazyWalletService({ bus, session, i18n, openWalletPrompt: () => store.set(walletPromptOpenAtom, true) });

  // The bus mirrors the history before React renders, so a remote mounting for a new route
  // already sees that route.
  const onLocation = (loc: RouterLocation) => {
    bus.route.next(routeFromLocation(loc));
    const next = localeOfPath(loc.pathname);
    if (next !== bus.locale.getValue()) {
      void i18n.changeLanguage(next);
      document.documentElement.lang = next;
      rememberLocale(next);
      bus.locale.next(next);
    }
  };
  const shellHistory = createShellHistory(onLocation);
  onLocation(shellHistory.location());
  const routes = buildRoutes(manifest, notifications);

  bus.commands$.subscribe((command) => {
    switch (command.type) {
      case 'navigate':
        shellHistory.navigate(command.to, { replace: command.replace ?? false, state: command.state });
        break;
      case 'history/go':
        shellHistory.go(command.delta);
        break;
      case 'locale/set': {
        const { pathname, search, hash } = shellHistory.location();
        rememberLocale(command.locale);
        shellHistory.navigate(withLocale(stripLocale(pathname), command.locale) + search + hash);
        break;
      }
      case 'session/logout':
        void session.logout();
        break;
      case 'session/reload-user':
        session.reloadUser().catch((error: unknown) => console.warn('profile reload failed', error));
        break;
      case 'modal/terms':
        store.set(termsOpenAtom, true);
        break;
      default:
        break;
    }
  });

  const remoteTranslations = translations.forRemotes(i18n);
  root.render(
    <LastResort>
      <ShellContext.Provider value={{ bus, i18n, translations: remoteTranslations, manifest, brandTitle, brand, session, wallet }}>
        <I18nextProvider i18n={i18n} defaultNS="shell">
          <JotaiProvider store={store}>
            <shellHistory.ShellRouter>
              <ShellRoutes routes={routes} />
            </shellHistory.ShellRouter>
          </JotaiProvider>
        </I18nextProvider>
      </ShellContext.Provider>
    </LastResort>,
  );
}
