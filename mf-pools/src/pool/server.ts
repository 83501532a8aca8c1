// The pool's server calls, in one place: the answers' shapes are the contracts'.
import type { ApiClient, DashboardPoolResponse, DepositStatus, DepositsResponse, PoolName } from '@app/contracts';
import { isApiError } from '../errors';

/** The pool with the user's position; null when the server has no such pool (spec §3 default then). */
export async function fetchPool(api: ApiClient, pool: PoolName, signal?: AbortSignal): Promise<DashboardPoolResponse | null> {
  try {
    return await api.call('dashboardPool', { params: { pool }, signal });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

/** The user's deposits in the pool with their progress, newest first (they are there after a reload). */
export function fetchDeposits(api: ApiClient, pool: PoolName, signal?: AbortSignal): Promise<DepositsResponse> {
  return api.call('dashboardDeposits', { query: { pool }, signal });
}

/** One deposit's progress as the server sees it; null while it does not know the transaction. */
export async function fetchDepositStatus(api: ApiClient, transaction: string): Promise<DepositStatus | null> {
  const { items } = await api.call('dashboardDeposits', { query: { transaction } });
  return items[0] ?? null;
}
