import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '@app/contracts';

/** How often an open cabinet page asks whether its figures moved (the issue allows 10 s). */
export const LIVE_POLL_MS = 4000;

export type Loadable<T> = { status: 'loading' } | { status: 'ready'; data: T; refreshing?: boolean } | { status: 'error'; message: string };

const messageOf = (error: unknown) =>
  typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string' ? (error as { message: string }).message : String(error);

/**
 * Loads from the server and reloads on demand; a reload keeps the figures on screen until the new
 * ones arrive, and a failure leaves a message for an error panel with Retry.
 */
export function useServerData<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): { state: Loadable<T>; reload(): void } {
  const [state, setState] = useState<Loadable<T>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => (s.status === 'ready' ? { ...s, refreshing: true } : { status: 'loading' }));
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ status: 'ready', data }),
      (error: unknown) => !controller.signal.aborted && setState({ status: 'error', message: messageOf(error) }),
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { state, reload };
}

/**
 * Calls `onChange` when the user's cabinet revision moves (a deposit credited, interest, a withdrawal's
 * progress). Polls only while the page is visible, and once at once when it becomes visible again.
 */
export function useCabinetRevision(api: ApiClient, onChange: () => void, intervalMs = LIVE_POLL_MS) {
  const last = useRef<string | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let inFlight = false;
    const hidden = () => document.visibilityState === 'hidden';
    const check = async () => {
      timer = undefined;
      if (stopped || inFlight || hidden()) return;
      inFlight = true;
      try {
        const { revision } = await api.call('cabinetRevision');
        if (last.current !== null && revision !== last.current) changed.current();
        last.current = revision;
      } catch {
        // The next tick tries again; the page keeps what it shows.
      } finally {
        inFlight = false;
      }
      if (!stopped && !hidden()) timer = setTimeout(check, intervalMs);
    };
    const onVisibility = () => {
      if (!hidden() && timer === undefined) void check();
    };
    void check();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [api, intervalMs]);
}
