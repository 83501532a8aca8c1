// The whole site on one machine: the local chain, the signer, the API, each remote on its own port
// and the shell. Used by `npm start` and by the browser tests (with other ports and a throwaway data dir).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { frontends, remoteNames, repoRoot } from '../shared/build/index.mjs';
import { runtimeManifest } from '../shared/build/manifest.mjs';
import { openBrands } from '../shell-server/brand-page.mjs';
import { serveRemote, serveShell } from '../shell-server/serve.mjs';
import { startMailCatcher } from './mail-catcher.mjs';
import { startProcess } from './processes.mjs';

export const defaultPorts = {
  shell: 8080,
  'mf-auth': 3001,
  'mf-cabinet': 3002,
  'mf-pools': 3003,
  'mf-referral': 3004,
  'mf-dao': 3005,
  api: 4000,
  /** The operator API: the API's own internal port for operator calls (the console reaches it through the shell on the operator host). */
  operatorApi: 4100,
  /** The signer: it alone holds the float's and the deposit addresses' keys (signer/README.md). */
  signer: 4200,
  /** Where the API serves the signer the ledger's payout records (the local PGlite lives in the API's process). */
  ledgerReader: 4300,
  chain: 8545,
  /** MailDev: the API sends its mail here over SMTP; the web inbox shows it. */
  mailSmtp: 1025,
  mailInbox: 1080,
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
 * @param {object} o
 * @param {Partial<typeof defaultPorts>} [o.ports]
 * @param {string} [o.dataDir] where the API's database and the chain's state live
 * @param {string} [o.remotesDir] runtime manifests; generated for the ports when missing
 * @param {string} [o.brandsDir] the folder of brand folders, read by the shell's server and the API (default: BRANDS_DIR, else brands/)
 * @param {Record<string,string>} [o.apiEnv] extra environment for the API
 * @param {(line: string) => void} [o.log]
 */
export async function startStack({ ports: portOverrides = {}, dataDir = join(repoRoot, '.data'), remotesDir, brandsDir = process.env.BRANDS_DIR ?? join(repoRoot, 'brands'), apiEnv = {}, log = console.log } = {}) {
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
    if (existsSync(join(repoRoot, 'signer/src/main.ts'))) {
      // Before the API: the payout job asks it to sign from its first run. It reads the records only when asked.
      const env = { NODE_ENV: 'development', SIGNER_LOCAL_CHAIN: 'true', SIGNER_PORT: String(ports.signer), SIGNER_RECORDS_URL: `http://127.0.0.1:${ports.ledgerReader}`, SIGNER_LOG_FILE: join(dataDir, 'signer', 'audit.jsonl') };
      children.push(startChild('signer', 'signer/src/main.ts', env, log));
      await waitForHttp(`${signerUrl}/v1/addresses`);
    }
    const apiUrl = `http://127.0.0.1:${ports.api}`;
    if (existsSync(join(repoRoot, 'api/src/main.ts'))) {
      // The API starts only in a named environment; this stack runs its own anvil, so the chain is local.
      const env = { NODE_ENV: 'development', LOCAL_CHAIN: 'true', BRANDS_DIR: brandsDir, PUBLIC_URL: `http://localhost:${ports.shell}`, API_PORT: String(ports.api), OPERATOR_PORT: String(ports.operatorApi), DATA_DIR: join(dataDir, 'api'), RPC_URL: rpcUrl, SMTP_URL: mail.smtpUrl, SIGNER_URL: signerUrl, LEDGER_READER_PORT: String(ports.ledgerReader), ...apiEnv };
      children.push(startChild('api', 'api/src/main.ts', env, log));
      // A first start creates and migrates the database: on a busy machine that can take minutes.
      await waitForHttp(`${apiUrl}/api/health`, { timeoutMs: 240_000 });
    }

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
      await serveShell({ dir: join(repoRoot, 'shell/dist'), port: ports.shell, remotesDir: manifestsDir, brands: registry, apiUrl: existsSync(join(repoRoot, 'api/src/main.ts')) ? apiUrl : undefined, operatorApiUrl: `http://127.0.0.1:${ports.operatorApi}`, operatorHosts: ['localhost', '127.0.0.1'], cspReportFile: join(dataDir, 'csp-reports.jsonl') }),
    );
    return { ports, url: `http://localhost:${ports.shell}`, mailInbox: mail.inboxUrl, brands: registry, stop, children: children.map((c) => c.child) };
  } catch (error) {
    await stop();
    throw error;
  }
}
