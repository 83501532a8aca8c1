import * as z from 'zod/mini';
import { sessionLifetimes } from '@app/contracts';
import { devSecret, int, positive, type ConfigDoc } from './fields';

/** Minimum argon2id cost (OWASP): enforced in production whatever the environment says. */
export const ARGON2_MIN = { memoryKiB: 19456, timeCost: 2, parallelism: 1 } as const;

/** Sign-in: the keys of tokens and codes, the limits, the password hashing, the session cache. */
export const authEnv = z.object({
  /** HS256 key for access tokens, at least 32 characters. Required in production. */
  JWT_SECRET: z.optional(z.string().check(z.minLength(32, 'JWT_SECRET must be at least 32 characters'))),
  /** HMAC key of the stored e-mail codes, at least 32 characters, not the JWT secret. Required in production. */
  CODE_HMAC_KEY: z.optional(z.string().check(z.minLength(32, 'CODE_HMAC_KEY must be at least 32 characters'))),
  /** Multiplies every per-IP and per-account limit, e.g. 1000 for load tests and e2e. */
  RATE_LIMIT_MULTIPLIER: z._default(positive, 1),
  /** Failed sign-ins per account and address per window before that address gets 429. */
  LOGIN_MAX_FAILURES: z._default(int(1, 1_000_000), 10),
  /** Failed sign-ins per account per window, from all addresses together, before 429. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z._default(int(1, 1_000_000), 100),
  LOGIN_FAILURE_WINDOW_SECONDS: z._default(int(1, 86_400), 900),
  /** Floor for the answer time of mail-sending calls, so known and unknown e-mails take as long. */
  UNIFORM_RESPONSE_MS: z._default(int(0, 10_000), 300),
  /** How long a checked session is trusted without asking the database again (0: always ask). */
  AUTH_CACHE_MS: z._default(int(0, 60_000), 2000),
  /** Upper bound of that cache in bytes (entries hold no avatar and no hash; about 1 KB each). */
  AUTH_CACHE_MAX_BYTES: z._default(int(0, 1024 * 1024 * 1024), 4 * 1024 * 1024),
  /**
   * How long a signed-in user's read (the cabinet, a pool's dashboard, referrals, DAO) is answered
   * from memory (0: never). Bounds how old figures shared by everyone may be; the user's own changes
   * drop it at once on every replica.
   */
  READ_CACHE_MS: z._default(int(0, 60_000), 5000),
  /** Upper bound of that cache in bytes. */
  READ_CACHE_MAX_BYTES: z._default(int(0, 1024 * 1024 * 1024), 64 * 1024 * 1024),
  /** How old the figures every user's read shares (pools, APYs, pool totals, prices, decimals) may be when a read is computed (0: read every time). */
  SHARED_FIGURES_MS: z._default(int(0, 60_000), 5000),
  ARGON2_MEMORY_KIB: z._default(int(1024, 4 * 1024 * 1024), ARGON2_MIN.memoryKiB),
  ARGON2_TIME_COST: z._default(int(1, 20), ARGON2_MIN.timeCost),
  ARGON2_PARALLELISM: z._default(int(1, 16), ARGON2_MIN.parallelism),
  /** Hours a change of the login e-mail, password or payout wallet holds the account's payouts (issue 21). */
  WITHDRAWAL_HOLD_HOURS: z._default(int(0, 24 * 90), 48),
});
type AuthEnv = z.output<typeof authEnv>;

