// The pool's server calls, in one place: the answers' shapes are the contracts'.
import type { ApiClient, DashboardPoolResponse } from '@app/contracts';
import type { PoolKind } from '@app/web3';
import { isApiError } from '../errors';

/** The pool with the user's position; null when the server has no such pool (spec §3 default then). */
export async function fetchPool(api: ApiClient, pool: PoolKind, signal?: AbortSignal): Promise<DashboardPoolResponse | null> {
  try {
    return await api.call('dashboardPool', { params: { pool }, signal });
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

/** One line of the user's deposits in a pool, as the server keeps them. */
export interface DepositRecord {
  key: string;
  date: string;
  currency: string;
  /** Base units, decimal string. */
  amount: string;
  credited: boolean;
}

/** The user's credited deposits in the pool (GET /balance: per day and currency). */
export async function fetchDeposits(api: ApiClient, pool: PoolKind, signal?: AbortSignal): Promise<DepositRecord[]> {
  const { items } = await api.call('balance', { query: { pool }, signal });
  return items
    .map((item) => ({ key: `${item.date}:${item.currency}`, date: item.date, currency: item.currency, amount: item.amount, credited: true }))
    .reverse();
}
