#!/usr/bin/env node
// Benchmark of the daily interest accrual (issue 10): one day for 10k, 100k and 1M positions, on
// PGlite (in memory, in the process) and on PostgreSQL, and beside it the referral step of the same
// day (issue 12): every position holder is a referee with three levels of referrers above them, so
// n referees give 3n rewards. Each case runs in its own child process, so
// its memory is its own. Prints seconds, positions per second and the peak RSS of the process while
// it accrues (sampled every 10 ms), beside the RSS just before. On a shared machine wall time
// depends on the other work: it also prints the CPU seconds the database spent (PGlite: this
// process; PostgreSQL on this machine: its backends, from /proc) and the load average before.
// The accrual is one set-based statement per pool and day: memory must stay flat whatever the count.
// Env: BENCH_SIZES (10000,100000,1000000), BENCH_BACKENDS (pglite,postgres), BENCH_MOVED_EVERY (0: every
// k-th position also moves during the day, so its lowest balance is read from the day's postings),
// BENCH_DATABASE_URL (a PostgreSQL server whose user may CREATE DATABASE; without it a throwaway
// cluster is started from Debian's PostgreSQL binaries on port BENCH_PG_PORT, 55433).
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');

if (process.env.BENCH_INTEREST_CASE) {
  await runCase(JSON.parse(process.env.BENCH_INTEREST_CASE));
  process.exit(0);
}

const sizes = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const backends = (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(',');

let pgUrl = process.env.BENCH_DATABASE_URL;
let stopCluster = () => undefined;
if (backends.includes('postgres') && !pgUrl) ({ url: pgUrl, stop: stopCluster } = startCluster());

const results = [];
try {
  for (const backend of backends) {
    for (const n of sizes) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', self], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 1 << 20,
        env: { ...process.env, BENCH_INTEREST_CASE: JSON.stringify({ backend, n, url: pgUrl }) },
      });
      const line = r.stdout.trim().split('\n').pop() ?? '';
      if (r.status !== 0 || !line.startsWith('{')) {
        console.error(`${backend} ${n}: failed\n${r.stderr}`);
        continue;
      }
      results.push(JSON.parse(line));
      console.error(`${backend} ${n}: done`);
    }
  }
} finally {
  stopCluster();
}

const cell = (v, w) => String(v).padStart(w);
console.log(`\nnpm run bench:interest — one day accrued, ${os.cpus().length} CPUs, ${new Date().toISOString().slice(0, 10)}\n`);
console.log(['database', 'positions', 'seconds', 'positions/s', 'CPU seconds', 'load before', 'peak RSS', 'RSS before', 'credited', 'referral s', 'referees/s', 'rewards'].map((h, i) => (i < 1 ? h.padEnd(10) : cell(h, 12))).join(' '));
for (const r of results) {
  console.log(
    [
      r.backend.padEnd(10),
      cell(r.n, 12),
      cell(r.seconds.toFixed(2), 12),
      cell(Math.round(r.n / r.seconds), 12),
      cell(r.cpuSeconds === null ? '-' : r.cpuSeconds.toFixed(2), 12),
      cell(r.load.toFixed(1), 12),
      cell(`${r.peakMiB} MiB`, 12),
      cell(`${r.beforeMiB} MiB`, 12),
      cell(r.positions, 12),
      cell(r.referralSeconds.toFixed(2), 12),
      cell(Math.round(r.n / r.referralSeconds), 12),
      cell(r.rewards, 12),
    ].join(' '),
  );
}

/** CPU seconds (user + system) of processes, by pid, from /proc; a pid that cannot be read (a remote server) is left out. */
function cpuOf(pids) {
  const out = new Map();
  for (const pid of pids) {
    try {
      // After the command name: f[0] is field 3 (state), so utime (field 14) is f[11] and stime f[12]; in ticks of 1/100 s.
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      /* not on this machine */
    }
  }
  return out;
}

