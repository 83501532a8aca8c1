// Issue 26, the operator console's own read: the money settings in one answer, for operators only.
import { call, startTestApp, type TestApp } from './helpers';
import { operatorHeaders, testOperator } from './money-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(async () => t?.close());

describe('the console\'s money settings', () => {
  it('issue 26: answers each currency\'s payout rule, the withdrawal limits and the APY schedule, to an operator only', async () => {
    const op = await testOperator(t.app);
    expect((await call(t.app, 'GET', '/api/v1/operator/money-settings')).status).toBe(401);

    // Figures of the test's own, set through the operator's calls, then read back as set.
    const fee = 12_345n;
    const dual = 3n * 10n ** 18n;
    const set = await call(t.app, 'POST', '/api/v1/operator/payouts', { headers: operatorHeaders(op), body: { currency: 'ETH', fee: String(fee), dualApprovalThreshold: String(dual) } });
    expect(set.status).toBe(200);
    const limits = await call(t.app, 'POST', '/api/v1/operator/payouts/limits', { headers: operatorHeaders(op), body: { perHour: 7, perDay: 11, windowHours: 36 } });
    expect(limits.status).toBe(200);
    const later = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const apy = await call(t.app, 'POST', '/api/v1/operator/apy', { headers: operatorHeaders(op), body: { pool: 'dex', apy: '0.0725', effectiveFrom: later } });
    expect(apy.status).toBe(200);

    const read = await call(t.app, 'GET', '/api/v1/operator/money-settings', { headers: operatorHeaders(op, 'GET') });
    expect(read.status).toBe(200);
    const body = read.body as { payouts: { currency: string; fee: string; dualApprovalThreshold: string | null }[]; limits: unknown; apy: { pool: string; effectiveFrom: string; apy: string }[] };
    expect(body.payouts.find((p) => p.currency === 'ETH')).toMatchObject({ fee: String(fee), dualApprovalThreshold: String(dual) });
    expect(body.limits).toEqual({ perHour: 7, perDay: 11, windowHours: 36 });
    const scheduled = body.apy.find((a) => a.pool === 'dex' && a.effectiveFrom === later);
    // Stored as numeric(24,18): the same figure with trailing zeros.
    expect(scheduled?.apy.replace(/0+$/, '')).toBe('0.0725');
  });
});
