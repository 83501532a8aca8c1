import { createHmac } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import safeRegex from 'safe-regex2';
import ts from 'typescript';
import { regexes as zodRegexes } from 'zod/v4/core';
import { and, eq, sql } from 'drizzle-orm';
import { apiMessages as M, apiMessagesRu } from '@app/contracts';
import { rows as queryRows } from '../src/db/rows';
import { emailCodes, outbox, users } from '../src/db/schema';
import { REDACTED } from '../src/mail/mailer';
import { buildServer } from '../src/app';
import { STRONG_PASSWORD, call, createTestDatabase, lastMail, testConfig, newWallet, signUp, siweSign, startTestApp, uniqueEmail, type TestApp } from './helpers';

/** One test (or a few) per finding of the security review of ca0f090, named after it. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, (c) => {
    // The test multiplier (1000) lifts the per-IP limits so the races reach the handlers; these
    // make the lock-out caps 10 per address and 100 per account once multiplied, as in production.
    c.rateLimit.loginMaxFailures = 10 / c.rateLimit.multiplier;
    c.rateLimit.loginMaxFailuresPerAccount = 100 / c.rateLimit.multiplier;
  });
});
afterAll(() => t?.close());

const codeOf = async (email: string, kind = 'approve') => {
  const mail = await lastMail(t.app, email, kind);
  if (!mail?.code) throw new Error(`no ${kind} code mailed to ${email}`);
  return mail.code;
};
const confirm = (login: string, code: string, cookie?: string) =>
  call(t.app, 'POST', '/api/v1/confirm-login', { body: { login, code }, ...(cookie ? { cookie } : {}) });
const login = (email: string, password: string, ip = '203.0.113.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { login: email, password }, remoteAddress: ip });

async function confirmedUser() {
  const r = await signUp(t.app);
  const c = await confirm(r.email, await codeOf(r.email), `refresh_token=${r.refreshToken}`);
  expect(c.status).toBe(200);
  return { email: r.email, id: (c.body.user as { id: string }).id, token: c.body.token as string };
}

describe('finding 1: pre-registration hijack', () => {
  it('register links no wallet: a wallet is linked only to a confirmed account', async () => {
    const attacker = newWallet();
    const proof = await siweSign(t.app, attacker);
    const r = await call(t.app, 'POST', '/api/v1/register', {
      body: { login: uniqueEmail('victim'), password: STRONG_PASSWORD, metaMaskAddress: attacker.address, ...proof },
    });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ metaMaskAddress: M.walletAfterConfirm });
    const [linked] = await t.app.services.db.select().from(users).where(eq(users.walletAddress, attacker.address.toLowerCase()));
    expect(linked).toBeUndefined();
  });

  it("the e-mail's owner confirming ends the registrant's sessions, wallet link and password", async () => {
    // The attacker registers the victim's e-mail (and, on an old database, had linked a wallet).
    const attacker = await signUp(t.app, uniqueEmail('victim'));
    const wallet = newWallet();
    await t.app.services.db.update(users).set({ walletAddress: wallet.address.toLowerCase() }).where(eq(users.email, attacker.email));
    // The victim confirms from their own browser, with the code from their mailbox.
    const victim = await confirm(attacker.email, await codeOf(attacker.email));
    expect(victim.status).toBe(200);
    expect(victim.body.user).toMatchObject({ role: 'user', metaMaskAddress: null });
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: attacker.token })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/refresh', { body: { refreshToken: attacker.refreshToken } })).status).toBe(401);
    expect((await login(attacker.email, STRONG_PASSWORD)).statusCode).toBe(400);
    const proof = await siweSign(t.app, wallet);
    const walletLogin = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...proof } });
    expect(walletLogin.status).toBe(404);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: victim.body.token as string })).status).toBe(200);
  });

  it('the registrant confirming from their own browser keeps the password', async () => {
    const r = await signUp(t.app);
    expect((await confirm(r.email, await codeOf(r.email), `refresh_token=${r.refreshToken}`)).status).toBe(200);
    expect((await login(r.email, STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('a password reset by code ends every session and a wallet linked before the e-mail was proved', async () => {
    const attacker = await signUp(t.app, uniqueEmail('victim'));
    const wallet = newWallet();
    await t.app.services.db.update(users).set({ walletAddress: wallet.address.toLowerCase() }).where(eq(users.email, attacker.email));
    await call(t.app, 'POST', '/api/v1/send-password-recovery', { body: { login: attacker.email } });
    const reset = await call(t.app, 'POST', '/api/v1/change-password-by-code', {
      body: { login: attacker.email, password: 'Vict1m!pass', code: await codeOf(attacker.email, 'recovery') },
    });
    expect(reset.status).toBe(200);
    const [row] = await t.app.services.db.select().from(users).where(eq(users.email, attacker.email));
    expect(row).toMatchObject({ walletAddress: null, role: 'user' });
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: attacker.token })).status).toBe(401);
    const proof = await siweSign(t.app, wallet);
    expect((await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...proof } })).status).toBe(404);
  });
});

describe('finding 2: the role is checked on the server, closed by default', () => {
  const refused: [string, string, unknown][] = [
    ['POST', '/api/v1/connect-mm', { id: 'x', metaMaskAddress: '0x' + '1'.repeat(40), message: 'm', signature: 's' }],
    ['POST', '/api/v1/dashboard/deposit', { pool: 'stable', currency: 'ETH', txHash: '0x' + 'a'.repeat(64), amount: '1' }],
    ['POST', '/api/v1/dashboard/withdraw', { pool: 'stable', currency: 'ETH', amount: '1' }],
    ['POST', '/api/v1/referrals/withdraw', undefined],
    ['GET', '/api/v1/balance', undefined],
    ['GET', '/api/v1/dao/personal', undefined],
    ['PUT', '/api/v1/user/update', { name: 'x' }],
  ];
  it.each(refused)('an unconfirmed account gets 403 from %s %s', async (method, url, body) => {
    const { token } = await signUp(t.app);
    const r = await call(t.app, method, url, { token, body });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ message: M.accountNotConfirmed, code: 'ACCOUNT_NOT_CONFIRMED' });
    const ru = await call(t.app, method, url, { token, body, headers: { 'accept-language': 'ru' } });
    expect(ru.body.message).toBe(apiMessagesRu.accountNotConfirmed);
  });

  it('an unconfirmed account may read its profile, ask for the code again, confirm and log out', async () => {
    const r = await signUp(t.app);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: r.token })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/v1/send-approve-email', { body: { login: r.email } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/v1/logout', { token: r.token })).status).toBe(200);
    expect((await confirm(r.email, await codeOf(r.email))).status).toBe(200);
  });

  it('every authenticated route not marked for unconfirmed accounts refuses them', async () => {
    const { token } = await signUp(t.app);
    const open = new Set(['GET /api/v1/profile']);
    const routes = t.app.printRoutes({ commonPrefix: false });
    expect(routes).toContain('/api/v1/profile');
    const { apiRoutes } = await import('@app/contracts');
    for (const def of Object.values(apiRoutes)) {
      if (!def.auth) continue;
      const url = `/api/v1${def.path.replace(':pool', 'stable')}`;
      const r = await call(t.app, def.method, url, { token, body: def.method === 'GET' ? undefined : {} });
      expect([`${def.method} ${url}`, r.status]).toEqual([`${def.method} ${url}`, open.has(`${def.method} ${url}`) ? 200 : 403]);
    }
  });
});

describe('finding 3: code guessing beats the attempt cap', () => {
  it('50 parallel wrong guesses: at most the cap is checked, and then even the right code is refused', async () => {
    const r = await signUp(t.app);
    const code = await codeOf(r.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 50 }, () => confirm(r.email, wrong)));
    expect(answers.every((a) => a.status === 400)).toBe(true);
    const [row] = await t.app.services.db
      .select({ attempts: emailCodes.attempts })
      .from(emailCodes)
      .where(and(eq(emailCodes.userId, r.user.id as string), eq(emailCodes.purpose, 'approve')));
    expect(row?.attempts).toBe(t.app.services.config.emailCodeMaxAttempts);
    expect((await confirm(r.email, code)).status).toBe(400);
  });
});

describe('finding 4: login lockout', () => {
  it('50 parallel wrong logins: at most the cap is counted', async () => {
    const { email } = await confirmedUser();
    const answers = await Promise.all(Array.from({ length: 50 }, () => login(email, 'Wrong!pass1')));
    const checked = answers.filter((a) => a.statusCode === 400).length;
    expect(checked).toBe(10);
    expect(answers.filter((a) => a.statusCode === 429).length).toBe(40);
    expect(answers.find((a) => a.statusCode === 429)?.json()).toEqual({ message: M.tooManyAttempts, code: 'TOO_MANY_ATTEMPTS' });
  });

  it("a flood from one address does not keep the owner out; the account's own cap still holds", async () => {
    const { email } = await confirmedUser();
    for (let i = 0; i < 15; i++) await login(email, 'Wrong!pass1', '198.51.100.7');
    expect((await login(email, 'Wrong!pass1', '198.51.100.7')).statusCode).toBe(429);
    expect((await login(email, STRONG_PASSWORD, '192.0.2.50')).statusCode).toBe(200);
    // Guesses spread over many addresses meet the per-account cap (100).
    const spread = await Promise.all(Array.from({ length: 120 }, (_, i) => login(email, 'Wrong!pass1', `10.0.${i >> 8}.${i & 255}`)));
    expect(spread.filter((a) => a.statusCode === 400).length).toBe(100);
    expect((await login(email, STRONG_PASSWORD, '192.0.2.51')).statusCode).toBe(429);
  });
});

describe('finding 5: no live code rests in plain text', () => {
  it('a sent body is redacted, no code column exists, and the code HMAC key is not the JWT secret', async () => {
    const r = await signUp(t.app);
    const code = await codeOf(r.email);
    const rows = await queryRows<Record<string, unknown>>(t.app.services.db, sql`select * from outbox where to_address = ${r.email}`);
    expect(rows.length).toBe(1);
    expect(rows[0]).not.toHaveProperty('code');
    expect(rows[0]).toMatchObject({ status: 'sent', text_body: REDACTED, html_body: REDACTED });
    expect(JSON.stringify(rows)).not.toContain(code);
    const [stored] = await t.app.services.db.select().from(emailCodes).where(eq(emailCodes.userId, r.user.id as string));
    // The HMAC covers the address the code was mailed to (issue 21, finding 4).
    const withJwtKey = createHmac('sha256', t.app.services.config.jwtSecret).update(`approve:${r.user.id as string}:${r.email}:${code}`).digest('hex');
    const withCodeKey = createHmac('sha256', t.app.services.config.codeHmacKey).update(`approve:${r.user.id as string}:${r.email}:${code}`).digest('hex');
    expect(stored?.codeHash).toBe(withCodeKey);
    expect(stored?.codeHash).not.toBe(withJwtKey);
  });

  it('a mail left in `sending` by a crashed sender is sent again; old sent rows are purged', async () => {
    const email = uniqueEmail('crash');
    await t.app.services.db.insert(outbox).values({
      to: email, subject: 'Left behind', text: 'Your code is 424242', html: '<p>424242</p>', lang: 'en', kind: 'approve',
      status: 'sending', attempts: 1, claimedAt: new Date(Date.now() - 10 * 60_000),
    });
    expect((await lastMail(t.app, email))?.code).toBe('424242');
    const [row] = await t.app.services.db.select().from(outbox).where(eq(outbox.to, email));
    expect(row).toMatchObject({ status: 'sent', text: REDACTED });
    await t.app.services.db.update(outbox).set({ createdAt: new Date(Date.now() - 400 * 86_400_000) }).where(eq(outbox.to, email));
    await t.app.services.mailer.flush();
    expect(await t.app.services.db.select().from(outbox).where(eq(outbox.to, email))).toEqual([]);
  });
});

describe('finding 6: one request freezes the API', () => {
  it('a pathological e-mail of almost 1 MiB is refused with 400 (the times are printed)', async () => {
    const times: string[] = [];
    for (const login of ['a@' + '.'.repeat(1_000_000) + ' ', 'a@' + 'a.'.repeat(40_000) + '!', 'x'.repeat(300) + '@example.com']) {
      const start = process.hrtime.bigint();
      const r = await call(t.app, 'POST', '/api/v1/login', { body: { login, password: 'x' } });
      times.push(`| ${String(login.length).padStart(9)} | ${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(1).padStart(8)} |`);
      expect(r.status).toBe(400);
      expect(r.body.fields).toEqual({ login: login.length > 254 ? 'Max length is 254!' : M.invalidEmail });
    }
    console.log(['| characters |    ms    |', '|-----------:|---------:|', ...times].join('\n'));
  });

  it('every pattern of the contracts passes the static check (safe-regex2): no repetition inside a repetition', async () => {
    const found = await contractPatterns();
    // The collector reaches the patterns the forms and the API share, and the ones built at run time.
    const { patterns } = await import('@app/contracts');
    for (const re of Object.values(patterns)) expect([...found.values()].map(String)).toContain(String(re));
    const unsafe = [...found].filter(([, re]) => !safeRegex(re)).map(([where]) => where);
    expect(unsafe).toEqual([]);
  });

  it('64 KB and 128 KB of near-matches for each pattern: the times are printed, not judged', async () => {
    const { patterns } = await import('@app/contracts');
    const near = (n: number): Record<string, string[]> => ({
      email: ['a@' + '.'.repeat(n) + ' ', 'a@' + 'a.'.repeat(n / 2) + '!', 'a'.repeat(n) + '@', 'a@' + 'a'.repeat(n)],
      password: ['aA#'.repeat(n / 3), 'a'.repeat(n) + 'A'],
      phone: ['+' + '1'.repeat(n), '1 '.repeat(n / 2)],
      telegram: ['@' + 'a'.repeat(n)],
      address: ['0x' + 'a'.repeat(n)],
      txHash: ['0x' + 'a'.repeat(n)],
      baseUnits: ['1'.repeat(n) + 'x'],
    });
    const slowest = (name: string, n: number) => {
      const re = patterns[name as keyof typeof patterns];
      let worst = 0;
      for (const input of near(n)[name]!) {
        const start = process.hrtime.bigint();
        expect(re.test(input)).toBe(false);
        worst = Math.max(worst, Number(process.hrtime.bigint() - start) / 1e6);
      }
      return worst;
    };
    const rows = Object.keys(near(2)).map((name) => {
      const [n, n2] = [slowest(name, 65_536), slowest(name, 131_072)];
      return `| ${name.padEnd(9)} | ${n.toFixed(2).padStart(8)} | ${n2.toFixed(2).padStart(8)} |`;
    });
    console.log(['| pattern   | 64 KB ms | 128 KB ms |', '|-----------|---------:|---------:|', ...rows].join('\n'));
  });
});

/**
 * Every regular expression of shared/contracts: each literal in its source (read with the TypeScript
 * scanner), and each one its exports hold at run time, which takes in the ones built with `new
 * RegExp`. zod's own patterns are zod's business and left out.
 */
