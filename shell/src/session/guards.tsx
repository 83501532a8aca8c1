import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { CONTRACT_VERSION, type RemoteEntry, type RemoteRoute } from '@app/contracts';
import { useObservable } from '@app/ui';
import { useShell } from '../app/ShellContext';
import { localeOfPath, withLocale } from '../locale/locale';
import { warmRemote } from '../remotes/loader';
import { NotFoundPage } from '../pages/ErrorPages';

// The home page is for visitors: a signed-in user goes on to the dashboard, as from the other visitor pages.
const AUTH_PAGES = ['/', '/sign-in', '/sign-up', '/password-recovery', '/registration-confirm'];
const REGISTRATION_CONFIRM = '/registration-confirm';

/**
 * Access control of spec §4: visitors reach only the auth pages; a signed-in user without a
 * role belongs on /registration-confirm; a fully registered user has no business on auth pages.
 */
export function RouteAccess({ route, remote, children }: { route: RemoteRoute; remote?: RemoteEntry; children: ReactNode }) {
  const { bus } = useShell();
  const { t } = useTranslation('shell');
  const session = useObservable(bus.session, bus.session.getValue());
  const location = useLocation();
  const locale = localeOfPath(location.pathname);
  const waiting = session.status === 'unknown';
  // While the session is read, the page's remote gets ready, so it mounts as soon as access is known;
  // never a remote of a role's own (the operator console), which nobody else may even fetch.
  useEffect(() => {
    if (waiting && remote && !route.role) warmRemote(remote, CONTRACT_VERSION);
  }, [waiting, remote, route.role]);

  if (waiting) return <p className="remote-loading">{t('remote.loading')}</p>;
  if (route.private) {
    if (session.status !== 'authenticated') {
      // After a logout the sign-in page is simply next; otherwise say why the user is there.
      const reason = session.status === 'anonymous' && session.reason === 'logout' ? '' : '?error=auth';
      return <Navigate to={`${withLocale('/sign-in', locale)}${reason}`} replace />;
    }
    if (!session.user.role) return <Navigate to={withLocale(REGISTRATION_CONFIRM, locale)} replace />;
  }
  // A route of a role (the operator console) does not exist for anyone without it: the same page
  // as any unknown address, and its remote is never loaded.
  if (route.role && (session.status !== 'authenticated' || session.user.role !== route.role)) return <NotFoundPage />;
  if (!route.private && AUTH_PAGES.includes(route.path) && session.status === 'authenticated' && session.user.role) {
    return <Navigate to={withLocale('/cabinet/dashboard', locale)} replace />;
  }
  return <>{children}</>;
}
