import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { CabinetSummary } from '@app/contracts';
import { buildServer, type App } from '../src/app';
import type { Database, Listener } from '../src/db/client';
import { users } from '../src/db/schema';
import { createUserReads } from '../src/http/user-reads';
import { accrueDay } from '../src/interest';
import { post } from '../src/ledger';
import { call, register, startTestApp, usingPostgres, type TestApp } from './helpers';
import { independentEarned } from './money-helpers';

/**
 * A signed-in user's reads answered from memory (issue 23): a repeated read costs no query; the
 * user's own changes, made anywhere (another connection, another replica), drop their answers at
 * once and the next read shows the new figure; nobody else's answers go, except for a statement
 * over many users (the accrual), which drops everyone's.
 */
let t: TestApp;
let second: App | null = null;
let other: Database | null = null;
beforeAll(async () => {
  // The session check cached for the whole test: the only queries counted are the reads' own.
  t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0', AUTH_CACHE_MS: '60000', READ_CACHE_MS: '60000' });
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const READS = ['/cabinet/summary', '/cabinet/activity?page=1&size=20', '/cabinet/revision', '/dashboard/pools/coin', '/referrals', '/dao/personal'];
/** The tables the cached reads come from: a query naming none of them is the session's or the rate limit's. */
const DATA = /ledger_|deposits|withdrawals|referral_|dao_votes|tutorial_dismissals|interest_|coin_prices/;

/** Every SQL text the app's database client runs while `f` runs. */
async function queriesDuring(app: App, f: () => Promise<unknown>): Promise<string[]> {
  const client = (app.services.db as unknown as { $client: { query: (...a: unknown[]) => unknown } }).$client;
  const spy = jest.spyOn(client, 'query');
  try {
    await f();
    return spy.mock.calls.map((c) => (typeof c[0] === 'string' ? c[0] : String((c[0] as { text?: string }).text ?? '')));
  } finally {
    spy.mockRestore();
  }
}
const dataQueries = (qs: string[]) => qs.filter((q) => DATA.test(q));

const get = async (app: App, token: string, path: string) => {
  const r = await call(app, 'GET', `/api/v1${path}`, { token });
  expect(r.status).toBe(200);
  return r.body;
};
const ethBalance = (s: CabinetSummary) => BigInt(s.currencies.find((c) => c.currency === 'ETH')?.balance ?? '0');

const reserves = { kind: 'reserves' as const, chainId: 1, address: '0x00000000000000000000000000000000000000cc', pool: 'coin' as const, currency: 'ETH' };
/** A deposit credited on the books for `userId` by whoever holds `db` (not through this app's requests). */
const credit = (db: Database['db'], userId: string, amount: bigint, at?: Date) =>
  post(db, {
    reference: `test:user-reads:${randomUUID()}`,
    kind: 'deposit',
    ...(at ? { at } : {}),
    postings: [
      { account: reserves, amount },
      { account: { kind: 'position', userId, pool: 'coin', currency: 'ETH' }, amount: -amount },
    ],
  });

/** A notify from PostgreSQL arrives a moment after the commit: the read is retried until it shows, within a bound. */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Another connection to the same database: on PostgreSQL a pool of its own; PGlite has one connection per process. */
async function otherConnection(): Promise<Database['db']> {
  if (!usingPostgres) return t.app.services.db;
  other ??= await t.db.reopen();
  return other.db;
}

describe('a signed-in user\'s reads from memory', () => {
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  beforeAll(async () => {
    const [a, b] = [await register(t.app), await register(t.app)];
    alice = { id: a.user.id as string, token: a.token };
    bob = { id: b.user.id as string, token: b.token };
  });

  it('a second read of each cached route runs no query, and answers the same', async () => {
    for (const path of READS) {
      const first = await get(t.app, alice.token, path);
      let again: unknown;
      const qs = await queriesDuring(t.app, async () => {
        again = await get(t.app, alice.token, path);
      });
      expect({ path, queries: dataQueries(qs) }).toEqual({ path, queries: [] });
      expect(again).toEqual(first);
    }
    // Fields a route does not read do not make answers of their own; the ones it reads do.
    expect(dataQueries(await queriesDuring(t.app, () => get(t.app, alice.token, '/cabinet/summary?junk=1')))).toEqual([]);
    expect(dataQueries(await queriesDuring(t.app, () => get(t.app, alice.token, '/cabinet/activity?size=20&page=1&junk=2')))).toEqual([]);
    expect(dataQueries(await queriesDuring(t.app, () => get(t.app, alice.token, '/cabinet/activity?page=1&size=5'))).length).toBeGreaterThan(0);
    // The reads do query the first time (the counting is not blind).
    const fresh = await register(t.app);
    expect(dataQueries(await queriesDuring(t.app, () => get(t.app, fresh.token, '/cabinet/summary'))).length).toBeGreaterThan(0);
  });

  it('a credit written by another connection drops the user\'s answers at once; another user\'s stay', async () => {
    const before = ethBalance((await get(t.app, alice.token, '/cabinet/summary')) as CabinetSummary);
    const bobBefore = await get(t.app, bob.token, '/cabinet/summary');
    const amount = 1_234_567_890_123n;
    await credit(await otherConnection(), alice.id, amount);
    const after = await eventually(
      async () => ethBalance((await get(t.app, alice.token, '/cabinet/summary')) as CabinetSummary),
      (b) => b !== before,
    );
    expect(after).toBe(before + amount);
    // The position's page and the DAO's stake moved too (their entries were dropped with the summary).
    const pool = (await get(t.app, alice.token, '/dashboard/pools/coin')) as { positions?: { currency: string; balance: string }[] };
    expect(JSON.stringify(pool)).toContain(String(before + amount));
    // Bob's answer is still served from memory.
    let bobAgain: unknown;
    expect(dataQueries(await queriesDuring(t.app, async () => void (bobAgain = await get(t.app, bob.token, '/cabinet/summary'))))).toEqual([]);
    expect(bobAgain).toEqual(bobBefore);
  });

  it('a change made through a second API instance on the same database shows in the first one\'s next read', async () => {
    second = await buildServer(t.app.services.config, { database: t.db.database, logger: false });
    await second.ready();
    const summary = async () => (await get(t.app, alice.token, '/cabinet/summary')) as CabinetSummary;
    expect((await summary()).tutorialDismissed).toBe(false);
    // Cached now; the write goes through the other instance (which evicts only its own memory).
    expect(dataQueries(await queriesDuring(t.app, summary))).toEqual([]);
    expect((await call(second, 'PUT', '/api/v1/cabinet/tutorial', { token: alice.token, body: { dismissed: true } })).status).toBe(200);
    expect((await eventually(summary, (s) => s.tutorialDismissed)).tutorialDismissed).toBe(true);
    // And a ledger change by the second instance's own code path (its database handle).
    const before = ethBalance(await summary());
    await credit(second.services.db, alice.id, 1000n);
    expect(ethBalance(await eventually(summary, (s) => ethBalance(s) !== before))).toBe(before + 1000n);
  });

  it('this replica drops the user\'s answers itself when it serves them a write', async () => {
    const summary = async () => (await get(t.app, alice.token, '/cabinet/summary')) as CabinetSummary;
    const was = (await summary()).tutorialDismissed;
    expect((await call(t.app, 'PUT', '/api/v1/cabinet/tutorial', { token: alice.token, body: { dismissed: !was } })).status).toBe(200);
    // No waiting: the very next read shows it.
    expect((await summary()).tutorialDismissed).toBe(!was);
  });

  it('after another user\'s write served here, the next read here is fresh without waiting (a new member of the referrer\'s network)', async () => {
    const [row] = await t.app.services.db.select({ code: users.referralCode }).from(users).where(eq(users.id, alice.id));
    // A replica whose notifies arrive well after their commit (a slow link to the database): every
    // notify, its own markers too, reaches it later, in commit order as PostgreSQL delivers them.
    const database = t.db.database;
    const late = await buildServer(t.app.services.config, {
      database: { ...database, listen: (channel, l) => database.listen(channel, { onNotify: (p) => void setTimeout(() => l.onNotify(p), 100), onState: l.onState }) },
      logger: false,
    });
    try {
      await late.ready();
      const members = async () => ((await get(late, alice.token, '/referrals')) as { members: number }).members;
      const before = await members();
      // Kept now: the next read costs no query.
      expect(dataQueries(await queriesDuring(late, members))).toEqual([]);
      for (let i = 1; i <= 2; i++) {
        const r = await call(late, 'POST', '/api/v1/register', { body: { login: `member-${randomUUID()}@example.com`, password: 'Str0ng!pass', invite: row!.code } });
        expect(r.status).toBeLessThan(300);
        // No retrying: the write returned only once the notify naming Alice had been heard.
        expect(await members()).toBe(before + i);
      }
    } finally {
      await late.close();
    }
  });

  it('the accrual, a statement over every position, drops everyone\'s answers; the figures show the interest', async () => {
    // More position holders than a notify names one by one, in each part of the day (PostgreSQL accrues in two).
    const day = '2025-06-01';
    const crowd: string[] = [];
    for (let i = 0; i < 40; i++) {
      const id = randomUUID();
      await t.app.services.db.insert(users).values({ id, email: `${id}@example.com`, referralCode: id.slice(0, 12) });
      await credit(t.app.services.db, id, 1_000_000_000n, new Date(`${day}T00:00:00Z`));
      crowd.push(id);
    }
    const carol = await register(t.app);
    const carolId = carol.user.id as string;
    const principal = 5n * 10n ** 17n;
    await credit(t.app.services.db, carolId, principal, new Date(`${day}T00:00:00Z`));
    const carolBefore = ethBalance((await get(t.app, carol.token, '/cabinet/summary')) as CabinetSummary);
    expect(carolBefore).toBe(principal);
    await get(t.app, bob.token, '/cabinet/summary');
    expect(t.app.services.reads.stats().entries).toBeGreaterThan(0);
    // Positions of earlier tests hold since today: only the crowd and Carol earn on this day.
    await accrueDay(t.app.services.db, 'coin', day, '0.08');
    await eventually(async () => t.app.services.reads.stats().entries, (n) => n === 0);
    expect(t.app.services.reads.stats().entries).toBe(0);
    const carolAfter = ethBalance((await get(t.app, carol.token, '/cabinet/summary')) as CabinetSummary);
    expect(carolAfter).toBe(principal + independentEarned(principal, 8n, 100n, 1));
    // Bob's read is computed again (it was dropped too).
    expect(dataQueries(await queriesDuring(t.app, () => get(t.app, bob.token, '/cabinet/summary'))).length).toBeGreaterThan(0);
  });

  it('an APY set by the operator drops everyone\'s answers (prices and TVL are only bounded by the lifetime)', async () => {
    const { sql } = await import('drizzle-orm');
    await get(t.app, alice.token, '/dashboard/pools/coin');
    await get(t.app, bob.token, '/cabinet/summary');
    expect(t.app.services.reads.stats().entries).toBeGreaterThan(1);
    await (await otherConnection()).execute(sql`insert into pool_apy (pool, effective_from, apy, set_by) values ('coin', '2099-01-01', '0.09', 'test')`);
    expect(await eventually(async () => t.app.services.reads.stats().entries, (n) => n === 0)).toBe(0);
  });

  (usingPostgres ? it : it.skip)('PostgreSQL: a lost listening connection stops the caching until it is back, then connects again', async () => {
    const db = t.app.services.db;
    const { sql } = await import('drizzle-orm');
    await get(t.app, alice.token, '/cabinet/summary');
    expect(t.app.services.reads.stats()).toMatchObject({ live: true });
    await db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid()`);
    await eventually(async () => t.app.services.reads.stats().live, (live) => !live);
    expect(t.app.services.reads.stats()).toMatchObject({ live: false, entries: 0 });
    // Down: each read queries.
    expect(dataQueries(await queriesDuring(t.app, () => get(t.app, alice.token, '/cabinet/summary'))).length).toBeGreaterThan(0);
    expect(t.app.services.reads.stats().entries).toBe(0);
    // Back, and notifies heard again.
    await eventually(async () => t.app.services.reads.stats().live, (live) => live);
    const before = ethBalance((await get(t.app, alice.token, '/cabinet/summary')) as CabinetSummary);
    await credit(await otherConnection(), alice.id, 777n);
    const after = await eventually(async () => ethBalance((await get(t.app, alice.token, '/cabinet/summary')) as CabinetSummary), (b) => b !== before);
    expect(after).toBe(before + 777n);
  });

  it('READ_CACHE_MS=0: every read queries', async () => {
    const off = await buildServer({ ...t.app.services.config, readCacheMs: 0 }, { database: t.db.database, logger: false });
    try {
      await off.ready();
      await get(off, alice.token, '/cabinet/summary');
      expect(dataQueries(await queriesDuring(off, () => get(off, alice.token, '/cabinet/summary'))).length).toBeGreaterThan(0);
      expect(off.services.reads.stats().entries).toBe(0);
    } finally {
      await off.close();
    }
  });
});

describe('the figures every read shares (SHARED_FIGURES_MS)', () => {
  it('a computed read runs only the user\'s own queries; a price set is seen once everyone\'s answers drop', async () => {
    const { setPrices } = await import('../src/pricing/prices');
    const alice = await register(t.app, `shared-${randomUUID()}@example.com`);
    const kept = await buildServer({ ...t.app.services.config, readCacheMs: 0, sharedFiguresMs: 60_000 }, { database: t.db.database, logger: false });
    try {
      await kept.ready();
      const solPrice = async () => ((await get(kept, alice.token, '/dashboard/pools/coin?currency=SOL')) as { estimate: Record<string, string> }).estimate.SOL;
      const first = await solPrice();
      // Again: the pools, their addresses and prices come from memory, the user's figures from one statement.
      const again = dataQueries(await queriesDuring(kept, solPrice));
      expect(again).toHaveLength(1);
      expect(again[0]).toMatch(/ledger_accounts/);
      expect(again[0]).not.toMatch(/coin_prices|pool_addresses/);
      const summary = dataQueries(await queriesDuring(kept, () => get(kept, alice.token, '/cabinet/summary')));
      expect(summary).toHaveLength(1);
      await setPrices(t.db.database.db, 'local', { SOL: '151.12345678' });
      try {
        // At most SHARED_FIGURES_MS old: still the price before.
        expect(await solPrice()).toBe(first);
        // Dropping everyone's kept answers (an APY or programme set, the accrual) drops the shared figures too.
        kept.services.reads.evict('*');
        expect(await solPrice()).toBe('151.12345678');
      } finally {
        await setPrices(t.db.database.db, 'local', { SOL: first ?? '150' });
      }
    } finally {
      await kept.close();
    }
  });

  it('kept by name for at most their age; concurrent misses share one computation; a failure is not kept; 0 keeps nothing', async () => {
    const { createSharedFigures } = await import('../src/http/shared-figures');
    let now = 1_000;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const figures = createSharedFigures(5_000);
      let calls = 0;
      const compute = async () => ++calls;
      const [a, b] = [figures.get('x', compute), figures.get('x', compute)];
      expect(await Promise.all([a, b])).toEqual([1, 1]);
      now += 4_999;
      expect(await figures.get('x', compute)).toBe(1);
      now += 1;
      expect(await figures.get('x', compute)).toBe(2);
      await expect(figures.get('y', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
      expect(await figures.get('y', async () => 'up')).toBe('up');
      figures.clear();
      expect(await figures.get('x', compute)).toBe(3);
      const off = createSharedFigures(0);
      await off.get('x', compute);
      expect(await off.get('x', compute)).toBe(5);
    } finally {
      clock.mockRestore();
    }
  });
});

describe('the cache itself', () => {
  /** A listener the test drives: `say` plays a notify, `state` the connection's state. */
  function fakeDatabase() {
    let heard: Listener | null = null;
    /** Notifies the cache sent, not delivered yet: `deliver` plays them, as PostgreSQL does a moment after the commit. */
    const sent: string[] = [];
    let failing = false;
    const database: Pick<Database, 'listen' | 'notify'> = {
      listen: async (_channel, l) => {
        heard = l;
        l.onState(true);
        return async () => l.onState(false);
      },
      notify: async (_channel, payload) => {
        if (failing) throw new Error('connection lost');
        sent.push(payload);
      },
    };
    return {
      database,
      say: (p: string) => heard!.onNotify(p),
      state: (live: boolean) => heard!.onState(live),
      deliver: () => sent.splice(0).forEach((p) => heard!.onNotify(p)),
      sent,
      fail: (on: boolean) => void (failing = on),
    };
  }
  const req = (url: string) => ({ url, headers: {}, query: {}, body: undefined }) as unknown as FastifyRequest;
  const deferred = <T>() => {
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
    return { promise, resolve, reject };
  };
  const counted = () => {
    let n = 0;
    return { compute: async () => ++n, count: () => n };
  };

  it('concurrent misses share one computation; a failure is not kept', async () => {
    const reads = createUserReads(60_000, 1 << 20);
    await reads.listen(fakeDatabase().database);
    const d = deferred<number>();
    let calls = 0;
    const compute = () => (calls++, d.promise);
    const [a, b] = [reads.read('u1', req('/x'), compute), reads.read('u1', req('/x'), compute)];
    d.resolve(7);
    expect(await Promise.all([a, b])).toEqual([7, 7]);
    expect(calls).toBe(1);
    await expect(reads.read('u1', req('/y'), () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await reads.read('u1', req('/y'), async () => 8)).toBe(8);
  });

  it('a computation that started before its user\'s eviction stores nothing (nor before a flush of everyone)', async () => {
    const f = fakeDatabase();
    const reads = createUserReads(60_000, 1 << 20);
    await reads.listen(f.database);
    for (const notify of ['u1', 'u0,u1', '*']) {
      const slow = deferred<string>();
      const stale = reads.read('u1', req('/s'), () => slow.promise);
      // The write commits and its notify arrives while the read is still computing.
      f.say(notify);
      slow.resolve('stale');
      expect(await stale).toBe('stale');
      expect(await reads.read('u1', req('/s'), async () => 'fresh')).toBe('fresh');
      f.say('u1');
    }
    // Another user's notify does not touch u1's answer.
    const c = counted();
    await reads.read('u1', req('/k'), c.compute);
    f.say('u2');
    await reads.read('u1', req('/k'), c.compute);
    expect(c.count()).toBe(1);
  });

  it('keeps nothing while the listener is not connected, and drops everything when it reconnects', async () => {
    const f = fakeDatabase();
    const reads = createUserReads(60_000, 1 << 20);
    const c = counted();
    // Not listening yet.
    await reads.read('u1', req('/a'), c.compute);
    await reads.read('u1', req('/a'), c.compute);
    expect(c.count()).toBe(2);
    await reads.listen(f.database);
    await reads.read('u1', req('/a'), c.compute);
    await reads.read('u1', req('/a'), c.compute);
    expect(c.count()).toBe(3);
    f.state(false);
    await reads.read('u1', req('/a'), c.compute);
    await reads.read('u1', req('/a'), c.compute);
    expect(c.count()).toBe(5);
    f.state(true);
    await reads.read('u1', req('/a'), c.compute);
    expect(c.count()).toBe(6);
    // A computation that was in flight when the connection dropped is not kept.
    const slow = deferred<number>();
    const p = reads.read('u1', req('/b'), () => slow.promise);
    f.state(false);
    f.state(true);
    slow.resolve(1);
    await p;
    await reads.read('u1', req('/b'), c.compute);
    expect(c.count()).toBe(7);
  });

  it('a write returns once every notify committed before it is heard: its marker comes after them', async () => {
    const f = fakeDatabase();
    const reads = createUserReads(60_000, 1 << 20);
    await reads.listen(f.database);
    const c = counted();
    await reads.read('u1', req('/r'), c.compute);
    let done = false;
    const waited = reads.caughtUp().then(() => void (done = true));
    await new Promise((r) => setTimeout(r, 10));
    // The marker is sent, not heard yet: the write still waits.
    expect(f.sent).toHaveLength(1);
    expect(done).toBe(false);
    // The write's own notify (u1, a referrer's id) arrives first, then the marker.
    f.say('u1');
    f.deliver();
    await waited;
    expect(done).toBe(true);
    await reads.read('u1', req('/r'), c.compute);
    expect(c.count()).toBe(2);
    // Another replica's marker is nobody's id: it drops nothing.
    f.say('heard:someone-else');
    await reads.read('u1', req('/r'), c.compute);
    expect(c.count()).toBe(2);
  });

  it('a marker not heard in time, or not sent, drops everything kept instead', async () => {
    const f = fakeDatabase();
    const reads = createUserReads(60_000, 1 << 20);
    await reads.listen(f.database);
    const c = counted();
    await reads.read('u1', req('/r'), c.compute);
    await reads.caughtUp(30);
    expect(reads.stats().entries).toBe(0);
    await reads.read('u1', req('/r'), c.compute);
    expect(c.count()).toBe(2);
    f.fail(true);
    await reads.caughtUp();
    await reads.read('u1', req('/r'), c.compute);
    expect(c.count()).toBe(3);
    // The listener dropping releases a waiting write at once (nothing is kept while it is down).
    f.fail(false);
    const waiting = reads.caughtUp(60_000);
    await new Promise((r) => setTimeout(r, 10));
    f.state(false);
    await waiting;
    expect(reads.stats()).toMatchObject({ live: false, entries: 0 });
  });

  it('entries live at most the configured time, and the bytes bound drops the oldest first', async () => {
    const reads = createUserReads(50, 3000);
    await reads.listen(fakeDatabase().database);
    const c = counted();
    await reads.read('u1', req('/t'), c.compute);
    await reads.read('u1', req('/t'), c.compute);
    expect(c.count()).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    await reads.read('u1', req('/t'), c.compute);
    expect(c.count()).toBe(2);
    const big = createUserReads(60_000, 3000);
    await big.listen(fakeDatabase().database);
    for (let i = 0; i < 10; i++) await big.read('u1', req(`/p${i}`), async () => 'x'.repeat(400));
    expect(big.stats().bytes).toBeLessThanOrEqual(3000);
    const first = counted();
    await big.read('u1', req('/p0'), first.compute);
    expect(first.count()).toBe(1);
    const last = counted();
    await big.read('u1', req('/p9'), last.compute);
    expect(last.count()).toBe(0);
  });
});
