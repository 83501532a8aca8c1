import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { mine, rpc } from '@app/chain';
import { buildServer } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { LOCAL_POOL_ADDRESSES, seed } from '../src/db/seed';
import { users, withdrawals } from '../src/db/schema';
import { accrueUntil } from '../src/interest';
import { rows } from '../src/db/rows';
import { checkLedger, post } from '../src/ledger';
import { call, createTestDatabase, usingPostgres } from './helpers';
import { devWallet, sendEth, userWithWallet } from './deposit-helpers';
import { ETH, addDays, expectLedgerBalanced, independentEarned, moneyStack, operator, today } from './money-helpers';

/** Two API processes on one database, and a process killed while it accrues. */
jest.setTimeout(180_000);
const stack = moneyStack({ PAYOUT_CONFIRMATIONS: '1' });

/** What the test asks of the second replica: its jobs, one run at a time. */
type Replica = { accrue(until: string): Promise<unknown>; payouts(): Promise<unknown>; deposits(): Promise<unknown>; close(): Promise<void>; url?: string };

/** The second replica in this jest process (PGlite is one process's database). */
async function inProcessReplica(): Promise<Replica> {
  const app = await buildServer(stack.t.app.services.config, { database: stack.t.db.database, logger: false });
  return {
    accrue: (until) => app.services.jobs.runNow('interest', ({ renew }) => accrueUntil(app.services.db, until, renew)),
    // The job through the runner's lease, and the job's body bypassing it: neither may pay twice.
    payouts: () => Promise.all([app.services.jobs.runNow('payouts'), app.services.payouts.run()]),
    deposits: () => app.services.depositJob.tick(),
    close: () => app.close(),
  };
}

/** On PostgreSQL, the second replica is a real API process of its own (fixtures/replica-child.ts). */
async function childReplica(): Promise<Replica> {
  const config = stack.t.app.services.config;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures/replica-child.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOCAL_CHAIN: 'true',
      DATABASE_URL: stack.t.db.url!,
      RPC_URL: stack.chain.rpcUrl,
      // The same signer as the first replica's: one holder of the keys, as deployed.
      SIGNER_URL: config.money.signerUrl!,
      JWT_SECRET: config.jwtSecret,
      CODE_HMAC_KEY: config.codeHmacKey,
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      LOG_LEVEL: 'silent',
      MONEY_JOBS_INTERVAL_MS: '0',
      DEPOSIT_JOB_INTERVAL_MS: '0',
      DEPOSIT_CONFIRMATIONS: '1',
      PAYOUT_CONFIRMATIONS: '1',
    },
  });
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const ready = await Promise.race([next(), new Promise<string>((_, reject) => child.once('exit', (code) => reject(new Error(`the replica exited (${code})`))))]);
  const port = /^ready (\d+)$/.exec(ready)?.[1];
  if (!port) throw new Error(`the replica did not start: ${ready}`);
  let queue = Promise.resolve('');
  const command = (line: string) =>
    (queue = queue.then(async () => {
      const answer = next();
      child.stdin!.write(`${line}\n`);
      const out = await answer;
      if (!out.startsWith('done ')) throw new Error(`replica: ${line}: ${out}`);
      return out;
    }));
  return {
    url: `http://127.0.0.1:${port}`,
    accrue: (until) => command(`accrue ${until}`),
    payouts: () => command('payouts'),
    deposits: () => command('deposits'),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

describe('two API replicas on one database', () => {
  let second: Replica;
  beforeAll(async () => {
    second = usingPostgres ? await childReplica() : await inProcessReplica();
  }, 120_000);
  afterAll(async () => {
    await second?.close();
  });

  it('every day is accrued once and every payout sent once', async () => {
    const u = await userWithWallet(stack.t.app, devWallet(stack.chain.rpcUrl, 1));
    await operator(stack.t.app, 'apy', 'set', 'coin', '0.08', '--from', today());
    const tx = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, 4n * ETH);
    await call(stack.t.app, 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(4n * ETH), transaction: tx } });
    await Promise.all([stack.t.app.services.depositJob.tick(), second.deposits()]);

    const until = addDays(today(), 9);
    const accrue = () => stack.t.app.services.jobs.runNow('interest', ({ renew }) => accrueUntil(stack.t.app.services.db, until, renew));
    // Both at once, then both again (one may have found the lease taken).
    await Promise.all([accrue(), second.accrue(until)]);
    await Promise.all([accrue(), second.accrue(until)]);
    const days = await rows<{ n: string }>(stack.t.app.services.db, sql`select count(*)::text as n from interest_accruals where user_id = ${u.id}`);
    // Ten days accrued; the deposit's own day, held only in part, earns nothing: nine interest days.
    expect(days[0]!.n).toBe('9');
    const pool = await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token });
    expect(pool.body.earned).toEqual({ ETH: String(independentEarned(4n * ETH, 8n, 100n, 9)) });

    const before = BigInt(await rpc<string>(stack.chain.rpcUrl, 'eth_getBalance', [u.wallet.address, 'latest']));
    for (const part of [1n, 2n]) await call(stack.t.app, 'POST', '/api/v1/dashboard/withdraw', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(part * 10n ** 17n) } });
    const third = { pool: 'coin', currency: 'ETH', amount: String(3n * 10n ** 17n) };
    if (second.url) {
      // The other process serves the API too: the third request goes to it.
      const r = await fetch(`${second.url}/api/v1/dashboard/withdraw`, { method: 'POST', headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' }, body: JSON.stringify(third) });
      expect(r.status).toBe(200);
    } else await call(stack.t.app, 'POST', '/api/v1/dashboard/withdraw', { token: u.token, body: third });
    for (let i = 0; i < 6; i++) {
      await Promise.all([stack.t.app.services.jobs.runNow('payouts'), second.payouts()]);
      await mine(stack.chain.rpcUrl, 1);
    }
    const paid = await stack.t.app.services.db.select().from(withdrawals).where(eq(withdrawals.userId, u.id));
    expect(paid.map((w) => w.status)).toEqual(['paid', 'paid', 'paid']);
    expect(new Set(paid.map((w) => w.nonce)).size).toBe(3);
    const after = BigInt(await rpc<string>(stack.chain.rpcUrl, 'eth_getBalance', [u.wallet.address, 'latest']));
    expect(after - before).toBe(6n * 10n ** 17n);
    await expectLedgerBalanced(stack.t.app);
  });
});

