// Issue 26: the money settings change with four eyes. One operator proposes and sees the preview;
// only a second, different operator's approval (with a fresh code) applies it; a decided change is
// not decided again; a change whose setting moved since it was proposed is refused; every step is
// audited with its actor.
import { desc, eq, like } from 'drizzle-orm';
import { apiMessages as M, apiMessagesRu, formatMessage } from '@app/contracts';
import { operatorAudit, referralDayRewards, settingChanges, users } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { payoutRules, ruleFor, withdrawalLimits } from '../src/payouts';
import { runOperator } from '../src/operator/cli';
import { call, register, startTestApp, uniqueEmail } from './helpers';
import { devWallet, sendEth, userWithWallet } from './deposit-helpers';
import { ETH, USDT, addDays, expectLedgerBalanced, independentEarned, moneyStack, operator, operatorHeaders, runCommand, testOperator, today } from './money-helpers';

const stack = moneyStack();
const app = () => stack.t.app;
const db = () => app().services.db;
type Json = Record<string, unknown>;
type Change = { id: number; status: string; stale: boolean; changes: { field: string; from: string | null; to: string | null }[]; proposedBy: string; decidedBy: string | null; reason: string | null; effectiveFrom: string | null };

const post = async (path: string, op: Parameters<typeof operatorHeaders>[0] | null, body: unknown = {}) =>
  call(app(), 'POST', `/api/v1/operator/setting-changes${path}`, { headers: op ? operatorHeaders(op) : {}, body });
const propose = async (op: Parameters<typeof operatorHeaders>[0], body: Json) => {
  const r = await post('', op, body);
  expect(r.status).toBe(200);
  return r.body as unknown as Change;
};
const ethRule = async () => ruleFor(await payoutRules(db()), 'ETH');

