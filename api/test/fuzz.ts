import fc from 'fast-check';
import { apiRoutes, errorResponseSchema, POOL_NAMES } from '@app/contracts';
import type { App } from '../src/app';
import { createAccessTokens } from '../src/auth/tokens';
import { users } from '../src/db/schema';
import { HOST, ORIGIN } from './helpers';

/**
 * Property-based hostile input for every call of `apiRoutes`: wrong types, strings up to the body
 * limit, NUL and other control characters, odd Unicode, deep nesting, numbers and dates out of
 * range, pathological e-mails and addresses, bad and expired tokens. Every answer must be below
 * 500, carry the standard error body when it is a 4xx, and come within `maxMs`.
 */

type RouteName = keyof typeof apiRoutes;
type Def = { method: string; path: string; auth: boolean; body?: unknown; query?: unknown; params?: unknown };

export type RouteStats = { cases: number; s2xx: number; s4xx: number; s5xx: number; slowestMs: number };
export type FuzzAccount = { userId: string; unconfirmedUserId: string };

/** Field names of a zod (mini) object schema, looking through optional/nullable/pipe wrappers. */
function fieldNames(schema: unknown): string[] {
  let s = schema as { _zod?: { def: { shape?: Record<string, unknown>; innerType?: unknown; in?: unknown } } } | undefined;
  for (let i = 0; s?._zod && i < 5; i++) {
    const def = s._zod.def;
    if (def.shape) return Object.keys(def.shape);
    s = (def.innerType ?? def.in) as typeof s;
  }
  return [];
}

const pathological = [
  'a@' + '.'.repeat(200_000) + ' ',
  'a@' + 'a.'.repeat(100_000) + '!',
  'x'.repeat(300) + '@example.com',
  '@'.repeat(10_000),
  '0x' + 'f'.repeat(40),
  '0x' + 'F'.repeat(39) + 'g',
  '0x' + '0'.repeat(10_000),
  '0x' + 'a'.repeat(64),
  '0000-01-01',
  '9999-12-31',
  '99999-01-01',
  '2026-02-30',
  '-1',
  '1e309',
  '9'.repeat(100),
  '115792089237316195423570985008687907853269984665640564039457584007913129639936',
  'NaN',
  '\u0000',
  'a\u0000b@example.com',
  '\uD800',
  '\uFEFF\u202E\u200B',
  'Ω≈ç√∫˜µ≤≥÷',
  '👩‍👩‍👧‍👦'.repeat(1000),
  'Ⅻ'.repeat(50_000),
  ' '.repeat(5000),
  'stable',
  'ETH',
  'USDT',
  'user@example.com',
  'Str0ng!pass',
  '123456',
  'ru',
];

/** Hostile strings: pathological constants, control characters, any Unicode, and huge ones. */
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...pathological) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), maxLength: 32 }) },
  { weight: 2, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 1_000_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.constant('é'.repeat(520_000)) }, // about 1 MiB as UTF-8: at the body limit
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -0, -1, 2 ** 53, -(2 ** 53), 1e308, -1e308, 5e-324, 0.1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
/** Any JSON value, nested a few levels. */
const hostileValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constant('__proto__'), fc.constant('constructor')), tie('value'), { maxKeys: 4 }),
})).value;

/** A body as raw text: deep nesting, broken JSON, or JSON of a generated value. */
const rawBody = (fields: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record(Object.fromEntries(fields.map((f) => [f, fc.option(hostileValue, { nil: undefined })]))).map((o) => JSON.stringify(o)) },
    { weight: 2, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 200_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 100_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)) },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"login":', 'null', '""', '[]', '{"__proto__":{"role":"admin"}}', '\u0000') },
  );

type TokenKind = 'none' | 'valid' | 'unconfirmed' | 'expired' | 'garbage' | 'tampered' | 'foreign';
const tokenKind = fc.constantFrom<TokenKind>('none', 'valid', 'valid', 'unconfirmed', 'expired', 'garbage', 'tampered', 'foreign');

export type FuzzCase = {
  route: RouteName;
  params: Record<string, string>;
  query: Record<string, string>;
  body: string | undefined;
  contentType: string;
  token: TokenKind;
  ip: string;
};

const paramValue = fc.oneof(fc.constantFrom(...POOL_NAMES), hostileString.map((s) => s.slice(0, 2000)));

