// Issue 26: named operators with a second factor, four eyes on large withdrawals, and an audit log
// that cannot be changed without it showing.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { mine, rpc } from '@app/chain';
import { apiMessages as M } from '@app/contracts';
import { operatorAudit, operatorSessions, withdrawals } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { startOperatorListener, totpNow } from '../src/operator';
import { call, startTestApp } from './helpers';
import { providerFor, sendEth, userWithWallet } from './deposit-helpers';
import { ETH, expectLedgerBalanced, moneyStack, operator, operatorHeaders, runCommand, testOperator } from './money-helpers';
import { runOperator } from '../src/operator/cli';
import { repoRoot } from '../src/config';

const stack = moneyStack({ PAYOUT_CONFIRMATIONS: '1' });
type Json = Record<string, unknown>;
const db = () => stack.t.app.services.db;
const app = () => stack.t.app;

async function payAll() {
  for (let i = 0; i < 8; i++) {
    const r = await app().services.payouts.run();
    if (!r.signed && !r.broadcast && !r.waiting) return;
    await mine(stack.chain.rpcUrl, 1);
  }
}

/** A new investor with `eth` in the coin pool, credited. */
async function investor(eth: bigint) {
  const wallet = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
  await stack.chain.fund(wallet.address, { eth: '10' });
  const u = await userWithWallet(app(), wallet);
  const transaction = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, eth);
  const r = await call(app(), 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(eth), transaction } });
  expect(r.status).toBe(200);
  await app().services.depositJob.tick();
  return u;
}
const withdraw = async (token: string, amount: bigint) => {
  const r = await call(app(), 'POST', '/api/v1/dashboard/withdraw', { token, body: { pool: 'coin', currency: 'ETH', amount: String(amount) } });
  expect(r.body).toMatchObject({ status: 'awaiting_approval' });
  return Number(r.body.id);
};
const statusOf = async (id: number) => (await db().select({ status: withdrawals.status }).from(withdrawals).where(eq(withdrawals.id, id)))[0]?.status;
const balanceOf = async (address: string) => BigInt(await rpc<string>(stack.chain.rpcUrl, 'eth_getBalance', [address, 'latest']));

describe('operator identity', () => {
  it('finding 2: each operator signs in by name, password and TOTP; a code is not accepted twice at sign-in; the session ends after 15 idle minutes', async () => {
    const ana = await testOperator(app(), 'ana');
    const signIn = (totp: string, password = ana.password) => call(app(), 'POST', '/api/v1/operator/session', { body: { name: 'ana', password, totp } });
    expect((await signIn('000000')).status).toBe(401);
    expect((await signIn(totpNow(ana.totpSecret), 'Wrong-password-12!')).body).toMatchObject({ code: 'OPERATOR_SIGN_IN_FAILED', message: M.operatorSignInFailed });
    const code = totpNow(ana.totpSecret);
    const ok = await signIn(code);
    expect(ok.body).toMatchObject({ name: 'ana', idleMinutes: 15 });
    // The same code seen once (over a shoulder) does not sign in again.
    expect((await signIn(code)).status).toBe(401);
    const token = ok.body.token as string;
    const me = await call(app(), 'GET', '/api/v1/operator/me', { headers: { authorization: `Operator ${token}` } });
    expect(me.body).toMatchObject({ name: 'ana', id: ana.id });
    // 14 idle minutes: still open (and the call restarts the clock); 16: ended.
    const idle = (minutes: number) => db().update(operatorSessions).set({ lastSeenAt: new Date(Date.now() - minutes * 60_000) }).where(eq(operatorSessions.operatorId, ana.id));
    await idle(14);
    expect((await call(app(), 'GET', '/api/v1/operator/me', { headers: { authorization: `Operator ${token}` } })).status).toBe(200);
    await idle(16);
    expect((await call(app(), 'GET', '/api/v1/operator/me', { headers: { authorization: `Operator ${token}` } })).body).toMatchObject({ code: 'OPERATOR_SESSION_ENDED' });
  });

  it('finding 2: every change asks for the TOTP again and is audited with the named operator as actor', async () => {
    const ana = await testOperator(app(), 'ana');
    const key = { 'x-operator-key': `ana.${ana.key}` };
    const body = { currency: 'ETH', fee: '0' };
    expect((await call(app(), 'POST', '/api/v1/operator/payouts', { headers: key, body })).body).toMatchObject({ code: 'OPERATOR_CODE_REQUIRED', message: M.operatorCodeRequired });
    const wrong = String((Number(totpNow(ana.totpSecret)) + 500_000) % 1_000_000).padStart(6, '0');
    expect((await call(app(), 'POST', '/api/v1/operator/payouts', { headers: { ...key, 'x-operator-totp': wrong }, body })).body).toMatchObject({ code: 'OPERATOR_CODE_WRONG' });
    expect((await call(app(), 'POST', '/api/v1/operator/payouts', { headers: operatorHeaders(ana), body })).status).toBe(200);
    const [last] = await db().select().from(operatorAudit).where(eq(operatorAudit.action, 'payouts.set')).orderBy(sql`seq desc`).limit(1);
    expect(last).toMatchObject({ actor: 'operator:ana', target: 'ETH' });
    // The key of one operator with another's name opens nothing.
    const ben = await testOperator(app(), 'ben');
    expect((await call(app(), 'GET', '/api/v1/operator/me', { headers: { 'x-operator-key': `ana.${ben.key}` } })).status).toBe(401);
  });
});