describe('money settings with four eyes', () => {
  it('a threshold change: previewed, refused to its proposer, applied by a second operator; then a withdrawal over the new threshold waits for approval', async () => {
    const ana = await testOperator(app(), 'ana');
    const ben = await testOperator(app(), 'ben');
    const before = await ethRule();
    // A threshold of the test's own, below what the investor withdraws, and unlike what stands.
    const threshold = ETH / 4n;
    expect(before.approvalThreshold).not.toBe(String(threshold));
    const body = { kind: 'payout', currency: 'ETH', approvalThreshold: String(threshold) };

    // The preview needs no code (it changes nothing) and says from what to what, and when.
    const preview = await call(app(), 'POST', '/api/v1/operator/setting-changes/preview', { headers: operatorHeaders(ana, 'GET'), body });
    expect(preview.body).toEqual({ kind: 'payout', target: 'ETH', effectiveFrom: null, changes: [{ field: 'approvalThreshold', from: before.approvalThreshold, to: String(threshold) }] });
    // A proposal is a change: without the code it is refused.
    expect((await call(app(), 'POST', '/api/v1/operator/setting-changes', { headers: operatorHeaders(ana, 'GET'), body })).body).toMatchObject({ code: 'OPERATOR_CODE_REQUIRED' });
    // The command line's preview says the same.
    expect(await runCommand(app(), runOperator, ['settings', 'preview', 'payout', 'ETH', '--threshold', String(threshold)], ana)).toEqual({
      code: 0,
      out: `ETH: approvalThreshold ${before.approvalThreshold ?? 'none'} → ${threshold} once approved`,
    });
    const proposed = await propose(ana, body);
    expect(proposed).toMatchObject({ status: 'pending', stale: false, proposedBy: 'ana', decidedBy: null, changes: (preview.body as { changes: unknown }).changes });
    expect(await ethRule()).toEqual(before);

    // Nobody approves their own.
    const own = await post(`/${proposed.id}/approve`, ana);
    expect([own.status, own.body.code, own.body.message]).toEqual([403, 'OWN_CHANGE', M.settingChangeOwn]);
    expect(await ethRule()).toEqual(before);
    // Still pending, still to decide, in the command line's list too.
    expect((await runCommand(app(), runOperator, ['settings', 'list', '--status', 'pending'], ben)).out).toContain(`approvalThreshold ${before.approvalThreshold ?? 'none'} → ${threshold} once approved`);

    const applied = await post(`/${proposed.id}/approve`, ben);
    expect(applied.body).toMatchObject({ id: proposed.id, status: 'applied', proposedBy: 'ana', decidedBy: 'ben' });
    expect(await ethRule()).toEqual({ ...before, approvalThreshold: String(threshold) });

    // Approving again, by the same or a third operator, is refused and changes nothing.
    const cal = await testOperator(app(), 'cal');
    for (const op of [ben, cal]) {
      const again = await post(`/${proposed.id}/approve`, op);
      expect([again.status, again.body.code, again.body.message]).toEqual([409, 'CHANGE_DECIDED', M.settingChangeApplied]);
    }

    // In force: a withdrawal above the new threshold waits for an operator.
    const wallet = devWallet(stack.chain.rpcUrl, 4);
    const u = await userWithWallet(app(), wallet);
    const transaction = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, ETH);
    expect((await call(app(), 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(ETH), transaction } })).status).toBe(200);
    await app().services.depositJob.tick();
    const over = await call(app(), 'POST', '/api/v1/dashboard/withdraw', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(threshold + 1n) } });
    expect(over.body).toMatchObject({ status: 'awaiting_approval' });

    // Each step with its actor.
    const steps = await db().select().from(operatorAudit).where(eq(operatorAudit.target, `setting-change:${proposed.id}`)).orderBy(operatorAudit.seq);
    expect(steps.map((s) => [s.actor, s.action])).toEqual([
      ['operator:ana', 'settings.propose'],
      ['operator:ben', 'settings.approve'],
    ]);
    const [set] = await db().select().from(operatorAudit).where(eq(operatorAudit.action, 'payouts.set')).orderBy(operatorAudit.seq);
    expect(set).toMatchObject({ actor: 'operator:ben', target: 'ETH', after: { approvalThreshold: String(threshold), change: proposed.id } });
    await expectLedgerBalanced(app());
  });

  it('an APY from a future day is applied by a second operator, and the accrual pays it from that day on', async () => {
    const ana = await testOperator(app(), 'ana');
    const ben = await testOperator(app(), 'ben');
    const day0 = today();
    // The rate in force until the change, set the old way; the change starts eleven days later.
    expect(await operator(app(), 'apy', 'set', 'dex', '0.08', '--from', day0)).toMatchObject({ code: 0 });
    const from = addDays(day0, 11);
    // Not today and not in the past: a new APY starts tomorrow at the earliest.
    const past = await post('', ana, { kind: 'apy', pool: 'dex', apy: '0.12', effectiveFrom: day0 });
    expect([past.status, past.body.code, past.body.message]).toEqual([400, 'APY_NOT_FUTURE', M.settingChangeNotFuture]);
    const same = await post('', ana, { kind: 'apy', pool: 'dex', apy: '0.080', effectiveFrom: from });
    expect([same.status, same.body.code]).toEqual([400, 'NOTHING_TO_CHANGE']);

    const proposed = await runCommand(app(), runOperator, ['settings', 'propose', 'apy', 'dex', '0.12', '--from', from], ana);
    expect(proposed).toMatchObject({ code: 0, out: expect.stringMatching(new RegExp(`^change (\\d+) proposed, awaiting a second operator's approval: APY of dex: apy 0.08 → 0.12 from ${from}$`)) });
    const id = Number(/^change (\d+)/.exec(proposed.out)![1]);
    expect(await runCommand(app(), runOperator, ['settings', 'approve', String(id)], ana)).toEqual({ code: 2, out: `refused (403): ${M.settingChangeOwn}` });
    expect(await runCommand(app(), runOperator, ['settings', 'approve', String(id)], ben)).toEqual({ code: 0, out: `change ${id} applied: APY of dex: apy 0.08 → 0.12 from ${from}` });

    // An investor in the dex pool from day 0: it earns from day 1, at 8 % until the change, 12 % from it.
    const u = await userWithWallet(app(), devWallet(stack.chain.rpcUrl, 5));
    const transaction = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.dex, ETH);
    expect((await call(app(), 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'dex', currency: 'ETH', amount: String(ETH), transaction } })).status).toBe(200);
    await app().services.depositJob.tick();
    const until = addDays(day0, 29);
    expect(await operator(app(), 'accrue', '--until', until)).toMatchObject({ code: 0 });
    const atOld = independentEarned(ETH, 8n, 100n, 10); // days 1 … 10
    const atNew = independentEarned(ETH + atOld, 12n, 100n, 19); // days 11 … 29
    const dex = await call(app(), 'GET', '/api/v1/dashboard/pools/dex?currency=ETH', { token: u.token });
    expect(dex.body.earned).toEqual({ ETH: String(atOld + atNew) });
    // Not the old rate for all of it: the change made a difference.
    expect(atOld + atNew).not.toBe(independentEarned(ETH, 8n, 100n, 29));
    await expectLedgerBalanced(app());
  });

  it('a stale proposal is refused: another change of the same setting was applied since', async () => {
    const ana = await testOperator(app(), 'ana');
    const ben = await testOperator(app(), 'ben');
    const before = await ethRule();
    const fee = (n: bigint) => String(BigInt(before.fee) + n);
    const first = await propose(ana, { kind: 'payout', currency: 'ETH', fee: fee(1000n) });
    const second = await propose(ana, { kind: 'payout', currency: 'ETH', fee: fee(2000n) });
    await post(`/${first.id}/approve`, ben);
    const listed = (await call(app(), 'GET', '/api/v1/operator/setting-changes?status=pending', { headers: operatorHeaders(ben, 'GET') })).body.items as Change[];
    expect(listed.find((c) => c.id === second.id)).toMatchObject({ stale: true, changes: [{ field: 'fee', from: before.fee, to: fee(2000n) }] });
    const stale = await post(`/${second.id}/approve`, ben);
    expect([stale.status, stale.body.code, stale.body.message]).toEqual([409, 'STALE_CHANGE', M.settingChangeStale]);
    expect((await ethRule()).fee).toBe(fee(1000n));

    // Rejected with a reason (here withdrawn by its proposer); then it cannot be approved.
    expect(await runCommand(app(), runOperator, ['settings', 'reject', String(second.id), '--reason', 'superseded'], ana)).toEqual({ code: 0, out: `change ${second.id} rejected: superseded` });
    const decided = (await call(app(), 'GET', '/api/v1/operator/setting-changes?status=rejected', { headers: operatorHeaders(ben, 'GET') })).body.items as Change[];
    expect(decided.find((c) => c.id === second.id)).toMatchObject({ status: 'rejected', reason: 'superseded', decidedBy: 'ana', stale: false });
    expect((await post(`/${second.id}/reject`, ben, { reason: 'again' })).body).toMatchObject({ code: 'CHANGE_DECIDED', message: M.settingChangeRejected });
    expect((await post(`/${second.id}/approve`, ben)).body).toMatchObject({ code: 'CHANGE_DECIDED' });
    expect((await post(`/${first.id}/reject`, ben, { reason: 'too late' })).body).toMatchObject({ code: 'CHANGE_DECIDED', message: M.settingChangeApplied });
    expect((await post(`/${first.id}/reject`, ben, { reason: ' ' })).status).toBe(400);
    const [rejectedAudit] = await db().select().from(operatorAudit).where(eq(operatorAudit.target, `setting-change:${second.id}`)).orderBy(operatorAudit.seq).offset(1);
    expect(rejectedAudit).toMatchObject({ actor: 'operator:ana', action: 'settings.reject', after: { status: 'rejected', reason: 'superseded' } });
    // Put the fee back, the same way.
    const back = await propose(ben, { kind: 'payout', currency: 'ETH', fee: before.fee });
    expect((await post(`/${back.id}/approve`, ana)).body).toMatchObject({ status: 'applied' });
    expect(await ethRule()).toEqual(before);
  });

  it('two approvals at once apply the change once; the database refuses an applied change decided by its proposer', async () => {
    const ana = await testOperator(app(), 'ana');
    const ben = await testOperator(app(), 'ben');
    const cal = await testOperator(app(), 'cal');
    const before = await ethRule();
    const dual = String(7n * ETH);
    const c = await propose(ana, { kind: 'payout', currency: 'ETH', dualApprovalThreshold: dual });
    const answers = await Promise.all([post(`/${c.id}/approve`, ben), post(`/${c.id}/approve`, cal)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await ethRule()).toEqual({ ...before, dualApprovalThreshold: dual });
    const applies = await db().select().from(operatorAudit).where(like(operatorAudit.target, `setting-change:${c.id}`));
    expect(applies.filter((a) => a.action === 'settings.approve')).toHaveLength(1);
    await expect(db().update(settingChanges).set({ decidedBy: ana.id }).where(eq(settingChanges.id, c.id))).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringMatching(/setting_changes_four_eyes/) }) });
    const back = await propose(cal, { kind: 'payout', currency: 'ETH', dualApprovalThreshold: before.dualApprovalThreshold });
    await post(`/${back.id}/approve`, ana);
  });

  it('a withdrawal limit: previewed, refused to its proposer, applied by a second operator, then enforced on the next withdrawal', async () => {
    const ana = await testOperator(app(), 'ana');
    const ben = await testOperator(app(), 'ben');
    const before = await withdrawalLimits(db());
    // Two requests an hour, fewer than stand: the test's first withdrawals pass either way, its last only under the old limit.
    const perHour = 2;
    expect(before.perHour).toBeGreaterThan(perHour);
    const body = { kind: 'limits', perHour };
    const preview = await call(app(), 'POST', '/api/v1/operator/setting-changes/preview', { headers: operatorHeaders(ana, 'GET'), body });
    expect(preview.body).toEqual({ kind: 'limits', target: 'withdrawals', effectiveFrom: null, changes: [{ field: 'perHour', from: String(before.perHour), to: String(perHour) }] });
    expect(await runCommand(app(), runOperator, ['settings', 'preview', 'limits', '--per-hour', String(perHour)], ana)).toEqual({
      code: 0,
      out: `withdrawal limits: perHour ${before.perHour} → ${perHour} once approved`,
    });
    const same = await post('', ana, { kind: 'limits', perDay: before.perDay });
    expect([same.status, same.body.code]).toEqual([400, 'NOTHING_TO_CHANGE']);
    const proposed = await propose(ana, body);
    expect(proposed).toMatchObject({ status: 'pending', proposedBy: 'ana', changes: (preview.body as { changes: unknown }).changes });

    // An investor with 1 ETH in the coin pool, withdrawing an eighth at a time (under any threshold the file set).
    const u = await userWithWallet(app(), devWallet(stack.chain.rpcUrl, 6));
    const transaction = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, ETH);
    expect((await call(app(), 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(ETH), transaction } })).status).toBe(200);
    await app().services.depositJob.tick();
    const amount = ETH / 8n;
    const withdraw = () => call(app(), 'POST', '/api/v1/dashboard/withdraw', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(amount) } });
    // Proposed is not applied: the first request counts against the old limit.
    expect((await withdraw()).status).toBe(200);

    const own = await post(`/${proposed.id}/approve`, ana);
    expect([own.status, own.body.code, own.body.message]).toEqual([403, 'OWN_CHANGE', M.settingChangeOwn]);
    expect(await withdrawalLimits(db())).toEqual(before);
    expect(await runCommand(app(), runOperator, ['settings', 'approve', String(proposed.id), '--json'], ben)).toMatchObject({ code: 0, out: expect.stringContaining('"status":"applied"') });
    expect(await withdrawalLimits(db())).toEqual({ ...before, perHour });
    const again = await post(`/${proposed.id}/approve`, ben);
    expect([again.status, again.body.code]).toEqual([409, 'CHANGE_DECIDED']);

    // In force: the second request of the hour passes, the third is refused and moves nothing.
    expect((await withdraw()).status).toBe(200);
    const third = await withdraw();
    expect([third.status, third.body.code, third.body.message]).toEqual([429, 'WITHDRAWALS_PER_HOUR', formatMessage(M.withdrawalsPerHour, { max: perHour })]);
    const pool = await call(app(), 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token });
    expect(pool.body.deposited).toEqual({ ETH: String(ETH - 2n * amount) });

    const steps = await db().select().from(operatorAudit).where(eq(operatorAudit.target, `setting-change:${proposed.id}`)).orderBy(operatorAudit.seq);
    expect(steps.map((x) => [x.actor, x.action])).toEqual([
      ['operator:ana', 'settings.propose'],
      ['operator:ben', 'settings.approve'],
    ]);
    const [set] = await db().select().from(operatorAudit).where(eq(operatorAudit.action, 'payouts.limits')).orderBy(operatorAudit.seq);
    expect(set).toMatchObject({ actor: 'operator:ben', target: 'withdrawals', before, after: { perHour, change: proposed.id } });
    // Put it back, the same way.
    const back = await propose(ben, { kind: 'limits', perHour: before.perHour });
    expect((await post(`/${back.id}/approve`, ana)).body).toMatchObject({ status: 'applied' });
    expect(await withdrawalLimits(db())).toEqual(before);
    await expectLedgerBalanced(app());
  });

  it('a referral version from a future day, applied by a second operator: rewards at the new rate from its day, the days before unchanged', async () => {
    // An app of its own: the file's other tests accrue a month ahead, and a version starts after the last rewarded day.
    const t = await startTestApp({ RPC_URL: stack.chain.rpcUrl, DEPOSIT_CONFIRMATIONS: '1', DEPOSIT_JOB_INTERVAL_MS: '0' });
    try {
      const a = t.app;
      const ana = await testOperator(a, 'ana');
      const ben = await testOperator(a, 'ben');
      const day0 = today();
      for (const argv of [
        ['apy', 'set', 'coin', '0.08', '--from', day0],
        ['referral', 'ranks', 'set', 'Starter:0:0'],
        ['referral', 'levels', 'set', '1000'],
      ]) {
        expect(await operator(a, ...argv)).toMatchObject({ code: 0 });
      }
      // R invites M; M holds 1 ETH in the coin pool; R earns level 1's rate on M's interest, in USDT.
      const r = await register(a, uniqueEmail('referrer'));
      const rId = (r.user as { id: string }).id;
      const [code] = await a.services.db.select({ code: users.referralCode }).from(users).where(eq(users.id, rId));
      const m = await userWithWallet(a, devWallet(stack.chain.rpcUrl, 7), { invite: code!.code });
      const transaction = await sendEth(m.wallet, LOCAL_POOL_ADDRESSES.coin, ETH);
      expect((await call(a, 'POST', '/api/v1/dashboard/deposit', { token: m.token, body: { pool: 'coin', currency: 'ETH', amount: String(ETH), transaction } })).status).toBe(200);
      await a.services.depositJob.tick();
      const rewards = async () =>
        (await a.services.db.select().from(referralDayRewards).where(eq(referralDayRewards.userId, rId))).sort((x, y) => x.day.localeCompare(y.day)).map((x) => ({ day: x.day, amount: BigInt(x.amount), currency: x.currency }));

      expect(await operator(a, 'accrue', '--until', addDays(day0, 2))).toMatchObject({ code: 0 });
      const rewardedBefore = await rewards();
      expect(rewardedBefore.map((x) => x.day)).toEqual([addDays(day0, 1), addDays(day0, 2)]);

      const change = async (op: typeof ana, body: Json) => call(a, 'POST', '/api/v1/operator/setting-changes', { headers: operatorHeaders(op), body });
      // Never retroactive: not today, not a rewarded day.
      for (const day of [day0, addDays(day0, 2)]) {
        const refused = await change(ana, { kind: 'referral', effectiveFrom: day, levels: [1500] });
        expect([refused.status, refused.body.code, refused.body.message]).toEqual([400, 'REFERRAL_NOT_FUTURE', M.referralVersionNotFuture]);
      }
      // Over the programme's cap: refused before anything is stored.
      // Two levels within the per-level bound that add up to 1900 bps; the only rank's bonus is 0 (set above).
      const overCap = formatMessage(M.referralTotalOverCap, { total: 1900, max: 1800 });
      expect((await change(ana, { kind: 'referral', effectiveFrom: addDays(day0, 4), levels: [1000, 900] })).body).toEqual({ message: overCap, code: 'BAD_REFERRAL_CONFIG', fields: { levels: overCap } });
      // The same refusal in the operator's language.
      const ru = await call(a, 'POST', '/api/v1/operator/setting-changes', { headers: { ...operatorHeaders(ana), 'accept-language': 'ru' }, body: { kind: 'referral', effectiveFrom: addDays(day0, 4), levels: [1000, 900] } });
      expect(ru.body.message).toBe(formatMessage(apiMessagesRu.referralTotalOverCap, { total: 1900, max: 1800 }));

      // One change from day 3, left to wait while day 3 is rewarded: then it is too late to approve.
      const late = (await change(ana, { kind: 'referral', effectiveFrom: addDays(day0, 3), levels: [1200] })).body as unknown as Change;
      const from = addDays(day0, 4);
      const previewed = await runCommand(a, runOperator, ['settings', 'preview', 'referral', '--from', from, '--levels', '1500'], ana);
      expect(previewed).toEqual({ code: 0, out: `referral programme: levels 1000 → 1500 from ${from}` });
      const proposed = await runCommand(a, runOperator, ['settings', 'propose', 'referral', '--from', from, '--levels', '1500', '--json'], ana);
      const id = (JSON.parse(proposed.out) as Change).id;
      expect(JSON.parse(proposed.out)).toMatchObject({ kind: 'referral', target: 'referral', effectiveFrom: from, status: 'pending', changes: [{ field: 'levels', from: '1000', to: '1500' }] });
      const own = await call(a, 'POST', `/api/v1/operator/setting-changes/${id}/approve`, { headers: operatorHeaders(ana) });
      expect([own.status, own.body.code, own.body.message]).toEqual([403, 'OWN_CHANGE', M.settingChangeOwn]);

      expect(await operator(a, 'accrue', '--until', addDays(day0, 3))).toMatchObject({ code: 0 });
      const tooLate = await call(a, 'POST', `/api/v1/operator/setting-changes/${late.id}/approve`, { headers: operatorHeaders(ben) });
      expect([tooLate.status, tooLate.body.code, tooLate.body.message]).toEqual([409, 'CHANGE_TOO_LATE', M.settingChangeTooLate]);
      expect(await runCommand(a, runOperator, ['settings', 'approve', String(id)], ben)).toEqual({ code: 0, out: `change ${id} applied: referral programme: levels 1000 → 1500 from ${from}` });
      expect(await operator(a, 'accrue', '--until', addDays(day0, 6))).toMatchObject({ code: 0 });

      // Computed here: each day's interest of 1 ETH at 8 % (compounded independently), at the local
      // prices (3000 and 1 USD), times the day's rate, rounded down once a day; M's deposit day earns nothing.
      const expected = [1, 2, 3, 4, 5, 6].map((d) => {
        const interest = independentEarned(ETH, 8n, 100n, d) - independentEarned(ETH, 8n, 100n, d - 1);
        const bps = d < 4 ? 1000n : 1500n;
        return { day: addDays(day0, d), amount: (interest * 3000n * USDT * bps) / (ETH * 1n * 10_000n), currency: 'USDT' };
      });
      const got = await rewards();
      expect(got).toEqual(expected);
      // The days rewarded before the approval are as they were.
      expect(got.slice(0, 2)).toEqual(rewardedBefore);
      // The rate made a difference from its day on.
      expect(expected[3]!.amount).toBeGreaterThan(expected[2]!.amount);

      const [set] = await t.app.services.db.select().from(operatorAudit).where(eq(operatorAudit.action, 'referral.config')).orderBy(desc(operatorAudit.seq)).limit(1);
      expect(set).toMatchObject({ actor: 'operator:ben', target: from, after: { effectiveFrom: from, levels: [{ level: 1, rewardBps: 1500 }], change: id } });
      await expectLedgerBalanced(a);
    } finally {
      await t.close();
    }
  });

  it('beyond the local chain an APY, a threshold, the withdrawal limits or a referral version is not set by one operator directly: only a change another operator approves sets it', async () => {
    const t = await startTestApp({ LOCAL_CHAIN: '' });
    try {
      expect(t.app.services.config.localChain).toBe(false);
      const ana = await testOperator(t.app, 'ana');
      const ben = await testOperator(t.app, 'ben');
      const direct = (path: string, body: Json) => call(t.app, 'POST', `/api/v1/operator/${path}`, { headers: operatorHeaders(ana), body });
      const day = addDays(today(), 5);
      for (const refused of [
        await direct('apy', { pool: 'coin', apy: '0.07', effectiveFrom: day }),
        await direct('payouts', { currency: 'USDT', approvalThreshold: '1000' }),
        await direct('payouts', { currency: 'USDT', dualApprovalThreshold: null }),
        await direct('payouts/limits', { perDay: 3 }),
        await direct('referral', { levels: [900], effectiveFrom: addDays(today(), 2) }),
      ]) {
        expect([refused.status, refused.body.code, refused.body.message]).toEqual([403, 'FOUR_EYES_REQUIRED', M.settingFourEyesOnly]);
      }
      // A fee moves no money on its own: it may still be set directly.
      expect((await direct('payouts', { currency: 'USDT', fee: '7' })).status).toBe(200);
      const c = await call(t.app, 'POST', '/api/v1/operator/setting-changes', { headers: operatorHeaders(ana), body: { kind: 'payout', currency: 'USDT', approvalThreshold: '1000' } });
      expect((await call(t.app, 'POST', `/api/v1/operator/setting-changes/${c.body.id}/approve`, { headers: operatorHeaders(ben) })).body).toMatchObject({ status: 'applied' });
      expect(ruleFor(await payoutRules(t.app.services.db), 'USDT')).toMatchObject({ fee: '7', approvalThreshold: '1000' });
      const limits = await call(t.app, 'POST', '/api/v1/operator/setting-changes', { headers: operatorHeaders(ben), body: { kind: 'limits', perDay: 3 } });
      expect((await call(t.app, 'POST', `/api/v1/operator/setting-changes/${limits.body.id}/approve`, { headers: operatorHeaders(ana) })).body).toMatchObject({ status: 'applied' });
      expect((await withdrawalLimits(t.app.services.db)).perDay).toBe(3);
    } finally {
      await t.close();
    }
  });

  it('a non-operator is refused every call, even an operator\'s own user session', async () => {
    const user = await register(app());
    const body = { kind: 'payout', currency: 'ETH', fee: '1' };
    for (const [method, path] of [
      ['POST', '/api/v1/operator/setting-changes/preview'],
      ['POST', '/api/v1/operator/setting-changes'],
      ['GET', '/api/v1/operator/setting-changes'],
      ['POST', '/api/v1/operator/setting-changes/1/approve'],
    ] as const) {
      expect((await call(app(), method, path, { token: user.token, ...(method === 'POST' ? { body } : {}) })).status).toBe(401);
      expect((await call(app(), method, path, { ...(method === 'POST' ? { body } : {}) })).status).toBe(401);
    }
    // Bad input is refused by the contract's schema before anything is read.
    const ana = await testOperator(app(), 'ana');
    expect((await post('', ana, { kind: 'apy', pool: 'gold', apy: '0.1', effectiveFrom: addDays(today(), 3) })).status).toBe(400);
    expect((await post('', ana, { kind: 'payout', currency: 'ETH', fee: '-1' })).status).toBe(400);
  });
});
