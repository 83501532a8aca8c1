import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ARGON2_MIN, ConfigError, loadConfig } from '../src/config';
import { createPasswordHasher } from '../src/auth/passwords';
import Fastify from 'fastify';
import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import { buildServer } from '../src/app';
import { coinPrices, poolAddresses } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { createTestDatabase } from './helpers';

const shippedBrands = path.resolve(__dirname, '../../brands');
/** A folder of brands, each a copy of the shipped default brand on the given hosts. */
function brandsDir(brands: Record<string, string[]>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'api-brands-'));
  for (const [id, hosts] of Object.entries(brands)) {
    cpSync(path.join(shippedBrands, 'default'), path.join(dir, id), { recursive: true });
    const file = path.join(dir, id, 'brand.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), hosts, title: `Brand ${id}` }));
  }
  return dir;
}
const productionBrands = brandsDir({ default: ['invest.example'] });

const production = {
  NODE_ENV: 'production',
  JWT_SECRET: 'p'.repeat(48),
  CODE_HMAC_KEY: 'c'.repeat(48),
  SMTP_URL: 'smtp://user:pass@mail.example.com:587',
  BRANDS_DIR: productionBrands,
  OPERATOR_PORT: '4100',
};
/** The local stack as `npm start` names it. */
const development = { NODE_ENV: 'development', LOCAL_CHAIN: 'true' };

describe('configuration from the environment', () => {
  it('has working defaults for the local stack', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'api-cfg-'));
    const c = loadConfig({ ...development, DATA_DIR: dir });
    expect(c).toMatchObject({ port: 4000, host: '127.0.0.1', env: 'development', localChain: true, rpcUrl: 'http://127.0.0.1:8545', apiDocs: true });
    expect(c.database).toEqual({ kind: 'pglite', dataDir: dir });
    expect(c.argon2).toEqual(ARGON2_MIN);
    expect(c.lifetimes).toMatchObject({ accessToken: 1800, refreshToken: 2592000 });
    expect(c.corsOrigins).toEqual([]);
  });

  it('makes a JWT key once in the data folder and keeps it private', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'api-cfg-'));
    const a = loadConfig({ ...development, DATA_DIR: dir });
    const b = loadConfig({ ...development, DATA_DIR: dir });
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.jwtSecret).toBe(a.jwtSecret);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8')).toBe(a.jwtSecret);
    expect(statSync(path.join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const c = loadConfig({ ...development, DATABASE_URL: 'postgres://u:p@db:5432/app', JWT_SECRET: 'x'.repeat(32) });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/app' });
  });

  it.each([
    [{ API_PORT: 'eighty' }, 'API_PORT'],
    [{ API_PORT: '70000' }, 'API_PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ RATE_LIMIT_MULTIPLIER: '-1' }, 'RATE_LIMIT_MULTIPLIER'],
    [{ BRANDS_DIR: '/nonexistent/brands' }, 'BRANDS_DIR'],
  ])('stops with a clear message on a bad value: %j', (env, name) => {
    expect(() => loadConfig({ ...development, DATA_DIR: os.tmpdir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...development, DATA_DIR: os.tmpdir(), ...env })).toThrow(name);
  });

  it('requires a JWT key and SMTP in production', () => {
    expect(() => loadConfig({ ...production, JWT_SECRET: '' })).toThrow('JWT_SECRET is required in production');
    expect(() => loadConfig({ ...production, SMTP_URL: '' })).toThrow('SMTP_URL is required in production');
  });
});

describe('finding 9: production configuration refuses to start unsafe', () => {
  it.each([
    [{ DEPOSIT_CONFIRMATIONS: '11' }, 'DEPOSIT_CONFIRMATIONS must be at least 12'],
    [{ RATE_LIMIT_MULTIPLIER: '1000' }, 'RATE_LIMIT_MULTIPLIER must not be above 1'],
    [{ BRANDS_DIR: '' }, 'BRANDS_DIR is required'],
    [{ SMTP_URL: '' }, 'SMTP_URL is required'],
    [{ DATABASE_URL: 'postgres://app:hunter2@db:5432/app' }, 'DATABASE_URL must not hold a password'],
    [{ CODE_HMAC_KEY: '' }, 'CODE_HMAC_KEY is required'],
    [{ CODE_HMAC_KEY: 'p'.repeat(48) }, 'CODE_HMAC_KEY must differ from JWT_SECRET'],
  ])('%j stops the start', (env, message) => {
    expect(() => loadConfig({ ...production, ...env })).toThrow(message);
  });

  it('starts with a safe production configuration; the password comes from a file, the docs are off unless asked', () => {
    const secret = path.join(mkdtempSync(path.join(os.tmpdir(), 'api-pw-')), 'db-password');
    writeFileSync(secret, 's3cret/with:chars\n');
    const c = loadConfig({ ...production, DATABASE_URL: 'postgres://app@db:5432/app', DATABASE_PASSWORD_FILE: secret, DEPOSIT_CONFIRMATIONS: '12' });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://app:s3cret%2Fwith%3Achars@db:5432/app' });
    expect(c.apiDocs).toBe(false);
    expect(c.deposits.confirmations).toBe(12);
    expect(loadConfig({ ...production, API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(c.codeHmacKey).not.toBe(c.jwtSecret);
  });

  it('refuses an argon2 cost below m=19 MiB, t=2 in production', () => {
    expect(() => loadConfig({ ...production, ARGON2_MEMORY_KIB: '1024' })).toThrow(/argon2id cost below/);
    expect(() => loadConfig({ ...production, ARGON2_TIME_COST: '1' })).toThrow(/argon2id cost below/);
    expect(loadConfig(production).argon2).toEqual({ memoryKiB: 19456, timeCost: 2, parallelism: 1 });
  });

  it('reads the brands from BRANDS_DIR', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'api-cfg-'));
    expect(loadConfig({ ...development, DATA_DIR: dir, BRANDS_DIR: brandsDir({ default: ['invest.example'] }) }).brands.brands[0]).toMatchObject({ hosts: ['invest.example'], title: 'Brand default' });
  });
});