describe('four eyes on withdrawals', () => {
  it('four eyes: over the second threshold two different operators must approve; a second approval by the same operator is refused; below it one approval pays', async () => {
    const ana = await testOperator(app(), 'ana');
    const ben = await testOperator(app(), 'ben');
    const u = await investor(5n * ETH);
    expect(await operator(app(), 'payouts', 'set', 'ETH', '--threshold', String(ETH / 10n), '--dual-threshold', String(ETH))).toMatchObject({ code: 0 });

    const small = await withdraw(u.token, ETH / 2n);
    expect(await runCommand(app(), runOperator, ['withdrawals', 'approve', String(small)], ana)).toEqual({ code: 0, out: `withdrawal ${small}: requested (1 of 1 approval(s))` });

    const large = await withdraw(u.token, 2n * ETH);
    expect(await runCommand(app(), runOperator, ['withdrawals', 'approve', String(large)], ana)).toEqual({ code: 0, out: `withdrawal ${large}: awaiting_approval (1 of 2 approval(s))` });
    expect(await statusOf(large)).toBe('awaiting_approval');
    const again = await call(app(), 'POST', `/api/v1/operator/withdrawals/${large}/approve`, { headers: operatorHeaders(ana) });
    expect([again.status, again.body.code, again.body.message]).toEqual([409, 'ALREADY_APPROVED', M.approvalAlreadyGiven]);
    await payAll();
    expect(await statusOf(large)).toBe('awaiting_approval');
    const before = await balanceOf(u.wallet.address);
    expect(await runCommand(app(), runOperator, ['withdrawals', 'approve', String(large)], ben)).toEqual({ code: 0, out: `withdrawal ${large}: requested (2 of 2 approval(s))` });
    await payAll();
    expect([await statusOf(small), await statusOf(large)]).toEqual(['paid', 'paid']);
    expect(await balanceOf(u.wallet.address)).toBe(before + 2n * ETH);
    const steps = await db().select().from(operatorAudit).where(eq(operatorAudit.target, String(large))).orderBy(operatorAudit.seq);
    expect(steps.map((s) => [s.actor, s.action, (s.after as Json).status])).toEqual([
      ['operator:ana', 'withdrawal.approve', 'awaiting_approval'],
      ['operator:ben', 'withdrawal.approve', 'requested'],
    ]);
    await operator(app(), 'payouts', 'set', 'ETH', '--threshold', 'none', '--dual-threshold', 'none');
    await expectLedgerBalanced(app());
  });

  it('finding 2: nobody approves their own withdrawal, or one they requested for someone else', async () => {
    const u = await investor(2n * ETH);
    await operator(app(), 'payouts', 'set', 'ETH', '--threshold', String(ETH / 10n));
    const own = await withdraw(u.token, ETH / 2n);
    const { enrolOperator } = await import('../src/operator');
    const self = await enrolOperator(db(), app().services.hasher, { name: 'owen', userId: u.id, password: 'Operator-password-1!' });
    const refused = await call(app(), 'POST', `/api/v1/operator/withdrawals/${own}/approve`, { headers: operatorHeaders(self) });
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([403, 'OWN_WITHDRAWAL', M.approvalOwnWithdrawal]);
    const ana = await testOperator(app(), 'ana');
    const other = await investor(2n * ETH);
    const forOther = await withdraw(other.token, ETH / 2n);
    await db().update(withdrawals).set({ requestedBy: ana.id }).where(eq(withdrawals.id, forOther));
    expect((await call(app(), 'POST', `/api/v1/operator/withdrawals/${forOther}/approve`, { headers: operatorHeaders(ana) })).body).toMatchObject({ code: 'OWN_WITHDRAWAL' });
    expect([await statusOf(own), await statusOf(forOther)]).toEqual(['awaiting_approval', 'awaiting_approval']);
    // Another operator may.
    const ben = await testOperator(app(), 'ben');
    expect((await call(app(), 'POST', `/api/v1/operator/withdrawals/${own}/approve`, { headers: operatorHeaders(ben) })).body).toMatchObject({ status: 'requested' });
    await operator(app(), 'payouts', 'set', 'ETH', '--threshold', 'none');
  });
});