function startCluster() {
  const bins = readdirSync('/usr/lib/postgresql').sort().map((v) => `/usr/lib/postgresql/${v}/bin`);
  const bin = bins.pop();
  if (!bin) throw new Error('no PostgreSQL binaries: set BENCH_DATABASE_URL or install postgresql');
  const port = process.env.BENCH_PG_PORT ?? '55433';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  const asPg = (cmd, args) => (process.getuid?.() === 0 ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'ignore' }) : execFileSync(cmd, args, { stdio: 'ignore' }));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  asPg(`${bin}/initdb`, ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  asPg(`${bin}/pg_ctl`, ['-D', `${dir}/data`, '-l', `${dir}/server.log`, '-w', '-o', `-p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=256MB -c max_wal_size=4GB`, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        asPg(`${bin}/pg_ctl`, ['-D', `${dir}/data`, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function runCase({ backend, n, url }) {
  const { openDatabase } = await import('../api/src/db/client.ts');
  const { seed } = await import('../api/src/db/seed.ts');
  const { accrueDay } = await import('../api/src/interest/accrual.ts');
  const { rewardDay } = await import('../api/src/referral/rewards.ts');
  const { tablePriceSource } = await import('../api/src/pricing/prices.ts');
  const movedEvery = Number(process.env.BENCH_MOVED_EVERY ?? 0);
  const { checkLedger } = await import('../api/src/ledger/index.ts');
  const { sql } = createRequire(path.join(root, 'api/package.json'))('drizzle-orm');
  let dbUrl;
  let dropDb = async () => undefined;
  if (backend === 'postgres') {
    const { Client } = createRequire(path.join(root, 'api/package.json'))('pg');
    const name = `bench_interest_${process.pid}`;
    const admin = new Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
    dropDb = async () => {
      const a = new Client({ connectionString: url });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    };
  }
  const database = await openDatabase(dbUrl ? { kind: 'postgres', url: dbUrl } : { kind: 'pglite', dataDir: null });
  const db = database.db;
  try {
    await seed(db, { localChain: true });
    // Three levels of referrers (n/1000 above n/100 above n/10), each bound at creation like a sign-up.
    const layer = async (tag, count, parentTag, parentCount) =>
      db.execute(sql`insert into users (id, email, role, referral_code, referrer_id)
        select ('00000000-0000-4000-' || ${tag} || '-' || lpad(to_hex(g), 12, '0'))::uuid, ${tag} || '.' || g || '@example.com', 'user', ${tag} || g,
               ${parentTag === null ? sql`null` : sql`('00000000-0000-4000-' || ${parentTag} || '-' || lpad(to_hex(g % ${parentCount} + 1), 12, '0'))::uuid`}
        from generate_series(1, ${count}) g`);
    const [l3, l2, l1] = [1000, 100, 10].map((k) => Math.max(1, Math.floor(n / k)));
    await layer('9003', l3, null, 0);
    await layer('9002', l2, '9003', l3);
    await layer('9001', l1, '9002', l2);
    // n users (the referees), each with a position of 1..n ETH-wei-ish amounts in the coin pool, from one balanced deposit transaction.
    await db.execute(sql`insert into users (id, email, role, referral_code, referrer_id)
      select ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'bench' || g || '@example.com', 'user', 'b' || g,
             ('00000000-0000-4000-9001-' || lpad(to_hex(g % ${l1} + 1), 12, '0'))::uuid
      from generate_series(1, ${n}) g`);
    await db.execute(sql`insert into ledger_accounts (key, kind, currency, user_id, pool, balance, deposited)
      select 'position:coin:ETH:' || id, 'position', 'ETH', id, 'coin', -d, d from (select id, 1000000000000000000::numeric + (row_number() over ())::numeric * 1000003 as d from users where email like 'bench%') u`);
    await db.execute(sql`insert into ledger_accounts (key, kind, currency, pool, address, balance)
      select 'reserves:1:0x9586a4833970847aef259ad5bfb7aa8901ddf746:ETH', 'reserves', 'ETH', 'coin', '0x9586a4833970847aef259ad5bfb7aa8901ddf746', -sum(balance) from ledger_accounts where kind = 'position'`);
    // A transaction's legs are written with it, in one database transaction (the postings' trigger, 0045).
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into ledger_transactions (reference, kind, at) values ('bench:deposits', 'deposit', '2026-01-01T00:00:00Z')`);
      await tx.execute(sql`insert into ledger_postings (transaction_id, account_id, amount)
        select (select id from ledger_transactions where reference = 'bench:deposits'), id, balance from ledger_accounts`);
    });
    if (movedEvery > 0) {
      // Every k-th position also moves during the day (a withdrawal's reservation at noon): those
      // earn on their lowest balance, read from the day's postings (issue 21, finding 11).
      const moved = sql`(select id from ledger_accounts where kind = 'position' and id % ${movedEvery} = 0)`;
      await db.execute(sql`insert into ledger_accounts (key, kind, currency, balance) values ('withdrawals_in_flight:ETH', 'withdrawals_in_flight', 'ETH', 0) on conflict (key) do nothing`);
      await db.transaction(async (tx) => {
        await tx.execute(sql`insert into ledger_transactions (reference, kind, at) values ('bench:moves', 'withdrawal_reserve', '2026-01-01T12:00:00Z')`);
        await tx.execute(sql`insert into ledger_postings (transaction_id, account_id, amount)
          select (select id from ledger_transactions where reference = 'bench:moves'), id, 1000000 from ${moved} m
          union all
          select (select id from ledger_transactions where reference = 'bench:moves'), (select id from ledger_accounts where key = 'withdrawals_in_flight:ETH'), -1000000 * count(*) from ${moved} m`);
      });
      await db.execute(sql`update ledger_accounts a set balance = a.balance + p.amount from ledger_postings p join ledger_transactions t on t.id = p.transaction_id
        where t.reference = 'bench:moves' and p.account_id = a.id`);
    }
    await db.execute(sql`analyze`);
    if (global.gc) global.gc();
    // The database's CPU time: this process for PGlite; the database's backends for PostgreSQL.
    const backends = async () =>
      backend === 'postgres' ? ((await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)).rows.map((r) => Number(r.pid))) : [];
    const cpuNow = async () => {
      if (backend === 'pglite') {
        const u = process.cpuUsage();
        return new Map([[process.pid, (u.user + u.system) / 1e6]]);
      }
      return cpuOf(await backends());
    };
    const load = os.loadavg()[0];
    const cpuBefore = await cpuNow();
    const beforeMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
    // Peak RSS while accruing (sampled): seeding the positions is not what is measured.
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const t0 = process.hrtime.bigint();
    const r = await accrueDay(db, 'coin', '2026-01-01', '0.08');
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpuAfter = await cpuNow();
    clearInterval(sampler);
    const cpuSeconds = cpuAfter.size ? [...cpuAfter].reduce((sum, [pid, c]) => sum + c - (cpuBefore.get(pid) ?? 0), 0) : null;
    const peakMiB = Math.round(Math.max(peak, process.memoryUsage().rss) / 2 ** 20);
    const check = await checkLedger(db);
    if (!check.ok) throw new Error('ledger check failed after the accrual');
    // The referral step of the same day, as the daily run calls it right after the accrual.
    const t1 = process.hrtime.bigint();
    const referral = await rewardDay(db, tablePriceSource(db, 'local'), 'coin', '2026-01-01');
    const referralSeconds = Number(process.hrtime.bigint() - t1) / 1e9;
    if (!(await checkLedger(db)).ok) throw new Error('ledger check failed after the referral rewards');
    console.log(JSON.stringify({ backend, n, seconds, cpuSeconds, load, positions: r.positions, peakMiB, beforeMiB, referralSeconds, rewards: referral.rewards }));
  } finally {
    await database.close();
    await dropDb();
  }
}
