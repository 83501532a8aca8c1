import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ARGON2_MIN, ConfigError, loadConfig } from '../src/config';
import { createPasswordHasher } from '../src/auth/passwords';

const brandsFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'api-brands-')), 'brands.json');
writeFileSync(brandsFile, JSON.stringify({ defaultTitle: 'X', brands: [{ host: 'invest.example', title: 'Ex' }] }));

const production = {
  NODE_ENV: 'production',
  JWT_SECRET: 'p'.repeat(48),
  CODE_HMAC_KEY: 'c'.repeat(48),
  SMTP_URL: 'smtp://user:pass@mail.example.com:587',
  BRANDS_FILE: brandsFile,
};

describe('configuration from the environment', () => {
  it('has working defaults for the local stack', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'api-cfg-'));
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({ port: 4000, host: '127.0.0.1', env: 'development', rpcUrl: 'http://127.0.0.1:8545', apiDocs: true });
    expect(c.database).toEqual({ kind: 'pglite', dataDir: dir });
    expect(c.argon2).toEqual(ARGON2_MIN);
    expect(c.lifetimes).toMatchObject({ accessToken: 1800, refreshToken: 2592000 });
    expect(c.corsOrigins).toEqual([]);
  });

  it('makes a JWT key once in the data folder and keeps it private', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'api-cfg-'));
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.jwtSecret).toBe(a.jwtSecret);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8')).toBe(a.jwtSecret);
    expect(statSync(path.join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/app', JWT_SECRET: 'x'.repeat(32) });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/app' });
  });

  it.each([
    [{ API_PORT: 'eighty' }, 'API_PORT'],
    [{ API_PORT: '70000' }, 'API_PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ RATE_LIMIT_MULTIPLIER: '-1' }, 'RATE_LIMIT_MULTIPLIER'],
    [{ BRANDS_FILE: '/nonexistent/brands.json' }, 'BRANDS_FILE'],
  ])('stops with a clear message on a bad value: %j', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: os.tmpdir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: os.tmpdir(), ...env })).toThrow(name);
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
    [{ BRANDS_FILE: '' }, 'BRANDS_FILE is required'],
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

  it('reads the brand registry from BRANDS_FILE', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'api-cfg-'));
    const file = path.join(dir, 'brands.json');
    writeFileSync(file, JSON.stringify({ defaultTitle: 'X', brands: [{ host: 'invest.example', title: 'Ex' }] }));
    expect(loadConfig({ DATA_DIR: dir, BRANDS_FILE: file }).brands.brands[0]).toMatchObject({ host: 'invest.example' });
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
