import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { baseURL, testBrands, canaryCabinetPort, controlledDaoPort, redeployCabinetPort, mismatchedContract, ports } from './stack.config';
import { manifestModule, serveModule, stackModule, type RuntimeManifest } from './support/build-modules';
import { CSP_PROBE, brandsDir, stackLog, dataDir, remotesDir, canaryDir, repoRoot } from './support/paths';

function writeManifest(file: string, manifest: RuntimeManifest) {
  writeFileSync(join(remotesDir, file), JSON.stringify(manifest, null, 2));
}

function edited(manifest: RuntimeManifest, edit: Record<string, (r: RuntimeManifest['remotes'][number]) => void>): RuntimeManifest {
  const copy = structuredClone(manifest);
  for (const remote of copy.remotes) edit[remote.name]?.(remote);
  return copy;
}

/** The shipped brands, and each test brand as a copy of the default one with its host, title and manifest. */
function writeBrands() {
  cpSync(join(repoRoot, 'brands'), brandsDir, { recursive: true });
  for (const b of testBrands) {
    const dir = join(brandsDir, b.id);
    cpSync(join(repoRoot, 'brands/default'), dir, { recursive: true });
    const config = JSON.parse(readFileSync(join(dir, 'brand.json'), 'utf8'));
    writeFileSync(join(dir, 'brand.json'), JSON.stringify({ ...config, hosts: [b.host], title: b.title, manifest: b.manifest }, null, 2));
  }
}

/** Starts the whole site once for every test: chain, API, remotes and shell, on test ports. */
export default async function globalSetup(_config: FullConfig) {
  const { startStack } = await stackModule();
  const { runtimeManifest } = await manifestModule();
  const { serveRemote } = await serveModule();

  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(remotesDir, { recursive: true });
  writeBrands();
  const origin = (name: string) => `http://localhost:${ports[name as keyof typeof ports]}`;
  const manifest = runtimeManifest(origin);
  writeManifest('remotes.json', manifest);
  writeManifest('swap.json', manifest);
  writeManifest(
    'down.json',
    edited(manifest, {
      mf_dao: (r) => {
        r.entry = `http://localhost:${controlledDaoPort}/mf-manifest.json`;
      },
    }),
  );
  writeManifest(
    'redeploy.json',
    edited(manifest, {
      mf_cabinet: (r) => {
        r.entry = `http://localhost:${redeployCabinetPort}/mf-manifest.json`;
      },
    }),
  );
  writeManifest(
    'faults.json',
    edited(manifest, {
      mf_referral: (r) => {
        r.contract = mismatchedContract;
      },
      mf_pools: (r) => {
        r.entry = `${origin('mf-pools')}/no-such-deploy/mf-manifest.json`;
      },
    }),
  );
  writeFileSync(join(remotesDir, 'broken.json'), '{ "remotes": [ { "name": "mf_auth" ');

  const stack = await startStack({
    ports,
    dataDir,
    remotesDir,
    brandsDir,
    // Links the API makes (mails, the referral link) point at the site under test.
    apiEnv: { NODE_ENV: 'test', RATE_LIMIT_MULTIPLIER: '1000', PUBLIC_URL: baseURL },
    // Kept in a file too: a test reads what the servers logged (a brand refused, and why).
    log: (line: string) => {
      appendFileSync(stackLog, `${line}\n`);
      if (process.env.E2E_VERBOSE) console.log(line);
    },
  });
  const canary = await serveRemote({ dir: canaryDir, port: canaryCabinetPort });
  return async () => {
    await new Promise((resolve) => {
      canary.close(resolve);
      canary.closeAllConnections?.();
    });
    await stack.stop();
    // The Content-Security-Policy must hold on every page the tests opened.
    const reports = join(dataDir, 'csp-reports.jsonl');
    const lines = existsSync(reports) ? readFileSync(reports, 'utf8').split('\n') : [];
    const violations = lines.filter((line) => line && !line.includes(CSP_PROBE)).join('\n');
    if (violations) throw new Error(`Content-Security-Policy violations were reported:\n${violations}`);
  };
}