async function contractPatterns(): Promise<Map<string, RegExp>> {
  const found = new Map<string, RegExp>();
  const root = path.resolve(__dirname, '../../shared/contracts/src');
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(source);
        const slash = literal.lastIndexOf('/');
        found.set(`${file}: ${literal}`, new RegExp(literal.slice(1, slash), literal.slice(slash + 1)));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const zodOwn = new Set(Object.values(zodRegexes).filter((v): v is RegExp => v instanceof RegExp).map(String));
  const literals = new Set([...found.values()].map(String));
  const seen = new Set<unknown>();
  const walk = (value: unknown): void => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return;
    seen.add(value);
    if (value instanceof RegExp) {
      if (!zodOwn.has(String(value)) && !literals.has(String(value))) found.set(`built at run time: ${String(value)}`, value);
      return;
    }
    if (value instanceof Set || value instanceof Map) for (const v of value.values()) walk(v);
    for (const key of Object.getOwnPropertyNames(value)) {
      const v = Object.getOwnPropertyDescriptor(value, key);
      if (v && 'value' in v) walk(v.value);
    }
  };
  walk(await import('@app/contracts'));
  return found;
}

describe('finding 7: bad input gives 500', () => {
  it('a NUL character in any text field answers 400 with the field', async () => {
    const nul = await call(t.app, 'POST', '/api/v1/register', { body: { login: 'a\u0000b@example.com', password: STRONG_PASSWORD } });
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({ message: M.invalidFields, code: 'VALIDATION', fields: { login: M.invalidValue } });
    const { token } = await (async () => {
      const r = await signUp(t.app);
      return (await confirm(r.email, await codeOf(r.email), `refresh_token=${r.refreshToken}`)).body as { token: string };
    })();
    const name = await call(t.app, 'PUT', '/api/v1/user/update', { token, body: { name: 'Ann\u0000' } });
    expect(name.status).toBe(400);
    expect(name.body.fields).toEqual({ name: M.invalidValue });
    const query = await call(t.app, 'GET', '/api/v1/dashboard/pools/stable?currency=ETH%00', { token });
    expect(query.status).toBe(400);
  });

  it('GET /balance with a date out of range answers 400', async () => {
    const { token } = (await confirm(...(await (async () => {
      const r = await signUp(t.app);
      return [r.email, await codeOf(r.email), `refresh_token=${r.refreshToken}`] as const;
    })()))).body as { token: string };
    for (const q of ['to=0000-01-01', 'from=0000-01-01', 'to=99999-01-01', 'from=2026-02-30']) {
      const r = await call(t.app, 'GET', `/api/v1/balance?${q}`, { token });
      expect([q, r.status, r.body.message]).toEqual([q, 400, M.invalidFields]);
    }
  });

  it('no log line holds a query parameter: hashes and e-mails stay out of the logs', async () => {
    const lines: string[] = [];
    const db = await createTestDatabase();
    const app = await buildServer(testConfig({ LOG_LEVEL: 'error' }), { database: db.database, logStream: { write: (l) => lines.push(l) } });
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0c2FsdA$aGFzaGhhc2hoYXNo';
    app.get('/api/v1/failing-query', async () => queryRows(app.services.db, sql`select ${hash}::text, ${'victim@example.com'}::text from no_such_table`));
    const r = await app.inject({ method: 'GET', url: '/api/v1/failing-query' });
    await app.close();
    await db.drop();
    expect(r.statusCode).toBe(500);
    const text = lines.join('\n');
    expect(text).toContain('Failed query');
    expect(text).not.toContain('argon2id');
    expect(text).not.toContain('victim@example.com');
  });
});

