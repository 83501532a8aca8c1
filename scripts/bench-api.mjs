#!/usr/bin/env node
// Benchmark of the API (issue 3): autocannon in this process, each server in its own child
// process, all on loopback. Prints requests/s and latency for
//   - a Fastify hello-world (the ceiling on this machine, measured in the same run),
//   - GET /api/v1/profile with a bearer token (JWT check + session lookup + serialisation),
//   - POST /api/v1/login (argon2id at the production cost: slow on purpose).
// Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 50), BENCH_LOGIN_CONNECTIONS
// (default 10), BENCH_ROUNDS (default 2), DATABASE_URL (optional: bench against PostgreSQL instead of PGlite).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startProcess } from './processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const loginConnections = Number(process.env.BENCH_LOGIN_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Servers in process groups of their own (scripts/processes.mjs), each with stop(). */
const children = [];
function start(args, env, readyUrl) {
  const started = startProcess(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(started);
  const { child } = started;
  return (async () => {
    for (let i = 0; i < 600; i++) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      try {
        if ((await fetch(readyUrl)).ok) return child;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${readyUrl} did not come up`);
  })();
}

const HELLO = `
  const app = require('fastify')({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

function run(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ duration, connections, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
try {
  const [helloPort, apiPort] = [await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}`;
  await Promise.all([
    start(['-e', HELLO], { PORT: String(helloPort) }, `http://127.0.0.1:${helloPort}/`),
    start(['--import', 'tsx', 'api/src/main.ts'], {
      API_PORT: String(apiPort),
      API_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      // The load comes from one address: lift the per-IP limits, keep everything else as shipped.
      RATE_LIMIT_MULTIPLIER: '1000000',
      // No chain here: the deposit and money jobs would only log connection errors.
      DEPOSIT_JOB_INTERVAL_MS: '0',
      MONEY_JOBS_INTERVAL_MS: '0',
    }, `${api}/api/health`),
  ]);

  const email = `bench.${Date.now()}@example.com`;
  const password = 'Bench!pass1';
  const reg = await fetch(`${api}/api/v1/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: email, password }),
  });
  if (!reg.ok) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const { token } = await reg.json();

  const rows = [];
  const measure = async (name, opts) => {
    // A short warm-up so JIT and caches are not part of the numbers.
    await run({ ...opts, duration: 2 });
    const r = await run(opts);
    const non2xx = r.non2xx + r.errors + r.timeouts;
    rows.push({ name, conns: opts.connections ?? connections, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: non2xx });
  };

  // Hello-world and /profile alternate, so a change of the machine's load hits both alike.
  for (let round = 0; round < rounds; round++) {
    await measure('Fastify hello-world', { url: `http://127.0.0.1:${helloPort}/` });
    await measure('GET /api/v1/profile', { url: `${api}/api/v1/profile`, headers: { authorization: `Bearer ${token}` } });
  }
  await measure('POST /api/v1/login', {
    url: `${api}/api/v1/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: email, password }),
    connections: loginConnections,
  });

  // Mean of the rounds per case.
  const cases = [...new Set(rows.map((r) => r.name))].map((name) => {
    const rs = rows.filter((r) => r.name === name);
    const mean = (k) => rs.reduce((a, r) => a + r[k], 0) / rs.length;
    return { name, conns: rs[0].conns, rps: mean('rps'), p50: mean('p50'), p99: mean('p99'), bad: rs.reduce((a, r) => a + r.bad, 0) };
  });
  const hello = cases[0].rps;
  const pad = (s, n) => String(s).padEnd(n);
  const num = (v, n) => String(v).padStart(n);
  console.log(`\nAPI benchmark: ${duration}s per case, ${rounds} round(s) of hello/profile, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}, Node ${process.version}, database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}\n`);
  console.log(`${pad('case', 24)} ${num('conns', 5)} ${num('req/s', 10)} ${num('p50 ms', 8)} ${num('p99 ms', 8)} ${num('% hello', 8)} ${num('non-2xx', 8)}`);
  for (const r of cases) {
    console.log(
      `${pad(r.name, 24)} ${num(r.conns, 5)} ${num(r.rps.toFixed(0), 10)} ${num(r.p50.toFixed(1), 8)} ${num(r.p99.toFixed(1), 8)} ${num(((100 * r.rps) / hello).toFixed(1), 8)} ${num(r.bad, 8)}`,
    );
  }
  const profile = cases[1];
  console.log(
    `\nTargets for /profile at ${connections} connections: >= 40% of hello-world req/s (${((100 * profile.rps) / hello).toFixed(1)}%), p99 < 20 ms (${profile.p99.toFixed(1)} ms).`,
  );
} finally {
  await Promise.all(children.map((c) => c.stop()));
  rmSync(dataDir, { recursive: true, force: true });
}
