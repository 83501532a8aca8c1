#!/usr/bin/env node
// npm run bench:scale (issue 23): the product at a million investors. A throwaway PostgreSQL
// cluster and the API on it (each stopped at the end, scripts/processes.mjs); users, a three-level
// referral network and one deposit per user seeded with set-based SQL (generate_series); DAYS days
// accrued by the engine itself (each timed), the last day's referral step and its rewards' vesting (timed); then, with 10
// connections (autocannon, as bench:api), p50, p99 and req/s of each cabinet, pool, referral and
// DAO read for an ordinary user (and the top referrer, whose downline is everyone), and the ratio
// to GET /profile's req/s in the same run, each on an API that keeps answers in memory and on one
// that computes every answer (with the CPU a computed answer costs); bytes per position-day of the interest postings; the
// referral rows and bytes of a day (per referrer and day, and the members' monthly shares it
// added); the last day's jobs' wall and CPU seconds (this process and the cluster); the incremental
// and the full ledger check.
// Env: BENCH_USERS (1000000), BENCH_DAYS (30), BENCH_DURATION (s per route, 5), BENCH_CONNECTIONS (10),
// BENCH_REFERRAL_DAYS (1: the referral step runs for the last so many days), BENCH_EXPLAIN_MS (unset),
// BENCH_SNAPSHOT (1: the last day's solvency snapshot, timed; 0 leaves it out), BENCH_KEEP (unset; set: the
// cluster's files stay, to run a statement again on the same book), BENCH_API_PROFILE (unset; a folder: the
// computing API's CPU profile, node --cpu-prof).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startProcess } from './processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);
// The engine is TypeScript: run under tsx.
if (!process.env.BENCH_SCALE_TSX) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', self], { cwd: root, stdio: 'inherit', env: { ...process.env, BENCH_SCALE_TSX: '1' } });
  process.exit(r.status ?? 1);
}

const N = Number(process.env.BENCH_USERS ?? 1_000_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const REFERRAL_DAYS = Number(process.env.BENCH_REFERRAL_DAYS ?? 1);
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const apiRequire = createRequire(path.join(root, 'api/package.json'));
const { sql } = apiRequire('drizzle-orm');

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;
const log = (m) => console.error(`[bench:scale ${new Date().toISOString().slice(11, 19)}] ${m}`);
const addDays = (day, n) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

// CPU seconds of the cluster: every live child of the postmaster, and what its children that have
// exited (parallel workers, a part's session) left in its cutime and cstime. Two cores give at most
// twice the wall time, so a job's CPU over two is the least wall time it can take here.
const ticksOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
};
const clusterCpu = (postmaster) => {
  const self = ticksOf(postmaster);
  let ticks = self.own + self.reaped;
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const t = ticksOf(e);
      if (t.ppid === postmaster) ticks += t.own;
    } catch {
      /* gone meanwhile: its time is in the postmaster's reaped */
    }
  }
  return ticks / 100;
};
const nodeCpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

