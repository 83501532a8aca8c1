// The console's calls to the operator API: through the shell's server under /operator-api/ (it
// forwards them only on the operator host), with the operator's session token, and each change
// with the code the operator's authenticator app shows now. The token lives in memory only.
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { operatorTotpHeader, type OperatorSession } from '@app/contracts';

export const OPERATOR_API = '/operator-api/';

/** A refused call: the API's message (in the page's language) and its code. */
export class OperatorCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export type OperatorCall = <T>(path: string, init?: { method?: 'GET' | 'POST'; body?: unknown; totp?: string }) => Promise<T>;

/** One call to the operator API, answered as JSON or thrown as an OperatorCallError. */
export async function operatorFetch<T>(path: string, lang: string, init: { method?: 'GET' | 'POST'; body?: unknown; totp?: string; token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': lang };
  if (init.token) headers.Authorization = `Operator ${init.token}`;
  if (init.totp) headers[operatorTotpHeader] = init.totp;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${OPERATOR_API}${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), credentials: 'same-origin' });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: the status says what happened */
  }
  if (!res.ok) {
    const b = (body ?? {}) as { message?: string; code?: string };
    throw new OperatorCallError(b.message ?? res.statusText, res.status, b.code);
  }
  return body as T;
}

export type ConsoleSession = {
  session: OperatorSession | null;
  /** Why the last session ended without a sign-out (the API's message), until the next sign-in. */
  ended: string | null;
  signedIn: (s: OperatorSession) => void;
  signOut: () => void;
  call: OperatorCall;
};

export const SessionContext = createContext<ConsoleSession | null>(null);

export function useConsole(): ConsoleSession {
  const c = useContext(SessionContext);
  if (!c) throw new Error('useConsole outside the console');
  return c;
}

/**
 * The console's session: a call whose session has ended (idle, or ended elsewhere) signs the
 * console out and says why on the sign-in screen.
 */
export function useSessionState(lang: string): ConsoleSession {
  const [session, setSession] = useState<OperatorSession | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const signedIn = useCallback((s: OperatorSession) => {
    setEnded(null);
    setSession(s);
  }, []);
  const signOut = useCallback(() => {
    if (session) void operatorFetch('session/end', lang, { method: 'POST', token: session.token }).catch(() => undefined);
    setSession(null);
  }, [lang, session]);
  const call = useCallback<OperatorCall>(
    async (path, init = {}) => {
      try {
        return await operatorFetch(path, lang, { ...init, token: session?.token });
      } catch (error) {
        if (error instanceof OperatorCallError && error.status === 401 && error.code !== 'OPERATOR_CODE_WRONG' && error.code !== 'OPERATOR_CODE_REQUIRED') {
          setEnded(error.message);
          setSession(null);
        }
        throw error;
      }
    },
    [lang, session],
  );
  return useMemo(() => ({ session, ended, signedIn, signOut, call }), [session, ended, signedIn, signOut, call]);
}

export type Loaded<T> = { data: T | null; error: string | null; loading: boolean; reload: () => void };

/** A read of the operator API, again whenever `path` changes or `reload` is called. */
export function useOperatorRead<T>(path: string | null): Loaded<T> {
  const { call } = useConsole();
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({ data: null, error: null, loading: path !== null });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    call<T>(path).then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) => live && setState({ data: null, error: error instanceof Error ? error.message : String(error), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [call, path, round]);
  return { ...state, reload: useCallback(() => setRound((n) => n + 1), []) };
}
