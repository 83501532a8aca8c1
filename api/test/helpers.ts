import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import { buildServer, type App } from '../src/app';
import { loadConfig, type AppConfig } from '../src/config';
import { migrationsFolder, openDatabase, type Database } from '../src/db/client';
import { startMailCatcher, type MailCatcher } from './mail-catcher';
import { startTestSigner, type TestSigner } from './signer-helpers';

/**
 * Test databases. With TEST_DATABASE_URL (a PostgreSQL server; the user needs CREATEDB), each
 * test file gets its own fresh database, dropped afterwards. Without it, PGlite in memory,
 * loaded from a migrated snapshot that is made once per set of migrations (initdb is slow).
 */
export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

function migrationsHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(migrationsFolder).sort()) if (f.endsWith('.sql')) h.update(readFileSync(path.join(migrationsFolder, f)));
  return h.digest('hex').slice(0, 16);
}

async function pgliteSnapshot(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `api-pglite-${migrationsHash()}.tar.gz`);
  if (!existsSync(file)) {
    const db = await openDatabase({ kind: 'pglite', dataDir: null });
    const client = (db.db as unknown as { $client: { dumpDataDir: (c: 'gzip') => Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir('gzip');
    await db.close();
    // Written aside and renamed: parallel jest workers never read half a file.
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file);
  }
  return new Blob([readFileSync(file)]);
}

export type TestDatabase = { database: Database; drop: () => Promise<void>; reopen: () => Promise<Database>; /** PostgreSQL only: the test database's URL. */ url?: string };

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const { Client } = await import('pg');
    const name = `api_test_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    // Every pool opened on this database, so all are closed before it is dropped.
    const opened: Database[] = [];
    const open = async () => {
      const d = await openDatabase({ kind: 'postgres', url: url.toString() }, { onIdleError: () => undefined });
      opened.push(d);
      return d;
    };
    const database = await open();
    return {
      database,
      url: url.toString(),
      reopen: open,
      drop: async () => {
        for (const d of opened) await d.close().catch(() => undefined);
        const a = new Client({ connectionString: adminUrl });
        await a.connect();
        await a.query(`drop database if exists ${name} with (force)`);
        await a.end();
      },
    };
  }
  const database = await openDatabase({ kind: 'pglite', dataDir: null }, { loadDataDir: await pgliteSnapshot() });
  return {
    database,
    reopen: () => {
      throw new Error('in-memory PGlite cannot be reopened; use a data folder');
    },
    drop: () => database.close(),
  };
}

/** Test configuration: cheap argon2 (production minimums are tested on their own), high limits. */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    // The tests' chain is anvil: its test keys and pool addresses.
    LOCAL_CHAIN: 'true',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    CODE_HMAC_KEY: 'test-code-key-test-code-key-test-code-key',
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    RATE_LIMIT_MULTIPLIER: '1000',
    UNIFORM_RESPONSE_MS: '0',
    LOG_LEVEL: 'silent',
    // The watcher, interest and payouts run only when a test runs them.
    MONEY_JOBS_INTERVAL_MS: '0',
    // Reads from memory are off unless a test turns them on (user-reads.test.ts; the browser tests
    // run with them on). These tests read the books themselves, and many write them straight
    // through the database (not a request): on PostgreSQL that write's notify reaches the listener
    // a moment after its commit, so a read right after it could be answered once from memory.
    READ_CACHE_MS: '0',
    // The figures every read shares (prices, APYs, pool totals) likewise: read every time.
    SHARED_FIGURES_MS: '0',
    ...env,
  });
}

export type TestApp = { app: App; db: TestDatabase; mail: MailCatcher; /** The real signer, in this process, reading this app's database (unless SIGNER_URL was given). */ signer: TestSigner | null; close: () => Promise<void> };

// Creating a PostgreSQL database, migrating it and starting MailDev can take a while on a busy
// machine: hooks and tests get two minutes rather than jest's default.
if (typeof jest !== 'undefined') jest.setTimeout(120_000);

/** The mail catcher of the test file: one per jest worker process, shared by its apps. */
let catcher: Promise<MailCatcher> | undefined;
export const mailCatcher = () => (catcher ??= startMailCatcher());
// Outside jest (the fuzz command) there is no afterAll; the catcher is then never started.
if (typeof afterAll === 'function') {
  afterAll(async () => {
    const c = await catcher;
    catcher = undefined;
    await c?.stop();
  });
}

export async function startTestApp(env: Record<string, string> = {}, configure?: (c: AppConfig) => void): Promise<TestApp> {
  const [db, mail] = await Promise.all([createTestDatabase(), mailCatcher()]);
  // The API holds no payout key: payouts are signed by the signer, as in the stack.
  const signer = env.SIGNER_URL ? null : await startTestSigner(() => db.database.db);
  const config = testConfig({ SMTP_URL: mail.smtpUrl, ...(signer ? { SIGNER_URL: signer.url } : {}), ...env });
  configure?.(config);
  const app = await buildServer(config, { database: db.database, logger: false });
  return {
    app,
    db,
    mail,
    signer,
    close: async () => {
      await app.close();
      await signer?.close();
      await db.drop();
    },
  };
}

export const HOST = 'localhost:8080';
export const ORIGIN = `http://${HOST}`;

let emailCounter = 0;
export const uniqueEmail = (tag = 'user') => `${tag}.${Date.now().toString(36)}.${++emailCounter}@example.com`;
export const STRONG_PASSWORD = 'Str0ng!pass';

type Json = Record<string, unknown>;

/** A JSON call as the browser makes it through the shell's proxy. */
export async function call(app: App, method: string, url: string, opts: { body?: unknown; token?: string; headers?: Record<string, string>; cookie?: string } = {}) {
  const headers: Record<string, string> = { origin: ORIGIN, host: HOST, ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await app.inject({ method: method as 'GET', url, headers, ...(opts.body !== undefined ? { payload: opts.body as Json } : {}) });
  return { status: res.statusCode, body: res.body ? (res.json() as Json) : {}, headers: res.headers, res };
}

/** Signs up and stops there: the account has no role until its e-mail is confirmed. */
export async function signUp(app: App, email = uniqueEmail(), extra: Json = {}) {
  const r = await call(app, 'POST', '/api/v1/register', { body: { login: email, password: STRONG_PASSWORD, ...extra } });
  if (r.status !== 200) throw new Error(`register failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { email, token: r.body.token as string, refreshToken: r.body.refreshToken as string, user: r.body.user as Json };
}

/** Signs up and confirms the e-mail with the mailed code, from the same browser (role `user`). */
export async function register(app: App, email = uniqueEmail(), extra: Json = {}) {
  const first = await signUp(app, email, extra);
  const code = (await lastMail(app, email, 'approve'))?.code;
  const r = await call(app, 'POST', '/api/v1/confirm-login', { body: { login: email, code }, cookie: `refresh_token=${first.refreshToken}` });
  if (r.status !== 200) throw new Error(`confirm failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { email, token: r.body.token as string, refreshToken: r.body.refreshToken as string, user: r.body.user as Json };
}

/**
 * The newest mail to an address (of one kind, if given), from the mail catcher, once everything
 * the app had to send has gone over SMTP. `code` is the 6-digit code its text carries.
 */
export async function lastMail(app: App, to: string, kind?: string) {
  await app.services.background.idle();
  await app.services.mailer.flush();
  const mails = await (await mailCatcher()).mailsTo(to);
  const m = mails.find((x) => !kind || x.headers?.['x-mail-kind'] === kind);
  if (!m) return undefined;
  return {
    subject: m.subject,
    text: m.text ?? '',
    kind: m.headers?.['x-mail-kind'] ?? '',
    lang: m.headers?.['content-language'] ?? '',
    code: /\b(\d{6})\b/.exec(m.text ?? '')?.[1] ?? null,
  };
}

/** Builds and signs an EIP-4361 message the way a wallet would. */
export async function siweSign(
  app: App,
  wallet: { address: string; signMessage: (message: string) => Promise<string> },
  overrides: Partial<{ domain: string; uri: string; chainId: number; nonce: string; issuedAt: string; expirationTime: string; address: string }> = {},
) {
  const nonce = overrides.nonce ?? ((await call(app, 'GET', '/api/v1/siwe/nonce')).body.nonce as string);
  const domain = overrides.domain ?? HOST;
  const lines = [
    `${domain} wants you to sign in with your Ethereum account:`,
    overrides.address ?? wallet.address,
    '',
    'Sign in to Invest Pools.',
    '',
    `URI: ${overrides.uri ?? `http://${domain}`}`,
    'Version: 1',
    `Chain ID: ${overrides.chainId ?? 1}`,
    `Nonce: ${nonce}`,
    `Issued At: ${overrides.issuedAt ?? new Date().toISOString()}`,
  ];
  if (overrides.expirationTime) lines.push(`Expiration Time: ${overrides.expirationTime}`);
  const message = lines.join('\n');
  return { message, signature: await wallet.signMessage(message), nonce };
}

export const newWallet = () => Wallet.createRandom();

/** The refresh cookie as a browser would send it back. */
export function refreshCookie(setCookie: string | string[] | undefined): string | undefined {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const c = all.find((x) => x.startsWith('refresh_token='));
  return c?.split(';')[0];
}