export const authDocs: ConfigDoc[] = [
  { vars: ['JWT_SECRET'], default: 'generated', meaning: 'HS256 key, ≥ 32 chars. Outside production it is generated once into `DATA_DIR/jwt-secret` (mode 600)' },
  {
    vars: ['CODE_HMAC_KEY'],
    default: 'generated',
    meaning: 'key of the HMACs the e-mail codes are stored as, ≥ 32 chars, not the JWT secret. Outside production generated into `DATA_DIR/code-hmac-key`',
  },
  { vars: ['RATE_LIMIT_MULTIPLIER'], meaning: 'multiplies every per-IP and per-account limit (e2e and benchmarks raise it)' },
  {
    vars: ['LOGIN_MAX_FAILURES', 'LOGIN_MAX_FAILURES_PER_ACCOUNT', 'LOGIN_FAILURE_WINDOW_SECONDS'],
    meaning: 'login lock-out (below): tries per account and address, tries per account from all addresses, window',
  },
  { vars: ['UNIFORM_RESPONSE_MS'], meaning: 'minimum answer time of `/confirm-login` and `/change-password-by-code` (no enumeration by timing)' },
  {
    vars: ['AUTH_CACHE_MS'],
    meaning:
      'how long a checked session is trusted without a query; changes in this process drop it at once, other replicas see a revocation within this time. `0` = query every time',
  },
  { vars: ['AUTH_CACHE_MAX_BYTES'], meaning: 'bound of that cache; its entries hold neither the avatar nor the password hash (about 1 KB each), the oldest go first' },
  {
    vars: ['READ_CACHE_MS'],
    meaning:
      'how long a signed-in user\'s reads (`/cabinet/summary`, `/cabinet/activity`, `/cabinet/revision`, `/dashboard/pools/:pool`, `/referrals`, `/dao/personal`) are answered from memory. The user\'s own changes (ledger, deposits, withdrawals, votes, referral figures) drop them at once on every replica (PostgreSQL `NOTIFY` from triggers, migration 0040), and nothing is kept while the listening connection is down; figures shared by everyone (a pool\'s TVL, prices, APYs) may be this old. `0` = off',
  },
  { vars: ['READ_CACHE_MAX_BYTES'], meaning: 'bound of that cache, the oldest answers go first' },
  {
    vars: ['SHARED_FIGURES_MS'],
    meaning:
      'how old the figures every user\'s read shares (the pools and their currencies, APYs, the pools\' totals, prices, decimals) may be when a read computes a user\'s answer: kept in memory per process, so a computed read runs only the user\'s own queries. `0` = read every time',
  },
  { vars: ['ARGON2_MEMORY_KIB', 'ARGON2_TIME_COST', 'ARGON2_PARALLELISM'], meaning: 'password hashing cost (tests lower it; production refuses lower)' },
  {
    vars: ['WITHDRAWAL_HOLD_HOURS'],
    meaning:
      'how long a change of the login e-mail, the password or the payout wallet holds the account\'s payouts, and keeps owner codes off an e-mail changed that recently (`0` = no hold)',
  },
];

export type AuthConfig = {
  jwtSecret: string;
  rateLimit: { multiplier: number; loginMaxFailures: number; loginMaxFailuresPerAccount: number; loginFailureWindowSeconds: number };
  argon2: { memoryKiB: number; timeCost: number; parallelism: number };
  uniformResponseMs: number;
  authCacheMs: number;
  authCacheMaxBytes: number;
  readCacheMs: number;
  readCacheMaxBytes: number;
  sharedFiguresMs: number;
  codeHmacKey: string;
  /** Lifetimes (seconds); fixed by the spec, adjustable only by tests. */
  lifetimes: { accessToken: number; refreshToken: number; siweNonce: number; emailCode: number };
  emailCodeMaxAttempts: number;
  /** How long a change of the e-mail, password or wallet holds payouts, and keeps codes off a changed address. */
  withdrawalHoldSeconds: number;
};

export function authProblems(e: AuthEnv): string[] {
  const problems: string[] = [];
  if (!e.JWT_SECRET) problems.push('JWT_SECRET is required in production');
  if (!e.CODE_HMAC_KEY) problems.push('CODE_HMAC_KEY is required in production');
  else if (e.CODE_HMAC_KEY === e.JWT_SECRET) problems.push('CODE_HMAC_KEY must differ from JWT_SECRET');
  if (e.RATE_LIMIT_MULTIPLIER > 1) problems.push('RATE_LIMIT_MULTIPLIER must not be above 1 in production');
  if (e.ARGON2_MEMORY_KIB < ARGON2_MIN.memoryKiB || e.ARGON2_TIME_COST < ARGON2_MIN.timeCost) {
    problems.push(`argon2id cost below the minimum m=${ARGON2_MIN.memoryKiB} KiB, t=${ARGON2_MIN.timeCost} in production`);
  }
  return problems;
}

export function authConfig(e: AuthEnv, dataDir: string): AuthConfig {
  return {
    jwtSecret: e.JWT_SECRET ?? devSecret(dataDir, 'jwt-secret'),
    rateLimit: {
      multiplier: e.RATE_LIMIT_MULTIPLIER,
      loginMaxFailures: e.LOGIN_MAX_FAILURES,
      loginMaxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      loginFailureWindowSeconds: e.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    argon2: { memoryKiB: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST, parallelism: e.ARGON2_PARALLELISM },
    uniformResponseMs: e.UNIFORM_RESPONSE_MS,
    authCacheMs: e.AUTH_CACHE_MS,
    authCacheMaxBytes: e.AUTH_CACHE_MAX_BYTES,
    readCacheMs: e.READ_CACHE_MS,
    readCacheMaxBytes: e.READ_CACHE_MAX_BYTES,
    sharedFiguresMs: e.SHARED_FIGURES_MS,
    codeHmacKey: e.CODE_HMAC_KEY ?? devSecret(dataDir, 'code-hmac-key'),
    lifetimes: { accessToken: sessionLifetimes.accessTokenSeconds, refreshToken: sessionLifetimes.refreshTokenSeconds, siweNonce: 300, emailCode: 900 },
    emailCodeMaxAttempts: 5,
    withdrawalHoldSeconds: e.WITHDRAWAL_HOLD_HOURS * 3600,
  };
}
