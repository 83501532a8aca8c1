import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { CONTRACT_VERSION, type RemoteEntry, type RemoteRoute } from '@app/contracts';
import { useObservable } from '@app/ui';
import { useShell } from '../app/ShellContext';
import { localeOfPath, withLocale } from '../locale/locale';
import { warmRemote } from '../remotes/loader';

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
  // While the session is read, the page's remote gets ready, so it mounts as soon as access is known.
  useEffect(() => {
    if (waiting && remote) warmRemote(remote, CONTRACT_VERSION);
  }, [waiting, remote]);

  if (waiting) return <p className="remote-loading">{t('remote.loading')}</p>;
  if (route.private) {
    if (session.status !== 'authenticated') {
      // After a logout the sign-in page is simply next; otherwise say why the user is there.
      const reason = session.status === 'anonymous' && session.reason === 'logout' ? '' : '?error=auth';
      return <Navigate to={`${withLocale('/sign-in', locale)}${reason}`} replace />;
    }
    if (!session.user.role) return <Navigate to={withLocale(REGISTRATION_CONFIRM, locale)} replace />;
  } else if (AUTH_PAGES.includes(route.path) && session.status === 'authenticated' && session.user.role) {
    return <Navigate to={withLocale('/cabinet/dashboard', locale)} replace />;
  }
  return <>{children}</>;
}
