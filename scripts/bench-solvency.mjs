// npm run bench:solvency [-- 10000 100000 1000000]: proof-of-solvency snapshots on PostgreSQL
// (a throwaway cluster on a free port, as api/test/with-postgres.sh makes one), one fresh database
// per size, each in its own process so its peak RSS is its own. Prints one table.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (!sizes.length) sizes.push(10_000, 100_000, 1_000_000);

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const bin = join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1), 'bin');
const root_ = process.getuid?.() === 0;
const asPg = (cmd, args) => (root_ ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);
const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
if (root_) execFileSync('chown', ['postgres:postgres', dir]);
chmodSync(dir, 0o755);
const pg = (cmd, args) => {
  const [c, a] = asPg(join(bin, cmd), args);
  return spawnSync(c, a, { stdio: ['ignore', 'ignore', 'inherit'] });
};
pg('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
const started = pg('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`, 'start']);
if (started.status !== 0) {
  console.error(`PostgreSQL did not start on port ${port}`);
  process.exit(1);
}
const results = [];
try {
  for (const n of sizes) {
    const name = `bench_${n}`;
    execFileSync(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', `create database ${name}`], { stdio: 'ignore' });
    const r = spawnSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'api/test/bench-solvency-run.ts'), String(n)], {
      env: { ...process.env, BENCH_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/${name}` },
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (r.status !== 0) {
      console.error(`${n} users failed:\n${r.stderr}`);
      break;
    }
    results.push(JSON.parse(r.stdout.trim().split('\n').at(-1)));
    execFileSync(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', `drop database ${name}`], { stdio: 'ignore' });
  }
} finally {
  pg('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
  rmSync(dir, { recursive: true, force: true });
}
const load = (await import('node:os')).loadavg()[0].toFixed(2);
console.log('| users | leaves | first build s | CPU s (node + PostgreSQL) | next build s | CPU s (node + PostgreSQL) | peak RSS MB | stored MB | proof p50 ms | proof p99 ms |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  const b = (x) => `${x.seconds.toFixed(1)} | ${x.nodeCpu.toFixed(1)} + ${x.pgCpu.toFixed(1)}`;
  console.log(`| ${r.users.toLocaleString('en-US')} | ${r.leaves.toLocaleString('en-US')} | ${b(r.first)} | ${b(r.next)} | ${r.peakRssMb} | ${(r.bytes / 1048576).toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
}
console.log(`load average ${load} (the machine is shared: compare with it)`);