describe('finding 13: the configuration fails closed', () => {
  it('finding 13: without NODE_ENV neither the API nor its money jobs start, and the message says why', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'api-cfg-'));
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, LOCAL_CHAIN: 'true' })).toThrow(/NODE_ENV must name the environment/);
    // The real entry point, as a deployment that forgot the variable would run it.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV'));
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.resolve(__dirname, '../src/main.ts')], {
      env: { ...env, DATA_DIR: dir, API_PORT: '0', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/NODE_ENV must name the environment: production, development or test/);
  });

  it('finding 13: test keys, local pool addresses and the fast chain defaults only with LOCAL_CHAIN=true', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'api-cfg-'));
    // The public test mnemonic's keys at the local pools' indexes, derived here on their own.
    const mnemonic = Mnemonic.fromPhrase('test test test test test test test test test test test junk');
    const testKeys = [100, 101, 102].map((i) => HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`));
    expect(testKeys.map((k) => k.address.toLowerCase())).toEqual(Object.values(LOCAL_POOL_ADDRESSES));
    for (const env of ['development', 'test']) {
      const c = loadConfig({ NODE_ENV: env, DATA_DIR: dir });
      expect([env, c.localChain, c.money.signerUrl]).toEqual([env, false, null]);
      expect(c.deposits).toMatchObject({ confirmations: 12, useFinalized: true });
      expect(c.money).toMatchObject({ payoutConfirmations: 12, watcherStartBlock: null, allowFutureAccrual: false });
      const local = loadConfig({ NODE_ENV: env, DATA_DIR: dir, LOCAL_CHAIN: 'true' });
      expect(local.localChain).toBe(true);
      // The API holds no key of the pools' addresses any more: the local signer does.
      expect(local.money.signerUrl).toBe('http://127.0.0.1:4200');
      expect(JSON.stringify(local)).not.toContain(testKeys[0]!.privateKey.slice(2));
      expect(local.deposits).toMatchObject({ confirmations: 1, useFinalized: false });
      expect(local.money).toMatchObject({ payoutConfirmations: 1, watcherStartBlock: 0, allowFutureAccrual: true });
    }
  });

  it('finding 13: without LOCAL_CHAIN no local pool address or price is seeded', async () => {
    const db = await createTestDatabase();
    try {
      const app = await buildServer(loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir(), JWT_SECRET: 'j'.repeat(40), CODE_HMAC_KEY: 'k'.repeat(40), LOG_LEVEL: 'silent', MONEY_JOBS_INTERVAL_MS: '0', DEPOSIT_JOB_INTERVAL_MS: '0' }), { database: db.database, logger: false });
      await app.close();
      expect(await db.database.db.select().from(poolAddresses)).toEqual([]);
      expect(await db.database.db.select().from(coinPrices)).toEqual([]);
      const local = await buildServer(loadConfig({ NODE_ENV: 'test', LOCAL_CHAIN: 'true', DATA_DIR: os.tmpdir(), JWT_SECRET: 'j'.repeat(40), CODE_HMAC_KEY: 'k'.repeat(40), LOG_LEVEL: 'silent', MONEY_JOBS_INTERVAL_MS: '0', DEPOSIT_JOB_INTERVAL_MS: '0' }), { database: db.database, logger: false });
      await local.close();
      const seeded = new Set((await db.database.db.select().from(poolAddresses)).map((r) => r.address));
      expect([...seeded].sort()).toEqual(Object.values(LOCAL_POOL_ADDRESSES).sort());
    } finally {
      await db.drop();
    }
  });

  const loopbackBrands = brandsDir({ default: ['invest.example'], local: ['127.0.0.2'] });
  const testKey = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase('test test test test test test test test test test test junk'), "m/44'/60'/0'/0/100").privateKey;
  it.each([
    ['LOCAL_CHAIN must not be set in production', { LOCAL_CHAIN: 'true' }],
    // The development brands, as shipped in the repository.
    ['hosts: not allowed here: localhost, 127.0.0.1', { BRANDS_DIR: shippedBrands }],
    ['BRANDS_DIR must not list a loopback host in production: 127.0.0.2', { BRANDS_DIR: loopbackBrands }],
    ['DEPOSIT_USE_FINALIZED must not be off in production', { DEPOSIT_USE_FINALIZED: 'false' }],
    ['PAYOUT_CONFIRMATIONS must be at least 12', { PAYOUT_CONFIRMATIONS: '11' }],
    ['HOT_WALLET_KEYS must not be set: the API holds no payout key, the signer does', { HOT_WALLET_KEYS: testKey }],
    // Issue 26: the treasury's and the solvency keys are the signer's too; one left beside the API stops it.
    ['TREASURY_KEY must not be set: the API holds no key, the signer holds the treasury\'s', { TREASURY_KEY: Wallet.createRandom().privateKey }],
    ['SOLVENCY_KEY must not be set: the API holds no key, the signer holds the solvency key', { SOLVENCY_KEY: Wallet.createRandom().privateKey }],
    ['LEDGER_READER_PORT is for the local stack only', { LEDGER_READER_PORT: '4300' }],
    ['OPERATOR_PORT is required in production: the operator API listens apart from the public one', { OPERATOR_PORT: '' }],
    ['OPERATOR_PORT must differ from API_PORT', { OPERATOR_PORT: '4000' }],
  ])('finding 13: production stops: %s', (message, env) => {
    expect(() => loadConfig({ ...production, ...env })).toThrow(message);
  });

  it('finding 13: a safe production configuration starts, with finalized crediting and a payout floor of 12', () => {
    const c = loadConfig(production);
    expect(c).toMatchObject({ localChain: false, operatorPort: 4100, operatorHost: '127.0.0.1' });
    expect(c.deposits).toMatchObject({ confirmations: 12, useFinalized: true });
    expect(c.money).toMatchObject({ payoutConfirmations: 12, signerUrl: null, ledgerReaderPort: null, allowFutureAccrual: false, watcherStartBlock: null });
  });
});

describe('the API behind its proxy', () => {
  /** The address the API sees for a request from `peer` carrying `forwarded`. */
  async function seenAddress(trustProxy: string, peer: string, forwarded?: string) {
    const c = loadConfig({ ...development, DATA_DIR: os.tmpdir(), TRUST_PROXY: trustProxy });
    const app = Fastify({ trustProxy: c.trustProxy });
    app.get('/ip', async (req) => ({ ip: req.ip }));
    try {
      const r = await app.inject({ url: '/ip', remoteAddress: peer, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} });
      return (r.json() as { ip: string }).ip;
    } finally {
      await app.close();
    }
  }

  it('trusts exactly one hop: the last X-Forwarded-For entry, written by the edge, and only from the trusted proxy', async () => {
    // A browser on the proxy's own network (or loopback) cannot pass for another address by
    // sending X-Forwarded-For itself: what it sent sits before the entry the edge wrote.
    expect(await seenAddress('loopback', '127.0.0.1', '203.0.113.9, 127.0.0.1')).toBe('127.0.0.1');
    expect(await seenAddress('172.30.80.0/29', '172.30.80.2', '203.0.113.9, 172.30.80.3')).toBe('172.30.80.3');
    expect(await seenAddress('172.30.80.0/29', '::ffff:172.30.80.2', '198.51.100.7')).toBe('198.51.100.7');
    expect(await seenAddress('true', '10.9.9.9', '203.0.113.9, 198.51.100.7')).toBe('198.51.100.7');
    // Not from the proxy: the header is ignored.
    expect(await seenAddress('172.30.80.0/29', '198.51.100.20', '203.0.113.9')).toBe('198.51.100.20');
    expect(await seenAddress('false', '127.0.0.1', '203.0.113.9')).toBe('127.0.0.1');
    expect(() => loadConfig({ ...development, DATA_DIR: os.tmpdir(), TRUST_PROXY: '2' })).toThrow('exactly one proxy hop');
    expect(() => loadConfig({ ...development, DATA_DIR: os.tmpdir(), TRUST_PROXY: '10.0.0.0/33' })).toThrow("TRUST_PROXY: '10.0.0.0/33'");
  });
});

describe('password hashing', () => {
  it('uses argon2id with the production cost by default', async () => {
    const hasher = createPasswordHasher(loadConfig(production).argon2);
    const hash = await hasher.hash('Str0ng!pass');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await hasher.verify(hash, 'Str0ng!pass')).toBe(true);
    expect(await hasher.verify(hash, 'wrong')).toBe(false);
    expect(await hasher.verify(null, 'anything')).toBe(false);
  });
});
