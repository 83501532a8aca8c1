import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { apiMessages as M } from '@app/contracts';
import { like } from 'drizzle-orm';
import { buildServer } from '../src/app';
import { rateCounters } from '../src/db/schema';
import { NO_ADDRESS_KEY, clientKey } from '../src/http/client-key';
import { HOST, ORIGIN, STRONG_PASSWORD, lastMail, register, startTestApp, testConfig, uniqueEmail, type TestApp } from './helpers';

// The production limits (multiplier 1), and a real floor for the mail calls' answer time.
let t: TestApp;
/** Called when an answer has been sent: fastify's own 'finish' listener, which runs before any work the route left for after it. */
let answered: (() => void) | null = null;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_MULTIPLIER: '1', UNIFORM_RESPONSE_MS: '250' });
  t.app.addHook('onResponse', async () => answered?.());
});
afterAll(() => t?.close());

let ip = 10;
/** Each test speaks from its own address, so per-IP windows do not mix. */
const nextIp = () => `10.0.0.${++ip}`;

const post = (url: string, payload: object, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress, headers: { host: HOST, origin: ORIGIN } });

describe('rate limits', () => {
  it('ten failed logins lock that account for that address; the account as a whole after a hundred', async () => {
    const { email } = await register(t.app);
    const flood = '10.1.0.1';
    for (let i = 0; i < 10; i++) {
      const r = await post('/api/v1/login', { login: email, password: 'Wrong!pass1' }, flood);
      expect(r.statusCode).toBe(400);
    }
    const locked = await post('/api/v1/login', { login: email, password: STRONG_PASSWORD }, flood);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ message: M.tooManyAttempts, code: 'TOO_MANY_ATTEMPTS' });
    // The owner, elsewhere, still signs in; so does another account from the flooding address.
    expect((await post('/api/v1/login', { login: email, password: STRONG_PASSWORD }, nextIp())).statusCode).toBe(200);
    const other = await register(t.app);
    expect((await post('/api/v1/login', { login: other.email, password: STRONG_PASSWORD }, flood)).statusCode).toBe(200);
    // Ten addresses with ten failures each reach the account's cap: then every address gets 429.
    for (let a = 0; a < 10; a++) {
      for (let i = 0; i < 10; i++) await post('/api/v1/login', { login: email, password: 'Wrong!pass1' }, `10.3.${a}.1`);
    }
    expect((await post('/api/v1/login', { login: email, password: STRONG_PASSWORD }, nextIp())).statusCode).toBe(429);
  });

  it('an unknown e-mail locks the same way (the lock tells nothing)', async () => {
    const email = uniqueEmail('ghost');
    for (let i = 0; i < 10; i++) await post('/api/v1/login', { login: email, password: 'Wrong!pass1' }, '10.2.0.1');
    expect((await post('/api/v1/login', { login: email, password: 'Wrong!pass1' }, '10.2.0.1')).statusCode).toBe(429);
  });

  it('finding 11: limits POST /dashboard/deposit per address (each call costs chain reads)', async () => {
    const { token } = await register(t.app);
    const addr = nextIp();
    const deposit = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/dashboard/deposit', payload: { pool: 'stable' }, remoteAddress: addr, headers: { host: HOST, origin: ORIGIN, authorization: `Bearer ${token}` } });
    for (let i = 0; i < 20; i++) expect((await deposit()).statusCode).toBe(400);
    const limited = await deposit();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: M.tooManyRequests, code: 'RATE_LIMITED' });
  });

  it('limits login attempts per address', async () => {
    const addr = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await post('/api/v1/login', { login: uniqueEmail(), password: 'Wrong!pass1' }, addr)).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 400)).toBe(true);
    expect(codes[30]).toBe(429);
  });

  it.each([
    ['/api/v1/send-password-recovery', 5],
    ['/api/v1/send-approve-email', 5],
  ])('limits %s per address', async (url, max) => {
    const addr = nextIp();
    const codes: number[] = [];
    for (let i = 0; i <= max; i++) codes.push((await post(url, { login: uniqueEmail() }, addr)).statusCode);
    expect(codes.slice(0, max)).toEqual(Array(max).fill(200));
    const last = await post(url, { login: uniqueEmail() }, addr);
    expect(last.statusCode).toBe(429);
    expect(last.json()).toEqual({ message: M.tooManyRequests, code: 'RATE_LIMITED' });
  });

  it('limits code checks and registrations per address', async () => {
    const addr = nextIp();
    let status = 0;
    for (let i = 0; i < 21; i++) status = (await post('/api/v1/confirm-login', { login: uniqueEmail(), code: '123456' }, addr)).statusCode;
    expect(status).toBe(429);
    const regAddr = nextIp();
    for (let i = 0; i < 11; i++) status = (await post('/api/v1/register', { login: uniqueEmail(), password: STRONG_PASSWORD }, regAddr)).statusCode;
    expect(status).toBe(429);
  });

  it('issue 23: a route\'s limit is one count across API replicas, and the address is not kept in the clear', async () => {
    // A second API process on the same database: what a client spends on one replica counts on the other.
    const replica = await buildServer(testConfig({ RATE_LIMIT_MULTIPLIER: '1', UNIFORM_RESPONSE_MS: '250' }), { database: t.db.database, logger: false });
    try {
      const addr = nextIp();
      const on = (app: TestApp['app']) =>
        app.inject({ method: 'POST', url: '/api/v1/send-password-recovery', payload: { login: uniqueEmail() }, remoteAddress: addr, headers: { host: HOST, origin: ORIGIN } });
      const codes: number[] = [];
      // Five are allowed per address: three on one replica and two on the other use them up.
      for (let i = 0; i < 5; i++) codes.push((await on(i % 2 ? replica : t.app)).statusCode);
      expect(codes).toEqual([200, 200, 200, 200, 200]);
      expect((await on(replica)).statusCode).toBe(429);
      expect((await on(t.app)).statusCode).toBe(429);
      const rows = await t.db.database.db.select({ key: rateCounters.key }).from(rateCounters).where(like(rateCounters.key, 'route:%'));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.key.includes(addr))).toBe(false);
      // Counters whose window has long ended are pruned; live ones stay.
      const stale = `route:stale-${addr}`;
      await t.db.database.db.insert(rateCounters).values({ key: stale, count: 1, windowStart: new Date(Date.now() - 2 * 86_400_000) });
      await t.app.services.counters.prune();
      const left = await t.db.database.db.select({ key: rateCounters.key }).from(rateCounters).where(like(rateCounters.key, 'route:%'));
      expect(left.map((r) => r.key)).not.toContain(stale);
      expect(left.length).toBe(rows.length);
    } finally {
      await replica.close();
    }
  });

  it('answers in Russian when asked', async () => {
    const addr = nextIp();
    for (let i = 0; i < 5; i++) await post('/api/v1/send-password-recovery', { login: uniqueEmail() }, addr);
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/send-password-recovery',
      payload: { login: uniqueEmail() },
      remoteAddress: addr,
      headers: { 'accept-language': 'ru' },
    });
    expect(r.statusCode).toBe(429);
    expect(r.json().message).toBe('Слишком много запросов. Попробуйте позже.');
  });
});

