// The whole site on one machine: the local chain, the signer, the API, each remote on its own port
// and the shell. Used by `npm start` and by the browser tests (with other ports and a throwaway data dir).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { frontends, remoteNames, repoRoot } from '../shared/build/index.mjs';
import { runtimeManifest } from '../shared/build/manifest.mjs';
import { openBrands } from '../shell-server/brand-page.mjs';
import { serveRemote, serveShell } from '../shell-server/serve.mjs';
import { startMailCatcher } from './mail-catcher.mjs';
import { startPostgres } from './postgres.mjs';
import { assertFree, startProcess } from './processes.mjs';

export const defaultPorts = {
  shell: 8080,
  'mf-auth': 3001,
  'mf-cabinet': 3002,
  'mf-pools': 3003,
  'mf-referral': 3004,
  'mf-dao': 3005,
  'mf-operator': 3006,
  api: 4000,
  /** The operator API: the API's own internal port for operator calls (the console reaches it through the shell on the operator host). */
  operatorApi: 4100,
  /** The signer: it alone holds the keys (float, deposit addresses, treasury, solvency; signer/README.md). */
  signer: 4200,
  /** Where the API serves the signer the ledger's payout records (the local PGlite lives in the API's process). */
  ledgerReader: 4300,
  chain: 8545,
  /** MailDev: the API sends its mail here over SMTP; the web inbox shows it. */
  mailSmtp: 1025,
  mailInbox: 1080,
  /** The local PostgreSQL of `--postgres` (its cluster in <dataDir>/postgres). */
  postgres: 5433,
};

const tsx = join(repoRoot, 'node_modules/tsx/dist/cli.mjs');

function waitForHttp(url, { timeoutMs = 60_000, init } = {}) {
  const until = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = async () => {
      try {
        const res = await fetch(url, init);
        if (res.status < 500) return resolve();
      } catch {
        /* not up yet */
      }
      if (Date.now() > until) return reject(new Error(`${url} did not answer within ${timeoutMs} ms`));
      setTimeout(poll, 250);
    };
    void poll();
  });
}

/** A script run by tsx in a process group of its own (scripts/processes.mjs): stopping it stops what it started. */
function startChild(name, script, env, log) {
  const started = startProcess(process.execPath, [tsx, script], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (chunk) => chunk.toString().split('\n').filter(Boolean).map((l) => `[${name}] ${l}`).join('\n');
  started.child.stdout.on('data', (d) => log(prefix(d)));
  started.child.stderr.on('data', (d) => log(prefix(d)));
  return started;
}

/**
 * The API: one process on PGlite (the default), or `replicas` processes on one PostgreSQL, the
 * local cluster of `postgres` or the DATABASE_URL given. Replica i listens on the API's and the
 * operator API's ports + i and names itself `api-<i+1>` to the database (`application_name`, seen
 * in pg_stat_activity). They start one after another, so the first applies the migrations and
 * enrols the local operators, and the others find them. Jobs stay single-runner through the
 * lease table (api/src/jobs/README.md), whatever the number.
 */
async function startApiReplicas({ ports, dataDir, brandsDir, rpcUrl, smtpUrl, apiEnv, postgres, replicas, children, log, signerUrl, startSigner }) {
  let databaseUrl = apiEnv.DATABASE_URL ?? process.env.DATABASE_URL;
  if (postgres && !databaseUrl) {
    const pg = await startPostgres({ dataDir: join(dataDir, 'postgres'), port: ports.postgres, throwaway: postgres.throwaway === true, log });
    children.push(pg);
    databaseUrl = pg.url;
  }
  if (replicas > 1 && !databaseUrl) throw new Error('More than one API replica needs PostgreSQL: add --postgres (or set DATABASE_URL).');
  await startSigner(databaseUrl);
  const started = [];
  for (let i = 0; i < replicas; i++) {
    const name = replicas > 1 ? `api-${i + 1}` : 'api';
    const port = ports.api + i;
    // The API starts only in a named environment; this stack runs its own anvil, so the chain is local.
    const env = {
      NODE_ENV: 'development',
      LOCAL_CHAIN: 'true',
      BRANDS_DIR: brandsDir,
      PUBLIC_URL: `http://localhost:${ports.shell}`,
      API_PORT: String(port),
      OPERATOR_PORT: String(ports.operatorApi + i),
      DATA_DIR: join(dataDir, 'api'),
      RPC_URL: rpcUrl,
      SMTP_URL: smtpUrl,
      SIGNER_URL: signerUrl,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, PGAPPNAME: name } : { LEDGER_READER_PORT: String(ports.ledgerReader) }),
      ...apiEnv,
    };
    await assertFree(port, name);
    await assertFree(ports.operatorApi + i, `${name}'s operator API`);
    const child = startChild(name, 'api/src/main.ts', env, log);
    children.push(child);
    // A first start creates and migrates the database: on a busy machine that can take minutes.
    await waitForHttp(`http://127.0.0.1:${port}/api/health`, { timeoutMs: 240_000 });
    started.push({ name, pid: child.child.pid, url: `http://127.0.0.1:${port}`, operatorUrl: `http://127.0.0.1:${ports.operatorApi + i}` });
  }
  return { replicas: started, databaseUrl, apiUrls: started.map((r) => r.url), operatorApiUrls: started.map((r) => r.operatorUrl) };
}

