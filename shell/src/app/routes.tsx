import { lazy, Suspense, use, type ComponentType } from 'react';
import { Outlet, useLocation, useRoutes, type RouteObject } from '@app/singletons/router';
import { useAtom } from 'jotai';
import type { RuntimeManifest } from '@app/contracts';
import { AuthLayout } from '../layout/AuthLayout';
import { CabinetFrame } from '../layout/CabinetFrame';
import { NotificationsContext } from '../notifications/Notifications';
import type { NotificationCenter } from '../notifications/notifications';
import { NotFoundPage, RouteErrorBoundary } from '../pages/ErrorPages';
import { RemoteOutlet } from '../remotes/RemoteOutlet';
import { RouteAccess } from '../session/guards';
import { useShell } from './ShellContext';
import { termsOpenAtom, walletPromptOpenAtom } from './uiState';

/** A promise that says when it has settled, so React's `use` reads it at once instead of suspending. */
type Settling<T> = Promise<T> & { status?: 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

let innerLayout: Settling<ComponentType> | undefined;

/**
 * The cabinet's layout (sidebar, header), fetched with the first cabinet page, so a visitor on
 * /sign-in does not download it. The shell's start-up waits for it on a cabinet page, and then
 * the layout renders at once: a boundary that showed its fallback is revealed no sooner than
 * 300 ms later (React throttles reveals), and the page's remote would only start loading then.
 */
export function loadInnerLayout(): Promise<ComponentType> {
  if (!innerLayout) {
    const loading: Settling<ComponentType> = import(/* webpackChunkName: "cabinet-layout" */ '../layout/InnerLayout').then((m) => m.InnerLayout);
    loading.then(
      (value) => Object.assign(loading, { status: 'fulfilled', value }),
      (reason: unknown) => Object.assign(loading, { status: 'rejected', reason }),
    );
    innerLayout = loading;
  }
  return innerLayout;
}

function InnerLayout() {
  const Layout = use(loadInnerLayout());
  return <Layout />;
}

// The modals are fetched when first opened.
const TermsModal = lazy(() => import('../modals/TermsModal').then((m) => ({ default: m.TermsModal })));
const WalletBrowserModal = lazy(() => import('../modals/WalletBrowserModal').then((m) => ({ default: m.WalletBrowserModal })));

function CabinetLayout() {
  return (
    <Suspense fallback={<CabinetFrame />}>
      <InnerLayout />
    </Suspense>
  );
}

function ShellFrame({ notifications }: { notifications: NotificationCenter }) {
  const { brandTitle } = useShell();
  const [termsOpen, setTermsOpen] = useAtom(termsOpenAtom);
  const [walletPromptOpen, setWalletPromptOpen] = useAtom(walletPromptOpenAtom);
  // Each layout places the notices itself: where they cover no title depends on the layout.
  return (
    <NotificationsContext value={notifications}>
      <Outlet />
      <Suspense fallback={null}>
        {termsOpen ? <TermsModal brandTitle={brandTitle} onClose={() => setTermsOpen(false)} /> : null}
        {walletPromptOpen ? <WalletBrowserModal onClose={() => setWalletPromptOpen(false)} /> : null}
      </Suspense>
    </NotificationsContext>
  );
}

/**
 * The shell's routes come from the runtime manifest: each remote's routes, in English and
 * under /ru, inside the layout each needs. The remote element is keyed by remote, so moving
 * between two routes of one remote keeps it mounted.
 */
export function buildRoutes(manifest: RuntimeManifest, notifications: NotificationCenter): RouteObject[] {
  const auth: RouteObject[] = [];
  const inner: RouteObject[] = [];
  for (const prefix of ['', '/ru']) {
    for (const remote of manifest.remotes) {
      for (const route of remote.routes) {
        const target = route.layout === 'auth' ? auth : inner;
        target.push({
          path: `${prefix}${route.path}`,
          element: (
            <RouteAccess route={route} remote={remote}>
              <RemoteOutlet key={remote.name} remote={remote} />
            </RouteAccess>
          ),
        });
      }
    }
  }
  return [
    {
      element: <ShellFrame notifications={notifications} />,
      children: [
        { element: <CabinetLayout />, children: inner },
        { element: <AuthLayout />, children: [...auth, { path: '*', element: <NotFoundPage /> }] },
      ],
    },
  ];
}

/** The routes, with the route error page in place of whatever throws while rendering. */
export function ShellRoutes({ routes }: { routes: RouteObject[] }) {
  const { pathname } = useLocation();
  return <RouteErrorBoundary pathname={pathname}>{useRoutes(routes)}</RouteErrorBoundary>;
}
