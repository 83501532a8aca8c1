import type { MouseEvent } from 'react';
import { Route, Routes, useParams } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { Page, useRemote } from '@app/ui';
import { SessionContext, useConsole, useSessionState } from './client';
import { SignIn } from './screens/SignIn';
import { Overview } from './screens/Overview';
import { Withdrawals } from './screens/Withdrawals';
import { AuditLog } from './screens/AuditLog';
import { Users } from './screens/Users';
import { Unclaimed } from './screens/Unclaimed';
import { DaoProposals } from './screens/DaoProposals';
import { MoneySettings } from './screens/MoneySettings';

/** The console's screens, by the last part of their address (/operator/<screen>); the overview is /operator. */
export const SCREENS = [
  { screen: '', key: 'overview', Component: Overview },
  { screen: 'withdrawals', key: 'withdrawals', Component: Withdrawals },
  { screen: 'audit', key: 'audit', Component: AuditLog },
  { screen: 'users', key: 'users', Component: Users },
  { screen: 'unclaimed', key: 'unclaimed', Component: Unclaimed },
  { screen: 'dao', key: 'dao', Component: DaoProposals },
  { screen: 'money', key: 'money', Component: MoneySettings },
] as const;

function ConsoleNav({ current }: { current: string }) {
  const { t } = useTranslation();
  const { basename, bus } = useRemote();
  const { session, signOut } = useConsole();
  const href = (screen: string) => `${basename}/operator${screen ? `/${screen}` : ''}`;
  const go = (screen: string) => (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    bus.send({ type: 'navigate', to: href(screen) });
  };
  return (
    <div className="operator__bar">
      <nav aria-label={t('nav.label')}>
        <ul className="operator__nav">
          {SCREENS.map((s) => (
            <li key={s.key}>
              <a href={href(s.screen)} onClick={go(s.screen)} aria-current={s.screen === current ? 'page' : undefined}>
                {t(`${s.key}.title`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p className="operator__who">
        <span data-testid="operator-name">{t('session.as', { name: session?.name ?? '' })}</span>{' '}
        <button type="button" className="btn btn--link" onClick={signOut}>
          {t('session.signOut')}
        </button>
      </p>
    </div>
  );
}

function Screen() {
  const { t } = useTranslation();
  const { screen = '' } = useParams();
  const { session } = useConsole();
  const found = SCREENS.find((s) => s.screen === screen);
  if (!session) return <SignIn />;
  if (!found) {
    return (
      <Page title={t('notFound')}>
        <ConsoleNav current={screen} />
      </Page>
    );
  }
  const { Component } = found;
  return (
    <Page title={t(`${found.key}.title`)}>
      <ConsoleNav current={screen} />
      <Component />
    </Page>
  );
}

export function App() {
  const { i18n } = useTranslation();
  const state = useSessionState(i18n.language);
  return (
    <SessionContext.Provider value={state}>
      <div className="operator">
        <Routes>
          <Route path="/operator" element={<Screen />} />
          <Route path="/operator/:screen" element={<Screen />} />
        </Routes>
      </div>
    </SessionContext.Provider>
  );
}