/**
 * @param {object} o
 * @param {Partial<typeof defaultPorts>} [o.ports]
 * @param {string} [o.dataDir] where the API's database and the chain's state live
 * @param {string} [o.remotesDir] runtime manifests; generated for the ports when missing
 * @param {string} [o.brandsDir] the folder of brand folders, read by the shell's server and the API (default: BRANDS_DIR, else brands/)
 * @param {Record<string,string>} [o.apiEnv] extra environment for the API
 * @param {boolean | { throwaway: boolean }} [o.postgres] the API on a local PostgreSQL (scripts/postgres.mjs) instead of PGlite; `throwaway`: without durability, for a cluster deleted after the run
 * @param {number} [o.replicas] API processes behind the shell's proxy (more than one needs PostgreSQL)
 * @param {(line: string) => void} [o.log]
 */
export async function startStack({ ports: portOverrides = {}, dataDir = join(repoRoot, '.data'), remotesDir, brandsDir = process.env.BRANDS_DIR ?? join(repoRoot, 'brands'), apiEnv = {}, postgres = false, replicas = 1, log = console.log } = {}) {
  const ports = { ...defaultPorts, ...portOverrides };
  mkdirSync(dataDir, { recursive: true });
  // Processes (chain, mail catcher, API), each with stop(); if this process dies without stop(), they go with it.
  const children = [];
  const servers = [];
  let registry;
  const stop = async () => {
    registry?.close();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r()))));
    await Promise.all(children.reverse().map((c) => c.stop()));
  };
  try {
    const rpcUrl = `http://127.0.0.1:${ports.chain}`;
    if (existsSync(join(repoRoot, 'chain/src/main.ts'))) {
      children.push(startChild('chain', 'chain/src/main.ts', { CHAIN_PORT: String(ports.chain), CHAIN_STATE_FILE: join(dataDir, 'chain-state.json') }, log));
      await waitForHttp(rpcUrl, { init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' } });
    }
    const mail = await startMailCatcher({ smtpPort: ports.mailSmtp, webPort: ports.mailInbox, log });
    children.push(mail);
    const signerUrl = `http://127.0.0.1:${ports.signer}`;
    /** Before the API: the payout job asks it to sign from its first run. It reads the records only when asked. */
    const startSigner = async (databaseUrl) => {
      if (!existsSync(join(repoRoot, 'signer/src/main.ts'))) return;
      // From PostgreSQL when the stack has one; else from the API's loopback ledger reader (PGlite lives in the API).
      const records = databaseUrl ? { SIGNER_DATABASE_URL: databaseUrl } : { SIGNER_RECORDS_URL: `http://127.0.0.1:${ports.ledgerReader}` };
      const env = { NODE_ENV: 'development', SIGNER_LOCAL_CHAIN: 'true', SIGNER_PORT: String(ports.signer), ...records, SIGNER_LOG_FILE: join(dataDir, 'signer', 'audit.jsonl') };
      await assertFree(ports.signer, 'signer');
      children.push(startChild('signer', 'signer/src/main.ts', env, log));
      await waitForHttp(`${signerUrl}/v1/addresses`);
    };
    const api = existsSync(join(repoRoot, 'api/src/main.ts'))
      ? await startApiReplicas({ ports, dataDir, brandsDir, rpcUrl, smtpUrl: mail.smtpUrl, apiEnv, postgres, replicas, children, log, signerUrl, startSigner })
      : undefined;

    for (const name of remoteNames) {
      servers.push(await serveRemote({ dir: join(repoRoot, frontends[name].dir, 'dist'), port: ports[name] }));
    }
    // With the default ports the operator's manifest in shell/remotes is used as it is;
    // other ports get a manifest generated for them.
    const defaultLayout = remoteNames.every((n) => ports[n] === defaultPorts[n]);
    const manifestsDir = remotesDir ?? (defaultLayout ? join(repoRoot, 'shell/remotes') : join(dataDir, 'remotes'));
    if (!existsSync(join(manifestsDir, 'remotes.json'))) {
      mkdirSync(manifestsDir, { recursive: true });
      const manifest = runtimeManifest((name) => `http://localhost:${ports[name]}`);
      writeFileSync(join(manifestsDir, 'remotes.json'), JSON.stringify(manifest, null, 2));
    }
    // The shell's server and the API read the same brand folders, each watching them.
    registry = await openBrands(join(repoRoot, 'shell/dist'), brandsDir, (line) => log(`shell: ${line}`));
    servers.push(
      await serveShell({ dir: join(repoRoot, 'shell/dist'), port: ports.shell, remotesDir: manifestsDir, brands: registry, apiUrl: api?.apiUrls, operatorApiUrl: api?.operatorApiUrls ?? `http://127.0.0.1:${ports.operatorApi}`, operatorHosts: ['localhost', '127.0.0.1'], cspReportFile: join(dataDir, 'csp-reports.jsonl') }),
    );
    return { ports, url: `http://localhost:${ports.shell}`, mailInbox: mail.inboxUrl, brands: registry, stop, children: children.map((c) => c.child), replicas: api?.replicas ?? [], databaseUrl: api?.databaseUrl };
  } catch (error) {
    await stop();
    throw error;
  }
}
