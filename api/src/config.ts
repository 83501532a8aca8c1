import { randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { brandRegistrySchema, defaultBrandRegistry, sessionLifetimes, SUPPORTED_CHAIN_ID, type BrandRegistry } from '@app/contracts';
import { localHotWalletKeys, localTreasuryKey } from './payouts';
import './zod-english';

/** The repository root: the default data folder lives there whatever the working directory is. */
export const repoRoot = path.resolve(__dirname, '../..');

/** Minimum argon2id cost (OWASP): enforced in production whatever the environment says. */
export const ARGON2_MIN = { memoryKiB: 19456, timeCost: 2, parallelism: 1 } as const;

const bool = z.pipe(
  z.enum(['true', 'false', '1', '0', 'yes', 'no']),
  z.transform((v) => v === 'true' || v === '1' || v === 'yes'),
);
const int = (min: number, max: number) => z.coerce.number().check(z.int(), z.gte(min), z.lte(max));
const positive = z.coerce.number().check(z.positive(), z.lte(1e9));

/** The environment, as read at start. Unknown variables are ignored; a bad value stops the start. */
export const envSchema = z.object({
  /** No default: the money paths start only in an environment someone named. */
  NODE_ENV: z.enum(['development', 'production', 'test'], {
    error: 'NODE_ENV must name the environment: production, development or test (nothing starts without it)',
  }),
  /** The local chain (anvil): its public test keys, its pool addresses and its fast defaults. Refused in production. */
  LOCAL_CHAIN: z._default(bool, false),
  API_PORT: z._default(int(0, 65535), 4000),
  API_HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
  /** PGlite data folder; relative paths resolve against the working directory. */
  DATA_DIR: z.optional(z.string().check(z.minLength(1))),
  /** postgres://… : use PostgreSQL through node-postgres instead of PGlite. */
  DATABASE_URL: z.optional(z.url({ protocol: /^postgres(ql)?$/ })),
  RPC_URL: z._default(z.url(), 'http://127.0.0.1:8545'),
  /** HS256 key for access tokens, at least 32 characters. Required in production. */
  JWT_SECRET: z.optional(z.string().check(z.minLength(32, 'JWT_SECRET must be at least 32 characters'))),
  /** HMAC key of the stored e-mail codes, at least 32 characters, not the JWT secret. Required in production. */
  CODE_HMAC_KEY: z.optional(z.string().check(z.minLength(32, 'CODE_HMAC_KEY must be at least 32 characters'))),
  /** A file holding the database password (a container secret), used when DATABASE_URL has none. */
  DATABASE_PASSWORD_FILE: z.optional(z.string().check(z.minLength(1))),
  /** Multiplies every per-IP and per-account limit, e.g. 1000 for load tests and e2e. */
  RATE_LIMIT_MULTIPLIER: z._default(positive, 1),
  /** Failed sign-ins per account and address per window before that address gets 429. */
  LOGIN_MAX_FAILURES: z._default(int(1, 1_000_000), 10),
  /** Failed sign-ins per account per window, from all addresses together, before 429. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z._default(int(1, 1_000_000), 100),
  LOGIN_FAILURE_WINDOW_SECONDS: z._default(int(1, 86_400), 900),
  BRANDS_FILE: z.optional(z.string().check(z.minLength(1))),
  /** smtp://user:pass@host:587 or smtps://…; without it mail stays in the outbox table. Required in production. */
  SMTP_URL: z.optional(z.url({ protocol: /^smtps?$/ })),
  MAIL_FROM: z._default(z.string().check(z.minLength(3)), 'Invest Pools <no-reply@localhost>'),
  /** Comma-separated origins allowed by CORS; empty (default) allows none. */
  CORS_ORIGINS: z._default(z.string(), ''),
  /** The proxy in front of the API, trusted for one hop: true (any peer), false, or comma-separated addresses, CIDRs, loopback, linklocal, uniquelocal. */
  TRUST_PROXY: z._default(z.string(), 'loopback'),
  BODY_LIMIT_BYTES: z._default(int(1024, 10 * 1024 * 1024), 1024 * 1024),
  ARGON2_MEMORY_KIB: z._default(int(1024, 4 * 1024 * 1024), ARGON2_MIN.memoryKiB),
  ARGON2_TIME_COST: z._default(int(1, 20), ARGON2_MIN.timeCost),
  ARGON2_PARALLELISM: z._default(int(1, 16), ARGON2_MIN.parallelism),
  /** Floor for the answer time of mail-sending calls, so known and unknown e-mails take as long. */
  UNIFORM_RESPONSE_MS: z._default(int(0, 10_000), 300),
  /** How long a checked session is trusted without asking the database again (0: always ask). */
  AUTH_CACHE_MS: z._default(int(0, 60_000), 2000),
  /** Upper bound of that cache in bytes (entries hold no avatar and no hash; about 1 KB each). */
  AUTH_CACHE_MAX_BYTES: z._default(int(0, 1024 * 1024 * 1024), 4 * 1024 * 1024),
  LOG_LEVEL: z._default(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  /** Public address of the site, used in mail links and the referral link. */
  PUBLIC_URL: z._default(z.url(), 'http://localhost:8080'),
  /** Sent and failed mails are deleted after this many days. */
  MAIL_RETENTION_DAYS: z._default(int(1, 3650), 14),
  /** Serve the OpenAPI docs (/api/docs); on by default outside production. */
  API_DOCS: z.optional(bool),
  /** Blocks a deposit needs (its own included) before it is credited; default 12, or 1 on the local chain. */
  DEPOSIT_CONFIRMATIONS: z.optional(int(1, 1000)),
  /** How often the deposit job looks at pending deposits; 0 turns it off (e.g. a replica that only answers). */
  DEPOSIT_JOB_INTERVAL_MS: z._default(int(0, 3_600_000), 1000),
  /** A deposit whose transaction has vanished (reorg) this long is refused. */
  DEPOSIT_DROP_AFTER_SECONDS: z._default(int(0, 30 * 86_400), 3600),
  /** Credit deposits only in blocks the node calls finalized; default on except on the local chain, required in production. */
  DEPOSIT_USE_FINALIZED: z.optional(bool),
  /** How often the money jobs (watcher, interest, payouts) run; 0 turns them off in this process. */
  MONEY_JOBS_INTERVAL_MS: z._default(int(0, 3_600_000), 1000),
  /** Blocks a payout needs (its own included) before the withdrawal is paid; default as deposits, at least 12 in production. */
  PAYOUT_CONFIRMATIONS: z.optional(int(1, 1000)),
  /** A payout not mined after this long is sent again with the same nonce and raw transaction. */
  PAYOUT_REBROADCAST_SECONDS: z._default(int(1, 86_400), 30),
  /** A signed payout not mined this long is cancelled by a zero-value self-transfer at its nonce, then returned. */
  PAYOUT_CANCEL_AFTER_SECONDS: z._default(int(1, 30 * 86_400), 1800),
  /** A returned payout's hash is looked up this long after the return; if it mines, the operator is alerted. */
  PAYOUT_RECHECK_SECONDS: z._default(int(0, 90 * 86_400), 86_400),
  /** Private key of the treasury (yield) address, which funds the interest owed at the paying addresses. With LOCAL_CHAIN: the test mnemonic's. */
  TREASURY_KEY: z.optional(z.string().check(z.length(66))),
  /** Comma-separated private keys of the pools' hot wallets (the receiving addresses). With LOCAL_CHAIN: the test mnemonic's. */
  HOT_WALLET_KEYS: z.optional(z.string().check(z.minLength(66))),
  /** Credential of the operator CLI (X-Operator-Key), ≥ 32 characters, required in production. Elsewhere one is generated into DATA_DIR/operator-key. */
  OPERATOR_KEY: z.optional(z.string().check(z.minLength(32, 'OPERATOR_KEY must be at least 32 characters'))),
  /** First block the chain watcher reads when it has no cursor yet; default: the head at that moment (0 on the local chain). */
  WATCHER_START_BLOCK: z.optional(int(0, 2_000_000_000)),
  /** Blocks the watcher reads per step. */
  WATCHER_BATCH_BLOCKS: z._default(int(1, 10_000), 200),
  /** Hours a change of the login e-mail, password or payout wallet holds the account's payouts (issue 21). */
  WITHDRAWAL_HOLD_HOURS: z._default(int(0, 24 * 90), 48),
  /** Which source's rows in coin_prices give the pools' USD estimates. */
  PRICE_SOURCE: z._default(z.string().check(z.minLength(1), z.maxLength(64)), 'local'),
});
export type Env = z.input<typeof envSchema>;

export type AppConfig = {
  env: 'development' | 'production' | 'test';
  /** LOCAL_CHAIN=true: the test keys, the local pool addresses and prices, the fast defaults. */
  localChain: boolean;
  port: number;
  host: string;
  database: { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };
  rpcUrl: string;
  jwtSecret: string;
  rateLimit: { multiplier: number; loginMaxFailures: number; loginMaxFailuresPerAccount: number; loginFailureWindowSeconds: number };
  brands: BrandRegistry;
  smtpUrl: string | null;
  mailFrom: string;
  corsOrigins: string[];
  trustProxy: false | ((address: string, hop: number) => boolean);
  bodyLimit: number;
  argon2: { memoryKiB: number; timeCost: number; parallelism: number };
  uniformResponseMs: number;
  authCacheMs: number;
  authCacheMaxBytes: number;
  logLevel: string;
  publicUrl: string;
  apiDocs: boolean;
  codeHmacKey: string;
  mail: { retentionSeconds: number; sendingLeaseSeconds: number };
  /** Lifetimes (seconds); fixed by the spec, adjustable only by tests. */
  lifetimes: { accessToken: number; refreshToken: number; siweNonce: number; emailCode: number };
  emailCodeMaxAttempts: number;
  /** How long a change of the e-mail, password or wallet holds payouts, and keeps codes off a changed address. */
  withdrawalHoldSeconds: number;
  /** On-chain deposits (the supported chain only: spec §9). */
  deposits: {
    chainId: typeof SUPPORTED_CHAIN_ID;
    confirmations: number;
    jobIntervalMs: number;
    dropAfterSeconds: number;
    batchSize: number;
    leaseSeconds: number;
    useFinalized: boolean;
  };
  /** Watcher, interest and payouts. */
  money: {
    jobsIntervalMs: number;
    payoutConfirmations: number;
    rebroadcastSeconds: number;
    /** Hot wallet keys; empty until configured (payouts then wait), the test keys only on the local chain. */
    hotWalletKeys: string[];
    cancelAfterSeconds: number;
    recheckSeconds: number;
    /** The treasury's key; null in production until configured (the operator is alerted of what it would fund). */
    treasuryKey: string | null;
    watcherStartBlock: number | null;
    watcherBatchBlocks: number;
    /** On the local chain outside production `accrue --until` may name a future day. */
    allowFutureAccrual: boolean;
  };
  /** Generated outside production when not given; production requires one. */
  operatorKey: string | null;
  priceSource: string;
};

export class ConfigError extends Error {}

function readBrands(file: string | undefined): BrandRegistry {
  if (!file) return defaultBrandRegistry;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`BRANDS_FILE ${file}: ${(e as Error).message}`);
  }
  const parsed = brandRegistrySchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`BRANDS_FILE ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** In development a key is made once and kept beside the data, so sessions and codes survive restarts. */
function devSecret(dir: string, name: string): string {
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

const PROXY_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Fastify trustProxy as a function that trusts one hop only: the proxy the socket comes from (when
 * it is one of the given addresses) and no address it was told about. The edge overwrites
 * X-Forwarded-For, so its last entry is the browser; anything before it is the browser's own claim.
 */
function parseTrustProxy(v: string): AppConfig['trustProxy'] {
  const value = v.trim();
  if (value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return (_address, hop) => hop === 0;
  if (/^\d+$/.test(value)) throw new ConfigError('TRUST_PROXY: the API trusts exactly one proxy hop; give true, false, or the proxy\'s addresses');
  const list = new BlockList();
  for (const entry of value.split(',').map((x) => x.trim()).filter(Boolean)) {
    for (const range of PROXY_RANGES[entry] ?? [entry]) {
      const [address = '', prefix] = range.split('/');
      const type = isIP(address);
      const bits = prefix === undefined ? undefined : Number(prefix);
      if (!type || (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= (type === 4 ? 32 : 128)))) {
        throw new ConfigError(`TRUST_PROXY: '${entry}' is not an address, a CIDR range, loopback, linklocal or uniquelocal`);
      }
      const family = type === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) list.addAddress(address, family);
      else list.addSubnet(address, bits, family);
    }
  }
  return (address, hop) => {
    if (hop !== 0 || !address) return false;
    // A dual-stack socket reports an IPv4 peer as ::ffff:a.b.c.d.
    const plain = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
    const type = isIP(plain);
    return type !== 0 && list.check(plain, type === 4 ? 'ipv4' : 'ipv6');
  };
}

/** Loopback names and addresses: a brand on one would let a page served on the operator's own machine sign in. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) ||
    h === '0.0.0.0' ||
    h === '::1' ||
    h === '::' ||
    /^::ffff:127\./.test(h) ||
    /^(0:){7}1$/.test(h)
  );
}

/** The password written in a URL, decoded (as the client will use it). */
function passwordOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const password = new URL(url).password;
  try {
    return decodeURIComponent(password);
  } catch {
    return password;
  }
}

/** The secrets an operator key must differ from: a leak of one must not open the operator's calls. */
function otherSecrets(e: z.output<typeof envSchema>, source: Record<string, string | undefined>): [string, string][] {
  const list: [string, string | undefined][] = [
    ['JWT_SECRET', e.JWT_SECRET],
    ['CODE_HMAC_KEY', e.CODE_HMAC_KEY],
    ['PGPASSWORD', source.PGPASSWORD],
    ['the database password', passwordOf(e.DATABASE_URL)],
    ['the SMTP password', passwordOf(e.SMTP_URL)],
    ...hotWalletKeysOf(e).map((k): [string, string] => ['a hot wallet key', k]),
    ['TREASURY_KEY', e.TREASURY_KEY],
  ];
  if (e.DATABASE_PASSWORD_FILE) {
    try {
      list.push(['DATABASE_PASSWORD_FILE', readFileSync(e.DATABASE_PASSWORD_FILE, 'utf8').trim()]);
    } catch {
      // An unreadable file is reported where the address is made.
    }
  }
  return list.filter((x): x is [string, string] => Boolean(x[1]));
}

const hotWalletKeysOf = (e: z.output<typeof envSchema>) => (e.HOT_WALLET_KEYS ? e.HOT_WALLET_KEYS.split(',').map((k) => k.trim()).filter(Boolean) : []);

/** What production refuses to start with: each is a hole a security review found. */
function productionProblems(e: z.output<typeof envSchema>, source: Record<string, string | undefined>, brands: BrandRegistry): string[] {
  const problems: string[] = [];
  if (e.LOCAL_CHAIN) problems.push('LOCAL_CHAIN must not be set in production: its keys and addresses are public');
  if (!e.JWT_SECRET) problems.push('JWT_SECRET is required in production');
  if (!e.CODE_HMAC_KEY) problems.push('CODE_HMAC_KEY is required in production');
  else if (e.CODE_HMAC_KEY === e.JWT_SECRET) problems.push('CODE_HMAC_KEY must differ from JWT_SECRET');
  if (!e.SMTP_URL) problems.push('SMTP_URL is required in production');
  // Without a registry, SIWE would accept the built-in development hosts (localhost).
  if (!e.BRANDS_FILE) problems.push('BRANDS_FILE is required in production');
  else {
    const loopback = brands.brands.filter((b) => isLoopbackHost(b.host)).map((b) => b.host);
    if (loopback.length) problems.push(`BRANDS_FILE must not list a loopback host in production: ${loopback.join(', ')}`);
  }
  if (e.DEPOSIT_CONFIRMATIONS !== undefined && e.DEPOSIT_CONFIRMATIONS < 12) problems.push('DEPOSIT_CONFIRMATIONS must be at least 12 in production');
  if (e.DEPOSIT_USE_FINALIZED === false) problems.push('DEPOSIT_USE_FINALIZED must not be off in production: deposits are credited only in finalized blocks');
  const payoutFloor = e.PAYOUT_CONFIRMATIONS ?? e.DEPOSIT_CONFIRMATIONS;
  if (payoutFloor !== undefined && payoutFloor < 12) problems.push('PAYOUT_CONFIRMATIONS must be at least 12 in production');
  if (e.RATE_LIMIT_MULTIPLIER > 1) problems.push('RATE_LIMIT_MULTIPLIER must not be above 1 in production');
  if (e.DATABASE_URL && new URL(e.DATABASE_URL).password) {
    problems.push('DATABASE_URL must not hold a password in production: use DATABASE_PASSWORD_FILE or PGPASSWORD');
  }
  const local = new Set(localHotWalletKeys().map((k) => k.toLowerCase()));
  if (hotWalletKeysOf(e).some((k) => local.has(k.toLowerCase()))) problems.push('HOT_WALLET_KEYS must not hold a key of the public test mnemonic in production');
  if (e.TREASURY_KEY && e.TREASURY_KEY.toLowerCase() === localTreasuryKey().toLowerCase()) problems.push('TREASURY_KEY must not be a key of the public test mnemonic in production');
  if (!e.OPERATOR_KEY) problems.push('OPERATOR_KEY is required in production');
  else {
    const same = otherSecrets(e, source).filter(([, v]) => v === e.OPERATOR_KEY).map(([name]) => name);
    if (same.length) problems.push(`OPERATOR_KEY must differ from every other secret (it equals ${[...new Set(same)].join(', ')})`);
  }
  return problems;
}

/** The database address with the password read from its file, when one is given. */
function withPasswordFile(url: string, file: string | undefined): string {
  if (!file) return url;
  const u = new URL(url);
  try {
    u.password = encodeURIComponent(readFileSync(file, 'utf8').trim());
  } catch (err) {
    throw new ConfigError(`DATABASE_PASSWORD_FILE ${file}: ${(err as Error).message}`);
  }
  return u.toString();
}

/** Reads the configuration from an environment; throws ConfigError with every problem listed. */
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // Empty variables count as unset (a compose file often passes VAR= ).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  // The fast defaults (one confirmation, no finality, the test keys, a future day accrued) only
  // where someone said the chain is the local one; every other environment gets the safe ones.
  const local = e.LOCAL_CHAIN && !production;
  const dataDir = path.resolve(e.DATA_DIR ?? path.join(repoRoot, '.data/api'));
  const brands = readBrands(e.BRANDS_FILE);
  const problems: string[] = [];
  if (production) problems.push(...productionProblems(e, cleaned, brands));
  const argon2 = { memoryKiB: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST, parallelism: e.ARGON2_PARALLELISM };
  if (production && (argon2.memoryKiB < ARGON2_MIN.memoryKiB || argon2.timeCost < ARGON2_MIN.timeCost)) {
    problems.push(`argon2id cost below the minimum m=${ARGON2_MIN.memoryKiB} KiB, t=${ARGON2_MIN.timeCost} in production`);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `✖ ${p}`).join('\n')}`);

  return {
    env: e.NODE_ENV,
    localChain: local,
    port: e.API_PORT,
    host: e.API_HOST,
    database: e.DATABASE_URL ? { kind: 'postgres', url: withPasswordFile(e.DATABASE_URL, e.DATABASE_PASSWORD_FILE) } : { kind: 'pglite', dataDir },
    rpcUrl: e.RPC_URL,
    jwtSecret: e.JWT_SECRET ?? devSecret(dataDir, 'jwt-secret'),
    rateLimit: {
      multiplier: e.RATE_LIMIT_MULTIPLIER,
      loginMaxFailures: e.LOGIN_MAX_FAILURES,
      loginMaxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      loginFailureWindowSeconds: e.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    brands,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    corsOrigins: e.CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    bodyLimit: e.BODY_LIMIT_BYTES,
    argon2,
    uniformResponseMs: e.UNIFORM_RESPONSE_MS,
    authCacheMs: e.AUTH_CACHE_MS,
    authCacheMaxBytes: e.AUTH_CACHE_MAX_BYTES,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL.replace(/\/$/, ''),
    apiDocs: e.API_DOCS ?? !production,
    codeHmacKey: e.CODE_HMAC_KEY ?? devSecret(dataDir, 'code-hmac-key'),
    mail: { retentionSeconds: e.MAIL_RETENTION_DAYS * 86_400, sendingLeaseSeconds: 120 },
    lifetimes: { accessToken: sessionLifetimes.accessTokenSeconds, refreshToken: sessionLifetimes.refreshTokenSeconds, siweNonce: 300, emailCode: 900 },
    emailCodeMaxAttempts: 5,
    withdrawalHoldSeconds: e.WITHDRAWAL_HOLD_HOURS * 3600,
    deposits: {
      chainId: SUPPORTED_CHAIN_ID,
      confirmations: e.DEPOSIT_CONFIRMATIONS ?? (local ? 1 : 12),
      jobIntervalMs: e.DEPOSIT_JOB_INTERVAL_MS,
      dropAfterSeconds: e.DEPOSIT_DROP_AFTER_SECONDS,
      batchSize: 100,
      leaseSeconds: 30,
      useFinalized: e.DEPOSIT_USE_FINALIZED ?? !local,
    },
    money: {
      jobsIntervalMs: e.MONEY_JOBS_INTERVAL_MS,
      payoutConfirmations: e.PAYOUT_CONFIRMATIONS ?? e.DEPOSIT_CONFIRMATIONS ?? (local ? 1 : 12),
      rebroadcastSeconds: e.PAYOUT_REBROADCAST_SECONDS,
      hotWalletKeys: e.HOT_WALLET_KEYS ? hotWalletKeysOf(e) : local ? localHotWalletKeys() : [],
      cancelAfterSeconds: e.PAYOUT_CANCEL_AFTER_SECONDS,
      recheckSeconds: e.PAYOUT_RECHECK_SECONDS,
      treasuryKey: e.TREASURY_KEY ?? (local ? localTreasuryKey() : null),
      watcherStartBlock: e.WATCHER_START_BLOCK ?? (local ? 0 : null),
      watcherBatchBlocks: e.WATCHER_BATCH_BLOCKS,
      allowFutureAccrual: local,
    },
    operatorKey: e.OPERATOR_KEY ?? (production ? null : devSecret(dataDir, 'operator-key')),
    priceSource: e.PRICE_SOURCE,
  };
}