export function fuzzCase(route: RouteName): fc.Arbitrary<FuzzCase> {
  const def = apiRoutes[route] as Def;
  const params = Object.fromEntries(fieldNames(def.params).map((k) => [k, paramValue]));
  const queryValue = fc.oneof(fc.constantFrom('ETH', 'stable', '2026-01-01', '0000-01-01', '-1', '10'), hostileString.map((s) => s.slice(0, 4000)));
  const queryKeys = [...fieldNames(def.query), 'lang', 'extra'];
  return fc.record({
    route: fc.constant(route),
    params: fc.record(params) as fc.Arbitrary<Record<string, string>>,
    query: fc.dictionary(fc.constantFrom(...queryKeys), queryValue, { maxKeys: 3 }),
    body: def.method === 'GET' ? fc.constant(undefined) : fc.option(rawBody(fieldNames(def.body)), { nil: undefined, freq: 10 }),
    contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'),
    token: tokenKind,
    ip: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`),
  });
}

/** A confirmed and an unconfirmed account to sign the fuzzed calls with. */
export async function fuzzAccount(app: App): Promise<FuzzAccount> {
  const make = async (role: string | null) => {
    const id = crypto.randomUUID();
    await app.services.db.insert(users).values({
      id,
      email: `fuzz.${id}@example.com`,
      passwordHash: await app.services.hasher.hash('Str0ng!pass'),
      role,
      referralCode: id.slice(0, 12),
    });
    return id;
  };
  return { userId: await make('user'), unconfirmedUserId: await make(null) };
}

/**
 * Percent-encodes every byte of the text's UTF-8 form except unreserved characters. Unlike
 * encodeURIComponent it never throws: a lone surrogate goes out as the bytes of U+FFFD.
 */
const percentEncode = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

/** Every route, each with its own generator. */
export const anyCase = fc.oneof(...(Object.keys(apiRoutes) as RouteName[]).map(fuzzCase));

/** Answer times are measured and printed (`statsTable`), never a reason to fail: on a busy machine any limit would. */
export function createFuzzer(app: App, account: FuzzAccount) {
  const cfg = app.services.config;
  const expired = createAccessTokens(cfg.jwtSecret, -120);
  const foreign = createAccessTokens('another-secret-another-secret-another-secret', cfg.lifetimes.accessToken);
  const stats = new Map<RouteName, RouteStats>();

  async function token(kind: TokenKind): Promise<string | undefined> {
    switch (kind) {
      case 'none':
        return undefined;
      case 'valid':
        // A fresh session per case: a fuzzed logout must not starve the later cases.
        return (await app.services.sessions.start(account.userId, {})).token;
      case 'unconfirmed':
        return (await app.services.sessions.start(account.unconfirmedUserId, {})).token;
      case 'expired':
        return expired.sign({ sub: account.userId, sid: crypto.randomUUID() });
      case 'foreign':
        return foreign.sign({ sub: account.userId, sid: crypto.randomUUID() });
      case 'tampered': {
        const t = (await app.services.sessions.start(account.userId, {})).token;
        return `${t.slice(0, -3)}${t.endsWith('A') ? 'B' : 'A'}AA`;
      }
      case 'garbage':
        return 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.';
    }
  }

  /** Runs one case; throws (with what went wrong) when the answer breaks the rules. */
  async function run(c: FuzzCase): Promise<void> {
    const def = apiRoutes[c.route] as Def;
    const path = def.path.replace(/:(\w+)/g, (_, k: string) => percentEncode(c.params[k] ?? ''));
    const qs = new URLSearchParams(c.query).toString();
    const url = `/api/v1${path}${qs ? `?${qs}` : ''}`;
    const bearer = await token(c.token);
    const headers: Record<string, string> = { host: HOST, origin: ORIGIN };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (c.body !== undefined) headers['content-type'] = c.contentType;
    const start = process.hrtime.bigint();
    const res = await app.inject({ method: def.method as 'GET', url, headers, remoteAddress: c.ip, ...(c.body !== undefined ? { payload: c.body } : {}) });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;

    const s = stats.get(c.route) ?? { cases: 0, s2xx: 0, s4xx: 0, s5xx: 0, slowestMs: 0 };
    s.cases++;
    s.slowestMs = Math.max(s.slowestMs, ms);
    if (res.statusCode >= 500) s.s5xx++;
    else if (res.statusCode >= 400) s.s4xx++;
    else s.s2xx++;
    stats.set(c.route, s);

    const what = `${def.method} ${url.slice(0, 200)} (${c.token} token, body ${c.body?.length ?? 0} chars)`;
    if (res.statusCode >= 500) throw new Error(`${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    if (res.statusCode >= 400) {
      let body: unknown;
      try {
        body = res.json();
      } catch {
        throw new Error(`${what}: ${res.statusCode} with a body that is not JSON: ${res.body.slice(0, 200)}`);
      }
      const parsed = errorResponseSchema.safeParse(body);
      const keys = Object.keys(body as object);
      if (!parsed.success || !parsed.data.message || keys.some((k) => !['message', 'code', 'fields'].includes(k))) {
        throw new Error(`${what}: ${res.statusCode} without the standard error body: ${res.body.slice(0, 300)}`);
      }
    }
  }

  return { run, stats };
}

/** The table the fuzz prints: route, cases, 2xx/4xx/5xx, slowest answer. */
export function statsTable(stats: Map<RouteName, RouteStats>): string {
  const rows = (Object.keys(apiRoutes) as RouteName[]).map((name) => {
    const d = apiRoutes[name] as Def;
    const s = stats.get(name) ?? { cases: 0, s2xx: 0, s4xx: 0, s5xx: 0, slowestMs: 0 };
    return [`${d.method} ${d.path}`, String(s.cases), `${s.s2xx}/${s.s4xx}/${s.s5xx}`, `${s.slowestMs.toFixed(1)} ms`];
  });
  const total = [...stats.values()].reduce(
    (t, s) => ({ cases: t.cases + s.cases, s2xx: t.s2xx + s.s2xx, s4xx: t.s4xx + s.s4xx, s5xx: t.s5xx + s.s5xx, slowestMs: Math.max(t.slowestMs, s.slowestMs) }),
    { cases: 0, s2xx: 0, s4xx: 0, s5xx: 0, slowestMs: 0 },
  );
  rows.push(['all routes', String(total.cases), `${total.s2xx}/${total.s4xx}/${total.s5xx}`, `${total.slowestMs.toFixed(1)} ms`]);
  const head = ['route', 'cases', '2xx/4xx/5xx', 'slowest'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(width[i] as number) : c.padStart(width[i] as number))).join(' | ')} |`;
  return [line(head), `|${width.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n');
}
