import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { mine, rpc } from '@app/chain';
import { buildServer, type App } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { LOCAL_POOL_ADDRESSES, seed } from '../src/db/seed';
import { users, withdrawals } from '../src/db/schema';
import { accrueUntil } from '../src/interest';
import { checkLedger, post, rows } from '../src/ledger';
import { call, createTestDatabase, usingPostgres } from './helpers';
import { devWallet, sendEth, userWithWallet } from './deposit-helpers';
import { ETH, addDays, expectLedgerBalanced, independentEarned, moneyStack, operator, today } from './money-helpers';

/** Two API processes on one database, and a process killed while it accrues. */
jest.setTimeout(180_000);
const stack = moneyStack({ PAYOUT_CONFIRMATIONS: '1' });

describe('two API replicas on one database', () => {
  let second: App;
  let secondDb: Database | null = null;
  beforeAll(async () => {
    // On PostgreSQL a second connection pool, as a second process has; PGlite is one process's database.
    secondDb = usingPostgres ? await stack.t.db.reopen() : null;
    second = await buildServer(stack.t.app.services.config, { database: secondDb ?? stack.t.db.database, logger: false });
  });
  afterAll(async () => {
    await second?.close();
  });

  it('every day is accrued once and every payout sent once', async () => {
    const u = await userWithWallet(stack.t.app, devWallet(stack.chain.rpcUrl, 1));
    await operator(stack.t.app, 'apy', 'set', 'coin', '0.08', '--from', today());
    const tx = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, 4n * ETH);
    await call(stack.t.app, 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(4n * ETH), transaction: tx } });
    await Promise.all([stack.t.app.services.depositJob.tick(), second.services.depositJob.tick()]);

    const until = addDays(today(), 9);
    const accrue = (app: App) => app.services.jobs.runNow('interest', ({ renew }) => accrueUntil(app.services.db, until, renew));
    // Both at once, then both again (one may have found the lease taken).
    await Promise.all([accrue(stack.t.app), accrue(second)]);
    await Promise.all([accrue(stack.t.app), accrue(second)]);
    const days = await rows<{ n: string }>(stack.t.app.services.db, sql`select count(*)::text as n from interest_accruals where user_id = ${u.id}`);
    expect(days[0]!.n).toBe('10');
    const pool = await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token });
    expect(pool.body.earned).toEqual({ ETH: String(independentEarned(4n * ETH, 8n, 100n, 10)) });

    const before = BigInt(await rpc<string>(stack.chain.rpcUrl, 'eth_getBalance', [u.wallet.address, 'latest']));
    for (const part of [1n, 2n, 3n]) await call(stack.t.app, 'POST', '/api/v1/dashboard/withdraw', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(part * 10n ** 17n) } });
    for (let i = 0; i < 6; i++) {
      await Promise.all([stack.t.app.services.jobs.runNow('payouts'), second.services.jobs.runNow('payouts'), second.services.payouts.run()]);
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
        at: new Date('2026-01-01T12:00:00Z'),
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