it('a process killed during accrual: the rerun gives the same totals', async () => {
  let where: string;
  let cleanup = async () => undefined as void;
  let open: () => Promise<Database>;
  if (usingPostgres) {
    const d = await createTestDatabase();
    await d.database.close();
    open = d.reopen;
    where = d.url!;
    cleanup = d.drop;
  } else {
    where = mkdtempSync(path.join(os.tmpdir(), 'api-accrue-kill-'));
    open = () => openDatabase({ kind: 'pglite', dataDir: where });
    cleanup = async () => rmSync(where, { recursive: true, force: true });
  }
  try {
    const balances = [10n ** 18n, 123456789n, 5n * 10n ** 20n + 7n];
    const first = await open();
    await seed(first.db, { localChain: true });
    await first.db.execute(sql`update pool_apy set apy = 0.12 where pool = 'dex'`);
    for (const [i, b] of balances.entries()) {
      const id = randomUUID();
      await first.db.insert(users).values({ id, email: `${id}@example.com`, referralCode: id.slice(0, 12) });
      await post(first.db, {
        reference: `test:kill:${i}`,
        kind: 'deposit',
        at: new Date('2026-01-01T00:00:00Z'),
        postings: [
          { account: { kind: 'reserves', chainId: 1, address: LOCAL_POOL_ADDRESSES.dex, pool: 'dex', currency: 'ETH' }, amount: b },
          { account: { kind: 'position', userId: id, pool: 'dex', currency: 'ETH' }, amount: -b },
        ],
      });
    }
    await first.close();

    const days = 120;
    const until = addDays('2026-01-01', days - 1);
    // Killed once it has done a few days, in the middle of its work.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures/accrue-child.ts'), where, until], { stdio: ['ignore', 'pipe', 'inherit'] });
    let done = 0;
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        done += chunk.toString().split('\n').filter(Boolean).length;
        if (done >= 5) child.kill('SIGKILL');
      });
      child.on('exit', () => resolve());
    });
    expect(done).toBeGreaterThanOrEqual(5);
    expect(done).toBeLessThan(days); // it really was stopped part way

    const again = await open();
    try {
      await accrueUntil(again.db, until);
      const [total] = await rows<{ n: string; sum: string }>(again.db, sql`select count(*)::text as n, coalesce(sum(amount), 0)::text as sum from interest_accruals where pool = 'dex'`);
      const expected = balances.reduce((s, b) => s + independentEarned(b, 12n, 100n, days), 0n);
      expect(total).toEqual({ n: String(balances.length * days), sum: String(expected) });
      const c = await checkLedger(again.db);
      expect(c.ok).toBe(true);
    } finally {
      await again.close();
    }
  } finally {
    await cleanup();
  }
});