/**
 * A request the way Node hands one over when its client has already hung up: the socket has no
 * address. Answers the status and body the app wrote.
 */
async function requestWithoutAddress(url: string): Promise<{ status: number; body: string }> {
  await t.app.ready();
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = url;
  req.headers = { host: HOST };
  req.push(null);
  const res = new ServerResponse(req);
  const written: Buffer[] = [];
  const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
  const finished = new Promise<void>((resolve) => {
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk) written.push(Buffer.from(chunk as string));
      resolve();
      return end(chunk, ...rest);
    }) as typeof res.end;
  });
  t.app.server.emit('request', req, res);
  await finished;
  return { status: res.statusCode, body: Buffer.concat(written).toString() };
}

describe('a request whose socket has no address', () => {
  it('is rate-limited under a key of its own, never answered 500 by the rate limiter', async () => {
    const first = await requestWithoutAddress('/api/v1/currencies');
    expect(first.status).toBe(200);
    // Such requests share one bucket (no address to tell them apart): the global 600 a minute.
    const statuses: number[] = [];
    for (let i = 0; i < 600; i++) statuses.push((await requestWithoutAddress('/api/v1/currencies')).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
  });

  it('keys clients by address: IPv4-mapped as IPv4, IPv6 by its /64', () => {
    expect(clientKey({ ip: undefined, socket: { remoteAddress: undefined } })).toBe(NO_ADDRESS_KEY);
    expect(clientKey({ ip: '::ffff:10.0.0.7' })).toBe('10.0.0.7');
    expect(clientKey({ ip: '2001:db8:0:12:aaaa::1' })).toBe(clientKey({ ip: '2001:DB8::12:ffff:1:2:3' }));
    expect(clientKey({ ip: '2001:db8:0:12:aaaa::1' })).toBe('2001:db8:0:12::/64');
    expect(clientKey({ ip: '2001:db8:0:13::1' })).not.toBe(clientKey({ ip: '2001:db8:0:12::1' }));
  });
});

describe('no enumeration by timing', () => {
  it('recovery answers before it touches the database or the mail: a known and an unknown e-mail cannot be told apart by timing', async () => {
    const { email } = await register(t.app);
    await t.app.services.background.idle();
    // Every statement reaches the database through its client (PGlite, or node-postgres' pool).
    const client = (t.app.services.db as unknown as { $client: Record<string, unknown> }).$client;
    const spies = ['query', 'exec', 'transaction', 'connect'].filter((m) => typeof client[m] === 'function').map((m) => jest.spyOn(client as Record<string, () => unknown>, m).mockName(m));
    // The route's rate count (keyed by the route and the address, never by the login) runs before
    // the answer, on every replica's shared counter: it is told apart from the account's statements.
    // PGlite's query takes (text, params); node-postgres' takes a config object ({ text, values }).
    const isRateCount = (args: unknown[]) => {
      const config = args[0] as string | { text?: string; values?: unknown[] };
      const text = typeof config === 'string' ? config : (config?.text ?? '');
      return text.includes('"rate_counters"') && JSON.stringify(args[1] ?? (typeof config === 'string' ? [] : config?.values) ?? []).includes('"route:');
    };
    const callsOf = (method: string) => spies.filter((spy) => spy.getMockName() === method).flatMap((spy) => spy.mock.calls as unknown[][]);
    // node-postgres' pool.query takes a connection itself: a connect beyond those is a transaction's.
    const statements = () =>
      callsOf('query').filter((args) => !isRateCount(args)).length +
      callsOf('exec').length +
      callsOf('transaction').length +
      Math.max(0, callsOf('connect').length - callsOf('query').length);
    const rateCounts = () => callsOf('query').filter(isRateCount).length;
    // The app's periodic jobs (the mail queue's poll) would add statements of their own meanwhile.
    await t.app.services.jobs.stop();
    try {
      for (const login of [email, uniqueEmail()]) {
        for (const spy of spies) spy.mockClear();
        // What had run when the answer left, counted then: on a busy machine the work after the
        // answer may start before this test reads the response.
        let atAnswer: number[] = [];
        answered = () => (atAnswer = [statements(), rateCounts()]);
        const r = await post('/api/v1/send-password-recovery', { login }, nextIp());
        answered = null;
        // Answered, and nothing looked up or written yet: the answer cannot depend on the account.
        expect([login, r.statusCode, ...atAnswer]).toEqual([login, 200, 0, 1]);
        await t.app.services.background.idle();
        // The lookup (and for a known e-mail the mail) came after the answer.
        expect(statements()).toBeGreaterThan(0);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
      t.app.services.jobs.start();
    }
    expect((await lastMail(t.app, email, 'recovery'))?.code).toMatch(/^\d{6}$/);
  });

  it('a wrong code takes as long for a known as for an unknown e-mail (answer-time floor)', async () => {
    const { email } = await register(t.app);
    const time = async (login: string) => {
      const start = process.hrtime.bigint();
      const r = await post('/api/v1/confirm-login', { login, code: '000000' }, nextIp());
      expect(r.statusCode).toBe(400);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    for (const ms of [await time(email), await time(uniqueEmail())]) expect(ms).toBeGreaterThanOrEqual(245);
  });
});
