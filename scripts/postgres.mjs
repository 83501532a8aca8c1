// A local PostgreSQL for the stack (`npm start -- --postgres`, the replicas' browser test): Debian's
// package, a cluster of our own in a folder, on a port of its own, run in the foreground as a child
// of the stack (scripts/processes.mjs), so it stops with everything else. No root is needed, as in
// api/test/with-postgres.sh: as root the server runs as the `postgres` user (it refuses root), and
// when the server is missing, root with apt-get installs it as .ci/run does.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { assertFree, startProcess } from './processes.mjs';

const require = createRequire(import.meta.url);
const PG_ROOT = '/usr/lib/postgresql';
/** The database the API uses in the cluster. */
export const DATABASE = 'invest';

/** The newest installed server's bin folder, or undefined. */
export function postgresBin() {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(PG_ROOT, versions[0], 'bin') : undefined;
}

const isRoot = () => process.getuid?.() === 0;

/** The server's bin folder, installing Debian's package first when it is missing and this is root with apt-get. */
export function ensurePostgres(log = console.log) {
  const found = postgresBin();
  if (found) return found;
  const canApt = isRoot() && spawnSync('which', ['apt-get']).status === 0;
  if (!canApt) throw new Error('PostgreSQL is missing: run "sudo apt-get install -y postgresql" (Debian\'s package), then start again.');
  log('Installing PostgreSQL from Debian…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'postgresql']]) {
    if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0) throw new Error(`apt-get ${args.join(' ')} failed`);
  }
  const installed = postgresBin();
  if (!installed) throw new Error(`PostgreSQL was installed, but no server was found under ${PG_ROOT}`);
  return installed;
}

/** argv run as the `postgres` user when this is root (the server refuses to run as root). */
const asServerUser = (argv) => (isRoot() ? ['runuser', '-u', 'postgres', '--', ...argv] : argv);
const runAsServerUser = (argv) => {
  const [command, ...args] = asServerUser(argv);
  return spawnSync(command, args, { encoding: 'utf8' });
};

async function canConnect(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Starts (creating it on first use) the cluster in `dataDir` on 127.0.0.1:`port`, with trust
 * authentication for the local user `postgres` and no Unix socket (its folder would need root).
 * `throwaway`: durability off, for a cluster that is deleted after the run (the tests').
 * Answers the address of the API's database (created when missing) and stop().
 */
export async function startPostgres({ dataDir: wanted, port, throwaway = false, log = console.log }) {
  const bin = ensurePostgres(log);
  const dataDir = clusterFolder(wanted, log);
  // A throwaway cluster starts empty, wherever it had to be kept.
  if (throwaway) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  if (isRoot()) {
    const { uid, gid } = userIds('postgres');
    chownSync(dataDir, uid, gid);
  }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const made = runAsServerUser([join(bin, 'initdb'), '-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    if (made.status !== 0) throw new Error(`initdb ${dataDir} failed: ${made.stderr || made.stdout}`);
  }
  // The server refuses a data folder others can read.
  if ((statSync(dataDir).mode & 0o077) !== 0) runAsServerUser(['chmod', '700', dataDir]);
  const settings = ['listen_addresses=127.0.0.1', 'unix_socket_directories=', 'max_connections=100', ...(throwaway ? ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] : [])];
  await assertFree(port, 'PostgreSQL');
  const argv = asServerUser([join(bin, 'postgres'), '-D', dataDir, '-p', String(port), ...settings.flatMap((s) => ['-c', s])]);
  const server = startProcess(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const keep = (chunk) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      lines.push(line);
      if (lines.length > 50) lines.shift();
      // Our own probes while it starts are refused: that is no news.
      if (/ERROR|FATAL|PANIC/.test(line) && !/is starting up/.test(line)) log(`[postgres] ${line}`);
    }
  };
  server.child.stdout.on('data', keep);
  server.child.stderr.on('data', keep);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const until = Date.now() + 60_000;
  while (!(await canConnect(admin))) {
    if (server.child.exitCode !== null || Date.now() > until) {
      await server.stop();
      throw new Error(`PostgreSQL did not start on port ${port}:\n${lines.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { Client } = require('pg');
  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
  return { child: server.child, stop: server.stop, url: `postgres://postgres@127.0.0.1:${port}/${DATABASE}` };
}

/**
 * Where the cluster lives: `wanted`, unless this is root and the `postgres` user cannot reach it
 * (a checkout under /root): then a folder of its own under the system's temporary folder, named
 * after `wanted`, so the same checkout finds the same cluster again.
 */
function clusterFolder(wanted, log) {
  if (!isRoot()) return wanted;
  const parent = join(wanted, '..');
  mkdirSync(parent, { recursive: true });
  if (runAsServerUser(['test', '-x', parent]).status === 0) return wanted;
  const elsewhere = join(tmpdir(), `invest-pools-postgres-${createHash('sha256').update(wanted).digest('hex').slice(0, 12)}`);
  log(`The postgres user cannot reach ${wanted}: the cluster is kept in ${elsewhere}`);
  return elsewhere;
}

function userIds(name) {
  const out = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const group = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (out.status !== 0 || group.status !== 0) throw new Error(`no user ${name}: Debian's postgresql package creates it`);
  return { uid: Number(out.stdout.trim()), gid: Number(group.stdout.trim()) };
}