describe('the audit log', () => {
  it('finding 2: rows are append-only and hash-chained; `operator audit verify` fails once a row is deleted directly in the database', async () => {
    await operator(app(), 'payouts', 'limits', '--per-hour', '6');
    await operator(app(), 'payouts', 'limits', '--per-hour', '5');
    expect(await operator(app(), 'audit', 'verify')).toMatchObject({ code: 0, out: expect.stringMatching(/^audit log: OK \(\d+ entries, chain intact\)$/) });
    const [row] = await db().select().from(operatorAudit).where(eq(operatorAudit.action, 'payouts.limits')).orderBy(operatorAudit.seq).limit(1);
    const refused = { cause: expect.objectContaining({ message: 'the operator audit log is append-only' }) };
    await expect(db().execute(sql`update operator_audit set actor = 'someone' where id = ${row!.id}`)).rejects.toMatchObject(refused);
    await expect(db().execute(sql`delete from operator_audit where id = ${row!.id}`)).rejects.toMatchObject(refused);
    await expect(db().execute(sql`truncate operator_audit`)).rejects.toMatchObject(refused);
    // Someone with the database owner's rights turns the trigger off and removes the row: the chain shows it.
    await db().execute(sql`alter table operator_audit disable trigger operator_audit_no_change`);
    await db().execute(sql`delete from operator_audit where id = ${row!.id}`);
    await db().execute(sql`alter table operator_audit enable trigger operator_audit_no_change`);
    expect(await operator(app(), 'audit', 'verify')).toEqual({ code: 1, out: `audit log: BROKEN at entry ${row!.seq! + 1}: entry ${row!.seq} is missing` });
  });

  it('finding 2: a row altered in place (trigger off) is found too', async () => {
    const t = await startTestApp();
    try {
      await runCommand(t.app, runOperator, ['payouts', 'limits', '--per-hour', '6']);
      expect((await runCommand(t.app, runOperator, ['audit', 'verify'])).code).toBe(0);
      const [row] = await t.app.services.db.select().from(operatorAudit).where(eq(operatorAudit.action, 'payouts.limits'));
      await t.app.services.db.execute(sql`alter table operator_audit disable trigger operator_audit_no_change`);
      await t.app.services.db.execute(sql`update operator_audit set after = '{"perHour": 600}'::jsonb where id = ${row!.id}`);
      expect(await runCommand(t.app, runOperator, ['audit', 'verify'])).toEqual({ code: 1, out: `audit log: BROKEN at entry ${row!.seq}: entry ${row!.seq} was altered` });
    } finally {
      await t.close();
    }
  });
});