describe('finding 11: smaller holes', () => {
  it('a sign-in sets a readable marker cookie holding no secret; logout clears it', async () => {
    const r = await call(t.app, 'POST', '/api/v1/register', { body: { login: uniqueEmail(), password: STRONG_PASSWORD } });
    const cookies = ([] as string[]).concat(r.headers['set-cookie'] ?? []);
    const marker = cookies.find((c) => c.startsWith('signed_in='));
    expect(marker).toMatch(/^signed_in=1; Max-Age=\d+; Path=\/; SameSite=Strict$/);
    const out = await call(t.app, 'POST', '/api/v1/logout', { token: r.body.token as string });
    expect(([] as string[]).concat(out.headers['set-cookie'] ?? []).find((c) => c.startsWith('signed_in='))).toMatch(/^signed_in=; Max-Age=0; Path=\/; /);
  });

  it('the session cache keeps no hash, and is bounded in bytes', async () => {
    const bounded = await startTestApp({ AUTH_CACHE_MAX_BYTES: '3000' });
    try {
      const tokens: string[] = [];
      for (let i = 0; i < 12; i++) tokens.push((await signUp(bounded.app)).token);
      for (const token of tokens) expect((await call(bounded.app, 'GET', '/api/v1/profile', { token })).status).toBe(200);
      const stats = bounded.app.services.sessions.cacheStats();
      expect(stats.entries).toBeGreaterThan(0);
      expect(stats.entries).toBeLessThan(12);
      expect(stats.bytes).toBeLessThanOrEqual(3000);
    } finally {
      await bounded.close();
    }
  });
});
