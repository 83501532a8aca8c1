import { createApiClient, earlyProtocol, sessionMarkerCookie, type ApiClient, type AuthResponse, type AuthUser } from '@app/contracts';
import type { ShellBus } from '@app/ui';

/** Refresh this long before the access token expires, so requests never meet an expired one. */
export const REFRESH_AHEAD_MS = 60_000;

/** The `exp` of a JWT in milliseconds, or null when it cannot be read. */
export function tokenExpiry(token: string): number | null {
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : null;
  } catch {
    return null;
  }
}

export interface SessionService {
  api: ApiClient;
  /** Reads the session back from the refresh cookie (after a reload). */
  restore(): Promise<void>;
  /** One refresh in flight at a time, in this tab and across tabs. */
  refresh(): Promise<string | null>;
  logout(options?: { silent?: boolean }): Promise<void>;
  setUser(user: AuthUser): void;
  /** Reads the profile again (after the settings changed it) so the greeting and wallet follow. */
  reloadUser(): Promise<void>;
  accessToken(): string | null;
}

/**
 * The shell's session: user and access token in memory only (the refresh token lives in an
 * HttpOnly cookie the page cannot read), a silent refresh before expiry and on a 401.
 */
export interface SessionHooks {
  onLoggedOut?(silent: boolean): void;
  /** A sign-in (not a refresh): the account's preferences are applied. */
  onSignedIn?(user: AuthResponse['user']): void;
}

/** Whether the API's marker cookie says a session may exist (set and cleared with the refresh cookie). */
export const hasSessionMarker = (cookies: string = typeof document === 'undefined' ? '' : document.cookie): boolean =>
  cookies.split(';').some((c) => c.trim() === `${sessionMarkerCookie}=1`);

export function createSessionService(
  bus: ShellBus,
  hooks: SessionHooks = {},
  fetchImpl?: typeof fetch,
  sessionMayExist: () => boolean = () => hasSessionMarker(),
): SessionService {
  let token: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight: Promise<string | null> | null = null;

  const schedule = (accessToken: string) => {
    clearTimeout(timer);
    const expiry = tokenExpiry(accessToken);
    if (!expiry) return;
    const delay = Math.max(5_000, expiry - Date.now() - REFRESH_AHEAD_MS);
    timer = setTimeout(() => void refresh(), delay);
  };

  const establish = (auth: AuthResponse, via?: string) => {
    token = auth.token;
    bus.session.next({ status: 'authenticated', user: auth.user });
    schedule(auth.token);
    if (via && via !== 'refresh') hooks.onSignedIn?.(auth.user);
  };

  const clear = (reason?: 'logout') => {
    clearTimeout(timer);
    token = null;
    bus.session.next(reason ? { status: 'anonymous', reason } : { status: 'anonymous' });
  };

  const api = createApiClient({
    accessToken: () => token,
    refresh: () => refresh(),
    onAuthenticated: establish,
    language: () => bus.locale.getValue(),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });

  const refreshOnce = async (): Promise<string | null> => {
    try {
      const auth = await api.call('refresh', { body: {} });
      return auth.token;
    } catch {
      clear();
      return null;
    }
  };

  // Refresh tokens rotate: two tabs refreshing at once would present the same token twice and
  // end the session. A Web Lock makes the tabs take turns; the second then uses the new cookie.
  function refresh(): Promise<string | null> {
    if (!inflight) {
      const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
      const run = locks ? locks.request(earlyProtocol.refreshLock, refreshOnce) : refreshOnce();
      inflight = Promise.resolve(run).finally(() => {
        inflight = null;
      });
    }
    return inflight;
  }

  return {
    api,
    refresh,
    restore: async () => {
      // A visitor who never signed in (or signed out) asks nothing: the refresh could only fail.
      if (!sessionMayExist()) return clear();
      const restored = await refresh();
      if (!restored) clear();
    },
    logout: async ({ silent = false } = {}) => {
      try {
        await api.call('logout', { body: {} });
      } catch {
        // The session ends here whatever the server said.
      }
      clear('logout');
      hooks.onLoggedOut?.(silent);
    },
    setUser: (user) => {
      if (token) bus.session.next({ status: 'authenticated', user });
    },
    reloadUser: async () => {
      const current = bus.session.getValue();
      if (!token || current.status !== 'authenticated') return;
      const p = await api.call('profile');
      bus.session.next({
        status: 'authenticated',
        user: { ...current.user, name: p.name, login: p.email ?? p.walletAddress ?? current.user.login, metaMaskAddress: p.walletAddress, avatar: p.avatar },
      });
    },
    accessToken: () => token,
  };
}
