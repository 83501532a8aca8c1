import { BlockList, isIP } from 'node:net';
import * as z from 'zod/mini';
import type { BrandRegistry } from '@app/contracts';
import { openBrandRegistry, type LiveBrandRegistry } from '@app/contracts/src/brand-folder';
import { bool, int, ConfigError, type ConfigDoc } from './fields';

/** The server itself: its environment, where it listens, whom it trusts, what it logs. */
export const serverEnv = z.object({
  /** No default: the money paths start only in an environment someone named. */
  NODE_ENV: z.enum(['development', 'production', 'test'], {
    error: 'NODE_ENV must name the environment: production, development or test (nothing starts without it)',
  }),
  /** The local chain (anvil): its public test keys, its pool addresses and its fast defaults. Refused in production. */
  LOCAL_CHAIN: z._default(bool, false),
  API_PORT: z._default(int(0, 65535), 4000),
  API_HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
  /** The folder of brand folders (brands/<id>/brand.json …), watched: an edit is live on the next request. */
  BRANDS_DIR: z.optional(z.string().check(z.minLength(1))),
  /** Comma-separated origins allowed by CORS; empty (default) allows none. */
  CORS_ORIGINS: z._default(z.string(), ''),
  /** The proxy in front of the API, trusted for one hop: true (any peer), false, or comma-separated addresses, CIDRs, loopback, linklocal, uniquelocal. */
  TRUST_PROXY: z._default(z.string(), 'loopback'),
  BODY_LIMIT_BYTES: z._default(int(1024, 10 * 1024 * 1024), 1024 * 1024),
  LOG_LEVEL: z._default(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  /** Public address of the site, used in mail links and the referral link. */
  PUBLIC_URL: z._default(z.url(), 'http://localhost:8080'),
  /** Serve the OpenAPI docs (/api/docs); on by default outside production. */
  API_DOCS: z.optional(bool),
});
type ServerEnv = z.output<typeof serverEnv>;

export const serverDocs: ConfigDoc[] = [
  {
    vars: ['NODE_ENV'],
    default: '**required**',
    meaning:
      '`production`, `development` or `test`; without it nothing starts (neither the API nor its money jobs), with a message saying so. `npm start`, the e2e stack, the tests and the benchmarks set it. `production` refuses to start without `JWT_SECRET`, `CODE_HMAC_KEY` (different from it), `SMTP_URL`, `OPERATOR_PORT` (the operator API apart from the public one) and `BRANDS_DIR` (none of its hosts loopback: SIWE would accept `localhost`), and with `LOCAL_CHAIN`, `DEPOSIT_CONFIRMATIONS` or `PAYOUT_CONFIRMATIONS` below 12, `DEPOSIT_USE_FINALIZED=false`, `HOT_WALLET_KEYS` (the signer holds the keys that pay) or `LEDGER_READER_PORT`, `RATE_LIMIT_MULTIPLIER` above 1, a password written in `DATABASE_URL`, or argon2id below m = 19 MiB, t = 2. It sets `Secure` on the cookies and serves the OpenAPI docs only with `API_DOCS=true`',
  },
  {
    vars: ['LOCAL_CHAIN'],
    meaning:
      '`true`: the chain is the local anvil. Only then the API expects the local signer (which holds every key, the public test mnemonic\'s), seeds the local pool addresses and prices, credits and pays after 1 block without finality, reads the chain from block 0 and lets `accrue --until` name a future day. Production refuses it. `npm start` and the e2e stack set it (they start their own anvil)',
  },
  { vars: ['API_PORT', 'API_HOST'], meaning: 'listen address' },
  { vars: ['API_DOCS'], default: '`true` outside production', meaning: 'serve `/api/docs`' },
  {
    vars: ['BRANDS_DIR'],
    default: '`brands/` of the repository',
    meaning:
      'the folder of brands, one folder each (`brandSchema` in shared/contracts: hosts, title, theme, links, mail sender, legal texts); the brands\' hosts are the SIWE domains, and mails take the brand\'s sender, title, colours and address. Watched: a new or edited brand is used from the next request, and a brand that fails its check keeps its last good version, with a log line saying why. The shell\'s server reads the same folder',
  },
  { vars: ['CORS_ORIGINS'], default: 'empty (closed)', meaning: 'comma-separated origins allowed by CORS' },
  {
    vars: ['TRUST_PROXY'],
    meaning:
      'the proxy in front of the API, trusted for exactly one hop: `true` (any peer), `false`, or addresses, CIDRs, `loopback`, `linklocal`, `uniquelocal`. The client\'s address is the last `X-Forwarded-For` entry, which the shell\'s proxy writes afresh from the connection (it drops whatever the client sent); a hop count above 1 is refused',
  },
  { vars: ['BODY_LIMIT_BYTES'], meaning: 'request body limit (413 above)' },
  {
    vars: ['PUBLIC_URL'],
    meaning:
      'site address for the referral link; a brand without a `url` mails links to this address with its own first host in place of this one\'s. Mail links never take the request\'s `Origin` or `Host`',
  },
  { vars: ['LOG_LEVEL'], meaning: 'pino level; logs carry the request id (also sent as `x-request-id`)' },
];

export type TrustProxy = false | ((address: string, hop: number) => boolean);

export type ServerConfig = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  brands: LiveBrandRegistry;
  corsOrigins: string[];
  trustProxy: TrustProxy;
  bodyLimit: number;
  logLevel: string;
  publicUrl: string;
  apiDocs: boolean;
};

/**
 * The brands of BRANDS_DIR (else the repository's brands/), live. In production a brand edited
 * onto a loopback host later is refused like any invalid one, as the start refuses it.
 */
export function readBrands(dir: string | undefined, repoRoot: string, production: boolean, log?: (line: string) => void): LiveBrandRegistry {
  // Without its own brands, SIWE would accept the development hosts (localhost): nothing to open.
  if (production && !dir) throw new ConfigError('Invalid configuration:\n✖ BRANDS_DIR is required in production');
  const folder = dir ?? `${repoRoot}/brands`;
  try {
    return openBrandRegistry(folder, log, production ? (host) => !isLoopbackHost(host) : undefined);
  } catch (e) {
    throw new ConfigError(`BRANDS_DIR ${folder}: ${(e as Error).message}`);
  }
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
function parseTrustProxy(v: string): TrustProxy {
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

/** What production refuses of the server's settings. */
export function serverProblems(e: ServerEnv, brands: BrandRegistry): string[] {
  const problems: string[] = [];
  if (e.LOCAL_CHAIN) problems.push('LOCAL_CHAIN must not be set in production: its keys and addresses are public');
  if (e.BRANDS_DIR) {
    const loopback = [...brands.brands.flatMap((b) => b.hosts), ...((brands as Partial<LiveBrandRegistry>).refusedHosts ?? [])].filter((h) => isLoopbackHost(h));
    if (loopback.length) problems.push(`BRANDS_DIR must not list a loopback host in production: ${loopback.join(', ')}`);
  }
  return problems;
}

export function serverConfig(e: ServerEnv, brands: LiveBrandRegistry): ServerConfig {
  return {
    env: e.NODE_ENV,
    port: e.API_PORT,
    host: e.API_HOST,
    brands,
    corsOrigins: e.CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    bodyLimit: e.BODY_LIMIT_BYTES,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL.replace(/\/$/, ''),
    apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
  };
}
