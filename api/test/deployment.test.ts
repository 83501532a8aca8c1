import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

type Service = { ports?: string[]; environment?: Record<string, string>; profiles?: string[]; networks?: string[]; volumes?: string[] };
const compose = parse(readFileSync(path.resolve(__dirname, '../../docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  networks: Record<string, { ipam?: { config?: { subnet: string }[] } }>;
};

describe('finding 10: docker-compose.yml', () => {
  const api = compose.services.api as Service;
  const env = api.environment ?? {};

  it("publishes no API port, and the API trusts X-Forwarded-For only from the shell's network", () => {
    expect(api.ports).toBeUndefined();
    const proxy = compose.networks.proxy?.ipam?.config?.[0]?.subnet;
    expect(proxy).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    expect(env.TRUST_PROXY).toBe(proxy);
    expect(api.networks).toContain('proxy');
    expect(compose.services.shell?.networks).toContain('proxy');
    // Nothing else joins the proxy network, so no other container can forge the browser's address.
    const members = Object.entries(compose.services).filter(([, s]) => s.networks?.includes('proxy')).map(([n]) => n);
    expect(members.sort()).toEqual(['api', 'shell']);
  });

  it('runs anvil only under the development profile', () => {
    expect(compose.services.chain?.profiles).toEqual(['dev']);
    expect(compose.services.chain?.ports).toBeUndefined();
  });

  it('takes every secret from the environment, none written in the file', () => {
    for (const name of ['JWT_SECRET', 'CODE_HMAC_KEY', 'SMTP_URL', 'PGPASSWORD', 'RPC_URL']) {
      expect([name, env[name]]).toEqual([name, expect.stringMatching(new RegExp(`^\\$\\{[A-Z_]+:\\?`))]);
    }
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(new URL(env.DATABASE_URL as string).password).toBe('');
    expect(env.NODE_ENV).toBe('production');
    expect(env.BRANDS_DIR).toEqual(expect.any(String));
    // No shared operator key: operators are named accounts (issue 26).
    expect(env.OPERATOR_KEY).toBeUndefined();
  });

  it('finding 2 (issue 26): the operator API has its own port, published nowhere; the shell forwards to it', () => {
    const api = compose.services.api as Service;
    expect(api.environment?.OPERATOR_PORT).toBe('4100');
    expect((api as { ports?: unknown }).ports).toBeUndefined();
    expect(compose.services.shell?.environment?.OPERATOR_API_URL).toBe('http://api:4100');
  });

  it('issue 26: the keys are in the signer alone, which only the API and the database can reach', () => {
    const signer = compose.services.signer as Service & { secrets?: string[]; command?: string[] };
    const { secrets } = compose as unknown as { secrets: Record<string, { file: string }> };
    expect(compose.services.api?.environment?.SIGNER_URL).toBe(`http://signer:${signer.environment?.SIGNER_PORT}`);
    expect(signer.command?.at(-1)).toBe('signer/src/main.ts');
    expect(signer.ports).toBeUndefined();
    expect(signer.networks).toEqual(['custody']);
    expect(compose.networks.custody).toEqual({ internal: true });
    const members = Object.entries(compose.services).filter(([, s]) => s.networks?.includes('custody')).map(([n]) => n);
    expect(members.sort()).toEqual(['api', 'postgres', 'signer']);
    // The keys file comes from the host as a secret the start cannot do without, never from the environment.
    expect(signer.secrets).toEqual(['signer_keys']);
    expect(signer.environment?.SIGNER_KEYS_FILE).toBe('/run/secrets/signer_keys');
    expect(secrets.signer_keys?.file).toMatch(/^\$\{SIGNER_KEYS_FILE:\?/);
    expect(signer.environment?.SIGNER_LOCAL_CHAIN).toBeUndefined();
    expect(signer.environment?.NODE_ENV).toBe('production');
    expect(new URL(signer.environment?.SIGNER_DATABASE_URL?.replace(/\$\{[^}]+\}/, 'signer') ?? '').password).toBe('');
  });
});

describe('finding 13: docker-compose.yml', () => {
  it('issue 25: the shell and the API read the same mounted folder of brands', () => {
    const mount = (name: string) => {
      const service = compose.services[name] as Service;
      return (service.volumes ?? []).find((v) => v.endsWith(`:${service.environment?.BRANDS_DIR}:ro`))?.split(':')[0];
    };
    expect(mount('shell')).toBeTruthy();
    expect(mount('shell')).toBe(mount('api'));
  });

  it('finding 13: mounts the operator\'s brands, never the development ones, and names no local chain', () => {
    for (const name of ['api', 'shell']) {
      const service = compose.services[name] as Service;
      const registry = (service.volumes ?? []).find((v) => v.endsWith(`:${service.environment?.BRANDS_DIR}:ro`));
      // The host side is a variable the operator must set: the start stops without it.
      expect([name, registry]).toEqual([name, expect.stringMatching(/^\$\{BRANDS_DIR:\?[^}]+\}:/)]);
      expect((service.volumes ?? []).some((v) => /(^|\/)brands:/.test(v) && v.startsWith('.'))).toBe(false);
    }
    const env = compose.services.api?.environment ?? {};
    expect(env.NODE_ENV).toBe('production');
    expect(env.LOCAL_CHAIN).toBeUndefined();
    for (const name of ['DEPOSIT_USE_FINALIZED', 'DEPOSIT_CONFIRMATIONS', 'PAYOUT_CONFIRMATIONS', 'HOT_WALLET_KEYS', 'TREASURY_KEY', 'SOLVENCY_KEY']) expect([name, env[name]]).toEqual([name, undefined]);
  });
});