const children = [];
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-'));
const asRoot = process.getuid?.() === 0;
const asPg = (cmd, args) => execFileSync(asRoot ? 'runuser' : cmd, asRoot ? ['-u', 'postgres', '--', cmd, ...args] : args, { stdio: 'ignore' });
try {
  const bin = readdirSync('/usr/lib/postgresql').sort().map((v) => `/usr/lib/postgresql/${v}/bin`).pop();
  if (!bin) throw new Error('no PostgreSQL binaries (/usr/lib/postgresql/*/bin)');
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  asPg(`${bin}/initdb`, ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const pgPort = await freePort();
  const pgArgs = ['-D', `${dir}/data`, '-p', String(pgPort), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'shared_buffers=256MB', '-c', 'max_wal_size=4GB'];
  // BENCH_EXPLAIN_MS: the plan (with each node's rows, buffers and time, which slow the run) of every statement slower than that, kept in bench-scale-explain.log.
  const explainMs = process.env.BENCH_EXPLAIN_MS;
  if (explainMs) {
    pgArgs.push('-c', 'shared_preload_libraries=auto_explain', '-c', `auto_explain.log_min_duration=${Number(explainMs)}`, '-c', 'auto_explain.log_analyze=on');
    pgArgs.push('-c', 'auto_explain.log_buffers=on', '-c', 'auto_explain.log_nested_statements=on', '-c', 'logging_collector=on', '-c', `log_directory=${dir}/log`, '-c', 'log_filename=postgres.log');
  }
  const pg = startProcess(asRoot ? 'runuser' : `${bin}/postgres`, asRoot ? ['-u', 'postgres', '--', `${bin}/postgres`, ...pgArgs] : pgArgs, { stdio: 'ignore' });
  children.push(pg);
  const url = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
  const { Client } = apiRequire('pg');
  for (let i = 0; ; i++) {
    const c = new Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      break;
    } catch (err) {
      if (i > 100) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  // The API first: it migrates and seeds the catalogue. A second one on the same database
  // (`READ_CACHE_MS=0`) computes every read on every request, as a user's first read does: the
  // reads are measured on both.
  const startApi = async (env = {}, nodeArgs = []) => {
    const port = await freePort();
    const proc = startProcess(process.execPath, [...nodeArgs, '--import', 'tsx', 'api/src/main.ts'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        API_PORT: String(port),
        API_HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, 'api'),
        DATABASE_URL: url,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_MULTIPLIER: '1000000',
        DEPOSIT_JOB_INTERVAL_MS: '0',
        MONEY_JOBS_INTERVAL_MS: '0',
        // The local pool addresses and prices (the referral step and the dollar figures need prices).
        LOCAL_CHAIN: 'true',
        // No chain: the reserves read answers "unknown" on chain at once.
        RPC_URL: `http://127.0.0.1:${rpcPort}`,
        ...env,
      },
    });
    children.push(proc);
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        /* not yet */
      }
      if (i > 1200) throw new Error('the API did not come up');
      await new Promise((r) => setTimeout(r, 100));
    }
    return { base, pid: proc.child.pid };
  };
  const rpcPort = await freePort();
  const kept = await startApi();
  const api = kept.base;
  const register = async (login) => {
    const r = await fetch(`${api}/api/v1/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login, password: 'Bench!pass1' }) });
    if (!r.ok) throw new Error(`register: ${r.status} ${await r.text()}`);
    return (await r.json()).token;
  };
  const [userToken, topToken] = [await register('ordinary@example.com'), await register('top@example.com')];

  const { openDatabase } = await import('../api/src/db/client.ts');
  const { accrueDay } = await import('../api/src/interest/accrual.ts');
  const { rewardDay, vestRewards } = await import('../api/src/referral/rewards.ts');
  const { tablePriceSource } = await import('../api/src/pricing/prices.ts');
  const { checkLedger, checkLedgerIncremental } = await import('../api/src/ledger/index.ts');
  const { takeSnapshot } = await import('../api/src/solvency/index.ts');
  // A chain that answers at once (block 100, no balances): the snapshot's own work, not an RPC's.
  const { instantChain } = await import('../api/test/solvency-seed.ts');
  const { Wallet } = await import('ethers');
  const database = await openDatabase({ kind: 'postgres', url });
  const db = database.db;
  const one = async (q) => (await db.execute(q)).rows[0];
  try {
    const first = addDays(new Date().toISOString().slice(0, 10), -DAYS - 1);
    log(`seeding ${N} users`);
    const t0 = process.hrtime.bigint();
    // The top referrer has the second layer under it, so its downline of three levels is everyone.
    await db.execute(sql`update users set role = 'user' where email in ('ordinary@example.com', 'top@example.com')`);
    const [l2, l1] = [100, 10].map((k) => Math.max(1, Math.floor(N / k)));
    // The tree is written per user by a row trigger, as sign-ups come one at a time; a million at
    // once are written in one set-based statement instead (as migration 0009 did).
    await db.execute(sql`alter table users disable trigger referral_tree_add`);
    const layer = (tag, count, parent) =>
      db.execute(sql`insert into users (id, email, role, referral_code, referrer_id)
        select ('00000000-0000-4000-' || ${tag} || '-' || lpad(to_hex(g), 12, '0'))::uuid, ${tag} || '.' || g || '@example.com', 'user', ${tag} || g, ${parent}
        from generate_series(1, ${count}) g`);
    await layer('9002', l2, sql`(select id from users where email = 'top@example.com')`);
    await layer('9001', l1, sql`('00000000-0000-4000-9002-' || lpad(to_hex(g % ${l2} + 1), 12, '0'))::uuid`);
    await db.execute(sql`insert into users (id, email, role, referral_code, referrer_id)
      select ('00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'))::uuid, 'bench' || g || '@example.com', 'user', 'b' || g,
             ('00000000-0000-4000-9001-' || lpad(to_hex(g % ${l1} + 1), 12, '0'))::uuid
      from generate_series(1, ${N - 1}) g`);
    await db.execute(sql`alter table users enable trigger referral_tree_add`);
    // Every seeded user has a wallet, as a live platform's do: the referral step and the vesting tell who
    // shares an address with an ancestor (finding 10). The kept set of them (0048) is written once below,
    // set-based, in place of its triggers' one user at a time.
    await db.execute(sql`alter table users disable trigger referral_sharing_wallet`);
    await db.execute(sql`update users set wallet_address = '0x' || replace(id::text, '-', '') || '00000000' where email like 'bench%' or email like '900%'`);
    await db.execute(sql`alter table users enable trigger referral_sharing_wallet`);
    await db.execute(sql`alter table referral_tree disable trigger referral_sharing_member`);
    await db.execute(sql`insert into referral_tree (user_id, level, ancestor_id)
      with recursive up (user_id, level, ancestor_id) as (
        select id, 1, referrer_id from users where referrer_id is not null and email not in ('ordinary@example.com', 'top@example.com')
        union all
        select up.user_id, up.level + 1, u.referrer_id from up join users u on u.id = up.ancestor_id where u.referrer_id is not null and up.level < 10
      )
      select user_id, level, ancestor_id from up`);
    await db.execute(sql`alter table referral_tree enable trigger referral_sharing_member`);
    // One deposit transaction for every position (the ordinary user's among them), at the first instant of the first day.
    await db.execute(sql`insert into ledger_accounts (key, kind, currency, user_id, pool, balance, deposited)
      select 'position:coin:ETH:' || id, 'position', 'ETH', id, 'coin', -d, d
      from (select id, 1000000000000000000::numeric + (row_number() over ())::numeric * 1000003 as d from users where email like 'bench%' or email = 'ordinary@example.com') u`);
    // Each position's deposit row, sent from the user's wallet; one bench user in a thousand sent it from their
    // referrer's, and gives no rewards.
    await db.execute(sql`alter table deposits disable trigger referral_sharing_deposit`);
    await db.execute(sql`insert into deposits (user_id, pool, currency, amount, tx_hash, status, from_address, to_address, credited_at, created_at)
      select a.user_id, 'coin', 'ETH', a.deposited, '0x' || md5(a.key) || md5(a.user_id::text), 'credited',
             case when a.id % 1000 = 0 then r.wallet_address else u.wallet_address end,
             '0x9586a4833970847aef259ad5bfb7aa8901ddf746', ${`${first}T00:00:00Z`}::timestamptz, ${`${first}T00:00:00Z`}::timestamptz
      from ledger_accounts a join users u on u.id = a.user_id left join users r on r.id = u.referrer_id
      where a.kind = 'position'`);
    await db.execute(sql`alter table deposits enable trigger referral_sharing_deposit`);
    await db.execute(sql`select referral_reshare(array(select distinct user_id from referral_tree))`);
    await db.execute(sql`insert into ledger_accounts (key, kind, currency, pool, address, balance)
      select 'reserves:1:0x9586a4833970847aef259ad5bfb7aa8901ddf746:ETH', 'reserves', 'ETH', 'coin', '0x9586a4833970847aef259ad5bfb7aa8901ddf746', -sum(balance) from ledger_accounts where kind = 'position'`);
    // Each day is written as on the morning after it (five past midnight), not within the bench's
    // minutes: a ledger transaction's created_at and its legs' written week (0045) are that time's,
    // so the postings' index holds a week of an account's legs per entry as a real history does,
    // and the check reads an account's legs from the week of what it checks. Only the two columns'
    // defaults change (this cluster is the bench's own); the engine writes as in production.
    // Each altered default takes its table's exclusive lock, which cancels any autovacuum of it: the postings' default is
    // altered only when the week changes, and the two tables' vacuum and analyze are run in autovacuum's place below.
    let writtenWeek = null;
    const writtenOn = async (day) => {
      const at = `${addDays(day, 1)}T00:05:00Z`;
      await db.execute(sql.raw(`alter table ledger_transactions alter column created_at set default '${at}'::timestamptz`));
      const week = (await one(sql`select ledger_week(${at}::timestamptz) as w`)).w;
      if (week !== writtenWeek) await db.execute(sql.raw(`alter table ledger_postings alter column written_week set default ledger_week('${at}'::timestamptz)`));
      writtenWeek = week;
    };
    // Autovacuum's own thresholds (the cluster's defaults: analyze after 10 % of the rows changed, vacuum after 20 %
    // inserted or changed), applied between days to the tables whose autovacuum the defaults' locks cancel. Untimed.
    const maintenance = { runs: [], s: 0 };
    const maintain = async () => {
      const due = (
        await db.execute(sql`select s.relname,
            s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyze,
            s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) or s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) as vacuum
          from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname in ('ledger_postings', 'ledger_transactions')`)
      ).rows.filter((r) => r.analyze || r.vacuum);
      for (const r of due) {
        const statement = `${r.vacuum ? 'vacuum analyze' : 'analyze'} ${r.relname}`;
        const t = process.hrtime.bigint();
        await db.execute(sql.raw(statement));
        maintenance.runs.push(statement);
        maintenance.s += seconds(t);
      }
    };
    await writtenOn(addDays(first, -1));
    // A transaction's legs are written with it, in one database transaction (the postings' trigger, 0045).
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into ledger_transactions (reference, kind, at) values ('bench:deposits', 'deposit', ${`${first}T00:00:00Z`}::timestamptz)`);
      await tx.execute(sql`insert into ledger_postings (transaction_id, account_id, amount)
        select (select id from ledger_transactions where reference = 'bench:deposits'), id, balance from ledger_accounts`);
    });
    await db.execute(sql`vacuum analyze`);
    const seedSeconds = seconds(t0);
    log(`seeded in ${seedSeconds.toFixed(1)} s; accruing ${DAYS} days`);
    const size = async () => Number((await one(sql`select pg_total_relation_size('ledger_postings') + pg_total_relation_size('ledger_transactions') as b`)).b);
    const days = [];
    const prices = tablePriceSource(db, 'local');
    const postingsBefore = await size();
    // The day's proof of solvency (issue 24) after its referral step, as the job runs it. A user's
    // first snapshot makes their nonce, once in their life: that one is taken before the last day, apart.
    const snapshotSettings = { chainId: 1, confirmations: 12, solvency: new Wallet(`0x${'11'.repeat(32)}`), brandTitle: 'Bench', custody: null };
    const withSnapshot = process.env.BENCH_SNAPSHOT !== '0';
    let firstSnapshot = null;
    // A job's wall time and CPU seconds, the bench's own process (node) and the cluster's apart.
    const postmaster = Number(readFileSync(`${dir}/data/postmaster.pid`, 'utf8').split('\n')[0]);
    const timedJob = async (job) => {
      const [t, n, p] = [process.hrtime.bigint(), nodeCpu(), clusterCpu(postmaster)];
      const result = await job();
      return { result, s: seconds(t), node: nodeCpu() - n, pg: clusterCpu(postmaster) - p };
    };
    const cpuOf = (m) => `${m.s.toFixed(2)} s (CPU ${m.node.toFixed(1)} + ${m.pg.toFixed(1)} s)`;
    const timedSnapshot = (by) => timedJob(() => takeSnapshot(db, instantChain, snapshotSettings, by));
    for (let d = 0; d < DAYS; d++) {
      const day = addDays(first, d);
      await maintain();
      await writtenOn(day);
      if (withSnapshot && d === DAYS - 1) {
        firstSnapshot = await timedSnapshot({ actor: 'bench' });
        log(`the users' first snapshot (their nonces made): ${cpuOf(firstSnapshot)}`);
      }
      const sizeBefore = await size();
      const accrued = await timedJob(() => accrueDay(db, 'coin', day, '0.08'));
      const sizeAfter = await size();
      let referralRows = null;
      let referralBytes = null;
      let referralMemberRows = null;
      let rewarded = null;
      if (d >= DAYS - REFERRAL_DAYS) {
        // The referral rows (0035): one per referrer and day, and each member's share per month (new rows
        // the first day of a month, updated in place after). Bytes of both tables, heap and indexes.
        const referralSize = async () =>
          one(sql`select pg_total_relation_size('referral_day_rewards') + pg_total_relation_size('referral_member_rewards') as b,
                         (select count(*) from referral_day_rewards) as d, (select count(*) from referral_member_rewards) as m`);
        const before = await referralSize();
        rewarded = await timedJob(() => rewardDay(db, prices, 'coin', day));
        const after = await referralSize();
        referralRows = Number(after.d) - Number(before.d);
        referralMemberRows = Number(after.m) - Number(before.m);
        referralBytes = Number(after.b) - Number(before.b);
      }
      let snapped = null;
      if (withSnapshot && d === DAYS - 1) {
        snapped = await timedSnapshot({ actor: 'bench', day });
        log(`${day}: snapshot ${cpuOf(snapped)}`);
      }
      const positions = accrued.result.positions;
      days.push({ day, positions, accrued, bytesPerPosition: (sizeAfter - sizeBefore) / Math.max(1, positions), rewarded, referralRows, referralMemberRows, referralBytes, snapped });
      log(`${day}: accrual ${cpuOf(accrued)}${rewarded === null ? '' : `, referral ${cpuOf(rewarded)}, ${referralRows} day rows, ${referralMemberRows} new (member, month) rows, ${(referralBytes / 2 ** 20).toFixed(1)} MiB`}`);
    }
    // The vesting of the last day's rewards, which the daily run does when their period has passed (its
    // own day's step beside the accrual and the referral step): every earner of that day checked again.
    const due = await one(sql`select max(vests_on)::text as day from referral_reward_days where not decided`);
    const vested = due.day ? await timedJob(() => vestRewards(db, due.day)) : null;
    if (vested) log(`vesting of the last day's rewards (due ${due.day}): ${cpuOf(vested)}, ${vested.result.vested} earned, ${vested.result.forfeited} forfeited`);
    const positionDays = days.reduce((n, d) => n + d.positions, 0);
    const bytesPerPositionDay = ((await size()) - postingsBefore) / Math.max(1, positionDays);
    await db.execute(sql`vacuum analyze`);

    // The ledger checks: the first incremental run reads everything once (no checkpoint yet), then
    // one more day's worth, then nothing new; the full check reads everything.
    // The incremental check tells each of its database transactions (a step of a pass over a large batch).
    const timed = async (f) => {
      const steps = [];
      const t = process.hrtime.bigint();
      const r = await f({ onStep: (step) => void steps.push(step) });
      return { s: seconds(t), ok: r.ok, transactions: r.transactions, steps };
    };
    const checks = [];
    checks.push({ name: 'incremental, first run (no checkpoint)', ...(await timed((o) => checkLedgerIncremental(db, o))) });
    const extra = addDays(first, DAYS);
    await writtenOn(extra);
    const te = process.hrtime.bigint();
    await accrueDay(db, 'coin', extra, '0.08');
    const extraAccrual = seconds(te);
    checks.push({ name: `incremental after a day of ${N} positions`, ...(await timed((o) => checkLedgerIncremental(db, o))) });
    checks.push({ name: 'incremental, nothing new', ...(await timed((o) => checkLedgerIncremental(db, o))) });
    checks.push({ name: 'full (--full)', ...(await timed(() => checkLedger(db))) });
    await db.execute(sql`alter table ledger_transactions alter column created_at set default now()`);
    await db.execute(sql`alter table ledger_postings alter column written_week set default ledger_week(now())`);
    // The job's own statement (accrual.ts, nextDay): the round trip, and the database's execution time.
    const nextDayQuery = sql`select day::text as day from interest_days where pool = 'coin' order by interest_days.day desc limit 1`;
    const nextDayProbe = await timed(async () => {
      await one(nextDayQuery);
      return { ok: true, transactions: 0 };
    });
    const nextDayPlan = (await one(sql`explain (analyze, format json) ${nextDayQuery}`))['QUERY PLAN'][0];

    // The reads, 10 connections, /profile first and last (its mean is the reference): on the API
    // that keeps answers (the bench reads one user over and over, so every request after the first
    // is answered from memory), then on the one that computes every answer, with the CPU each
    // request of it cost the API process and the cluster.
    // BENCH_API_PROFILE=<folder>: the computing API's CPU profile (node --cpu-prof), written there when it stops.
    const profile = process.env.BENCH_API_PROFILE;
    const computed = await startApi({ READ_CACHE_MS: '0' }, profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] : []);
    const run = (opts) => new Promise((resolve, reject) => autocannon({ duration, connections, ...opts }, (err, r) => (err ? reject(err) : resolve(r))));
    const auth = (token) => ({ authorization: `Bearer ${token}` });
    const routes = [
      ['GET /profile', '/api/v1/profile', userToken],
      ['GET /cabinet/summary', '/api/v1/cabinet/summary', userToken],
      ['GET /cabinet/activity', '/api/v1/cabinet/activity?page=1&size=20', userToken],
      ['GET /cabinet/revision', '/api/v1/cabinet/revision', userToken],
      ['GET /dashboard/pools/coin', '/api/v1/dashboard/pools/coin', userToken],
      ['GET /referrals (ordinary user)', '/api/v1/referrals', userToken],
      ['GET /referrals (top referrer)', '/api/v1/referrals', topToken],
      ['GET /dao/personal', '/api/v1/dao/personal', userToken],
      ['GET /pools/coin/reserves', '/api/v1/pools/coin/reserves', null],
      ['GET /profile', '/api/v1/profile', userToken],
    ];
    const processCpu = (pid) => ticksOf(pid).own / 100;
    const measureOn = async (server) => {
      const measured = [];
      for (const [name, route, token] of routes) {
        const opts = { url: `${server.base}${route}`, headers: token ? auth(token) : {} };
        await run({ ...opts, duration: 1 });
        const [c0, p0] = [processCpu(server.pid), clusterCpu(postmaster)];
        const r = await run(opts);
        const n = Math.max(1, r.requests.total);
        const cpu = { api: ((processCpu(server.pid) - c0) * 1000) / n, pg: ((clusterCpu(postmaster) - p0) * 1000) / n };
        measured.push({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts, cpu });
        log(`${name}: ${r.requests.average.toFixed(0)} req/s`);
      }
      const profiles = measured.filter((m) => m.name === 'GET /profile');
      const mid = (f) => (f(profiles[0]) + f(profiles[1])) / 2;
      const profile = { ...profiles[0], rps: mid((m) => m.rps), p50: mid((m) => m.p50), p99: mid((m) => m.p99), bad: profiles[0].bad + profiles[1].bad, cpu: { api: mid((m) => m.cpu.api), pg: mid((m) => m.cpu.pg) } };
      return [profile, ...measured.filter((m) => m.name !== 'GET /profile')];
    };
    log('the reads, answers kept');
    const keptRows = await measureOn(kept);
    log('the reads, every answer computed');
    const computedRows = await measureOn(computed);

    const totalSize = Number((await one(sql`select pg_database_size(current_database()) as b`)).b);
    const refDay = days.filter((d) => d.rewarded !== null);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const out = [];
    out.push(`npm run bench:scale — ${N} users × ${DAYS} days on PostgreSQL 15, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}, ${new Date().toISOString().slice(0, 10)}`);
    out.push('');
    out.push(`seeded in ${seedSeconds.toFixed(1)} s; database ${(totalSize / 2 ** 20).toFixed(0)} MiB after ${DAYS + 1} days`);
    out.push('');
    out.push(`| route (${connections} connections, ${duration} s) | kept: p50 ms | p99 ms | req/s | ÷ /profile | computed: p50 ms | p99 ms | req/s | ÷ /profile | CPU ms a request, API + PostgreSQL | non-2xx |`);
    out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const [keptProfile, computedProfile] = [keptRows[0].rps, computedRows[0].rps];
    keptRows.forEach((k, i) => {
      const c = computedRows[i];
      out.push(
        `| ${k.name} | ${k.p50.toFixed(1)} | ${k.p99.toFixed(1)} | ${k.rps.toFixed(0)} | ${(k.rps / keptProfile).toFixed(2)} | ${c.p50.toFixed(1)} | ${c.p99.toFixed(1)} | ${c.rps.toFixed(0)} | ${(c.rps / computedProfile).toFixed(2)} | ${c.cpu.api.toFixed(2)} + ${c.cpu.pg.toFixed(2)} | ${k.bad + c.bad} |`,
      );
    });
    out.push('');
    out.push('| storage and the day\'s jobs | measured |');
    out.push('|---|---|');
    out.push(`| interest postings, heap and indexes (ledger_postings + ledger_transactions), per position-day | ${bytesPerPositionDay.toFixed(0)} B |`);
    out.push(`| accrual of one day, mean of ${DAYS} (first / last) | ${mean(days.map((d) => d.accrued.s)).toFixed(2)} s (${days[0].accrued.s.toFixed(2)} / ${days.at(-1).accrued.s.toFixed(2)}) |`);
    out.push(`| autovacuum's work the bench ran between days (untimed in the jobs: the altered defaults' locks cancel it) | ${maintenance.runs.length} runs, ${maintenance.s.toFixed(1)} s |`);
    out.push(`| referral step of one day (mean of ${refDay.length}) | ${mean(refDay.map((d) => d.rewarded.s)).toFixed(2)} s, ${mean(refDay.map((d) => d.referralRows)).toFixed(0)} rows per (referrer, day) + ${mean(refDay.map((d) => d.referralMemberRows)).toFixed(0)} new (member, month) rows, ${(mean(refDay.map((d) => d.referralBytes)) / 2 ** 20).toFixed(1)} MiB |`);
    const lastDay = days.at(-1);
    if (lastDay.snapped !== null && lastDay.rewarded !== null) {
      const [a, r, sn] = [lastDay.accrued.s, lastDay.rewarded.s, lastDay.snapped.s];
      out.push(`| the last day's jobs: accrual + referral step + solvency snapshot | ${a.toFixed(2)} + ${r.toFixed(2)} + ${sn.toFixed(2)} = **${(a + r + sn).toFixed(2)} s** |`);
      out.push(`| (the users' first snapshot, which makes every nonce, once) | ${cpuOf(firstSnapshot)} |`);
    }
    if (vested) out.push(`| vesting of the last day's rewards, when due (the daily run's third step) | ${cpuOf(vested)}, ${vested.result.vested} rewards earned |`);
    // What the cores could do at best: every job's CPU (this process's and the cluster's) spread over all of them, all the time.
    const jobs = [['accrual', lastDay.accrued], ['referral step', lastDay.rewarded], ['snapshot', lastDay.snapped]].filter(([, m]) => m);
    const cpu = jobs.reduce((a, [, m]) => a + m.node + m.pg, 0);
    out.push(`| the last day's CPU, node + PostgreSQL: ${jobs.map(([name]) => name).join('; ')} | ${jobs.map(([, m]) => `${m.node.toFixed(1)} + ${m.pg.toFixed(1)} s`).join('; ')} |`);
    out.push(`| that CPU in all, and over ${os.cpus().length} cores (the least wall time it allows) | ${cpu.toFixed(1)} s, ${(cpu / os.cpus().length).toFixed(1)} s |`);
    out.push(`| the interest job's next-day lookup (its markers): round trip, of which the database | ${(nextDayProbe.s * 1000).toFixed(2)} ms, ${nextDayPlan['Execution Time'].toFixed(3)} ms |`);
    const stepsOf = (c) =>
      c.steps.length > 1 ? `, in ${c.steps.length} steps (the longest ${(Math.max(...c.steps.map((x) => x.ms)) / 1000).toFixed(2)} s, the last ${(c.steps.at(-1).ms / 1000).toFixed(2)} s)` : '';
    for (const c of checks) out.push(`| ledger check, ${c.name} | ${c.s.toFixed(2)} s${c.steps ? stepsOf(c) : ''}, ${c.transactions} transactions read, ${c.ok ? 'OK' : 'FAILED'} |`);
    out.push(`| (the day accrued before the second incremental check) | ${extraAccrual.toFixed(2)} s |`);
    console.log(`\n${out.join('\n')}`);
  } finally {
    await database.close();
  }
} finally {
  for (const c of children.reverse()) await c.stop();
  if (process.env.BENCH_EXPLAIN_MS) {
    try {
      copyFileSync(`${dir}/log/postgres.log`, path.join(os.tmpdir(), 'bench-scale-explain.log'));
    } catch {
      /* no statement was slow enough */
    }
  }
  // BENCH_KEEP: the cluster's files stay (for trying a statement on the bench's book afterwards).
  if (process.env.BENCH_KEEP) log(`kept ${dir} (postgres -D ${dir}/data -k ${dir})`);
  else rmSync(dir, { recursive: true, force: true });
}