describe('the console\'s reads and DAO proposals', () => {
  it('a user lookup by e-mail, wallet or id shows the account read-only, and every lookup is audited with the operator', async () => {
    const u = await investor(ETH);
    const ana = await testOperator(app(), 'ana');
    const byWallet = await call(app(), 'GET', `/api/v1/operator/users?q=${u.wallet.address}`, { headers: operatorHeaders(ana, 'GET') });
    expect(byWallet.body).toMatchObject({ account: { id: u.id, wallet: u.wallet.address.toLowerCase() }, positions: [{ pool: 'coin', currency: 'ETH', balance: String(ETH) }] });
    expect((byWallet.body.deposits as Json[])[0]).toMatchObject({ amount: String(ETH), status: 'credited' });
    expect((await call(app(), 'GET', `/api/v1/operator/users?q=${u.id}`, { headers: operatorHeaders(ana, 'GET') })).body).toMatchObject({ account: { id: u.id } });
    expect((await call(app(), 'GET', '/api/v1/operator/users?q=nobody@example.com', { headers: operatorHeaders(ana, 'GET') })).status).toBe(404);
    const lookups = await db().select().from(operatorAudit).where(eq(operatorAudit.action, 'user.lookup')).orderBy(operatorAudit.seq);
    expect(lookups.slice(-3).map((l) => [l.actor, l.target, (l.after as Json).found])).toEqual([
      ['operator:ana', `user:${u.id}`, true],
      ['operator:ana', `user:${u.id}`, true],
      ['operator:ana', null, false],
    ]);
  });

  it('the overview shows the ledger check, the watcher\'s lag behind the head and the payout queue\'s age', async () => {
    const u = await investor(ETH);
    await operator(app(), 'payouts', 'set', 'ETH', '--threshold', String(ETH / 10n));
    const id = await withdraw(u.token, ETH / 2n);
    const head = Number(BigInt(await rpc<string>(stack.chain.rpcUrl, 'eth_blockNumber', [])));
    const r = await call(app(), 'GET', '/api/v1/operator/overview', { headers: operatorHeaders(await testOperator(app()), 'GET') });
    expect(r.body).toMatchObject({ ledger: { ok: true }, watcher: { head: expect.any(Number) }, payoutQueue: { count: expect.any(Number) } });
    const body = r.body as { watcher: { head: number; watched: number | null; lagBlocks: number | null }; payoutQueue: { count: number; oldestAgeSeconds: number } };
    expect(body.watcher.head).toBeGreaterThanOrEqual(head);
    expect(body.watcher.lagBlocks).toBe(body.watcher.watched === null ? null : body.watcher.head - body.watcher.watched);
    const queued = await db().select().from(withdrawals).where(sql`status in ('awaiting_approval', 'requested', 'waiting_funds')`);
    expect(body.payoutQueue.count).toBe(queued.length);
    const oldest = Math.min(...queued.map((w) => w.createdAt.getTime()));
    expect(body.payoutQueue.oldestAgeSeconds).toBeGreaterThanOrEqual(Math.floor((Date.now() - oldest) / 1000) - 5);
    await call(app(), 'POST', `/api/v1/operator/withdrawals/${id}/reject`, { headers: operatorHeaders(await testOperator(app())), body: { reason: 'test' } });
    await operator(app(), 'payouts', 'set', 'ETH', '--threshold', 'none');
  });

  it('an operator closes an open proposal now; a closed one cannot be closed again', async () => {
    const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
    const created = await operator(app(), 'dao', 'proposal', 'create', '--title', 'Close me', '--body', '', '--choices', 'A,B', '--start', minutes(-5), '--end', minutes(60), '--json');
    const id = (JSON.parse(created.out) as { id: string }).id;
    const closed = await operator(app(), 'dao', 'proposal', 'close', id);
    expect(closed).toMatchObject({ code: 0, out: expect.stringMatching(new RegExp(`^proposal ${id} closed at `)) });
    expect(await operator(app(), 'dao', 'proposal', 'close', id)).toEqual({ code: 2, out: `refused (400): proposal ${id} is closed: only an open proposal can be closed` });
    const [logged] = await db().select().from(operatorAudit).where(eq(operatorAudit.action, 'dao.proposal.close'));
    expect(logged).toMatchObject({ actor: 'operator:tess', target: id });
  });
});

describe('the operator port', () => {
  it('finding 2: with OPERATOR_PORT set, the public port answers no operator call and the operator port answers nothing else; the command line reads its key from a file and refuses --key', async () => {
    const t = await startTestApp({ OPERATOR_PORT: '1' });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const publicPort = (t.app.server.address() as AddressInfo).port;
      const opServer = await startOperatorListener(t.app, 0, '127.0.0.1');
      const opPort = (opServer.address() as AddressInfo).port;
      const ana = await testOperator(t.app, 'ana');
      const get = (port: number, path: string, headers: Record<string, string> = {}) =>
        new Promise<number>((resolve, reject) => {
          request({ host: '127.0.0.1', port, path, headers }, (res) => {
            res.resume();
            resolve(res.statusCode!);
          }).on('error', reject).end();
        });
      const creds = { 'x-operator-key': `ana.${ana.key}` };
      expect(await get(publicPort, '/api/v1/operator/me', creds)).toBe(404);
      expect(await get(opPort, '/api/v1/operator/me', creds)).toBe(200);
      expect(await get(opPort, '/api/v1/pools')).toBe(404);
      expect(await get(publicPort, '/api/health')).toBe(200);

      // The command line as a person runs it: the key from a file, never an argument.
      const dir = mkdtempSync(path.join(tmpdir(), 'operator-key-'));
      writeFileSync(path.join(dir, 'key'), `ana.${ana.key}\n`, { mode: 0o600 });
      const cli = (args: string[], env: Record<string, string>) =>
        promisify(execFile)(process.execPath, [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'api/src/operator/cli.ts', ...args], { cwd: repoRoot, env: { ...process.env, ...env } }).then(
          (r) => ({ code: 0, out: r.stdout + r.stderr }),
          (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
        );
      const api = `http://127.0.0.1:${opPort}`;
      expect(await cli(['audit', 'verify', '--api', api], { OPERATOR_KEY_FILE: path.join(dir, 'key') })).toEqual({ code: 0, out: expect.stringMatching(/^audit log: OK/) });
      expect(await cli(['audit', 'verify', '--api', api, '--key', `ana.${ana.key}`], {})).toEqual({ code: 2, out: expect.stringMatching(/^--key is gone: an argument shows in the process list/) });
      await new Promise((resolve) => opServer.close(resolve));
      await new Promise((resolve) => opServer.close(resolve));
    } finally {
      await t.close();
    }
  });
});

