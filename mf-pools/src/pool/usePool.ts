import { useCallback, useEffect, useState } from 'react';
import type { DashboardPoolResponse, PoolName } from '@app/contracts';
import { useRemote } from '@app/ui';
import { errorMessage, isApiError } from '../errors';
import { fetchPool } from './server';

export type PoolState =
  | { status: 'loading'; data: null }
  | { status: 'ready'; data: DashboardPoolResponse | null }
  | { status: 'error'; data: null; message: string };

/** GET /dashboard/pools/{pool}, with a reload for after a deposit or a withdrawal. */
export function usePool(pool: PoolName): { state: PoolState; reload(): void } {
  const { api } = useRemote();
  const [state, setState] = useState<PoolState>({ status: 'loading', data: null });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetchPool(api, pool, controller.signal).then(
      (data) => setState({ status: 'ready', data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', data: null, message: isApiError(error) ? error.message : errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [api, pool, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { state, reload };
}
