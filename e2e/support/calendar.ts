// The stack's accrual calendar as a money spec finds it. The specs that accrue share one stack, so a
// pool may already be accrued ahead of today (by another file, or by an earlier run of the same one).
// They run one at a time (the 'accrual' project) and each computes its days from the calendar it
// finds, so neither the order of the files nor a second run changes what they expect.
import { expect, request as requests, type APIRequestContext } from '@playwright/test';
import { PASSWORD } from './accounts';
import { operatorPost } from './operators';
import { baseURL } from '../stack.config';

const DAY_MS = 86_400_000;
export const today = () => new Date().toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
/** Days from `from` to `to`, both counted. */
export const daysFrom = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;

export { operatorPost };

/**
 * Sets a pool's APY from the first day the pool still has to accrue: today, or the day after its
 * last accrued day when the calendar is ahead (the server names that day when it refuses today).
 * Answers that day: a position opened today earns from it on, at this APY.
 */
export async function apyFromFirstOpenDay(request: APIRequestContext, pool: string, apy: string): Promise<string> {
  const first = await operatorPost(request, 'apy', { pool, apy, effectiveFrom: today() });
  if (first.status() === 200) return today();
  const refusal = (await first.json()) as { code?: string; message: string };
  expect(refusal.code, refusal.message).toBe('APY_IN_THE_PAST');
  const last = /accrued up to (\d{4}-\d{2}-\d{2})/.exec(refusal.message)?.[1];
  expect(last, refusal.message).toBeTruthy();
  const from = addDays(last!, 1);
  const set = await operatorPost(request, 'apy', { pool, apy, effectiveFrom: from });
  expect(set.status(), await set.text()).toBe(200);
  return from;
}

/** Accrues every pool's missed days up to and including `until`, through the operator's route. */
export async function accrueUntil(request: APIRequestContext, until: string) {
  const res = await operatorPost(request, 'accrue', { until });
  expect(res.status(), await res.text()).toBe(200);
  expect(((await res.json()) as { skipped: string | null }).skipped).toBeNull();
}

/**
 * The day the cabinet's figures are read at (`/cabinet/summary`'s `asOf`): today, or the day after
 * the last accrued day when the calendar is ahead. Every pool with positions is accrued up to the
 * day before it, so it is the first day a new position can still earn.
 */
export async function asOf(login: string): Promise<string> {
  // A session of its own: the page's refresh token rotates.
  const api = await requests.newContext({ baseURL });
  try {
    const signedIn = await api.post('/api/v1/login', { data: { login, password: PASSWORD } });
    expect(signedIn.status(), await signedIn.text()).toBe(200);
    const { token } = (await signedIn.json()) as { token: string };
    const summary = await api.get('/api/v1/cabinet/summary', { headers: { Authorization: `Bearer ${token}` } });
    expect(summary.status(), await summary.text()).toBe(200);
    return ((await summary.json()) as { asOf: string }).asOf;
  } finally {
    await api.dispose();
  }
}
