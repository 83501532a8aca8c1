// One size of `npm run bench:solvency` (scripts/bench-solvency.mjs starts the PostgreSQL it runs
// on): N users with positions in two currencies, straight into the ledger's accounts; two snapshots
// (the first makes the users' nonces, the second is a day's like any after); their seconds, the
// process's peak RSS, the bytes the first stored, and proof requests' p99 in the second.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { openDatabase, type Db } from '../src/db/client';
import { rows } from '../src/db/rows';
import { seed } from '../src/db/seed';
import { proofOf, takeSnapshot } from '../src/solvency';
import { instantChain as chain, seedPositions } from './solvency-seed';

const users = Number(process.argv[2]);
const url = process.env.BENCH_DATABASE_URL!;

/**
 * CPU seconds the database's server processes have used (their /proc/<pid>/stat; the cluster runs
 * on this machine): with the machine shared, CPU time is steadier than wall time.
 */
async function postgresCpu(db: Db): Promise<number> {
  const pids = await rows<{ pid: number }>(db, sql`select pid from pg_stat_activity where datname = current_database()`);
  let ticks = 0;
  for (const { pid } of pids) {
    try {
      // utime and stime: the 14th and 15th fields, counted after the command's closing parenthesis.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Not on Linux, or the process has gone: its share is not counted.
    }
  }
  return ticks / 100;
}

async function main() {
  const { db, close } = await openDatabase({ kind: 'postgres', url });
  await seed(db);
  const seedStart = performance.now();
  await seedPositions(db, users, 'bench');
  await db.execute(sql`analyze`);
  const seeded = (performance.now() - seedStart) / 1000;

  // The first snapshot also makes every user's nonce; the next one (the next day's) only reads them.
  const build = async () => {
    const pgBefore = await postgresCpu(db);
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const taken = await takeSnapshot(db, chain, { chainId: 1, confirmations: 12, solvency: new Wallet(`0x${'11'.repeat(32)}`), brandTitle: 'Bench', custody: null, pageSize: 5000 }, { actor: 'bench' });
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    return { taken, seconds, nodeCpu: (cpu.user + cpu.system) / 1e6, pgCpu: (await postgresCpu(db)) - pgBefore };
  };
  const first = await build();
  const [size] = await rows<{ bytes: string }>(
    db,
    sql`select (pg_total_relation_size('solvency_blocks') + pg_total_relation_size('solvency_parts') + pg_total_relation_size('solvency_nonces') + pg_total_relation_size('solvency_snapshots'))::text as bytes`,
  );
  const next = await build();
  const { taken } = next;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const sample = await rows<{ id: string }>(db, sql`select user_id::text as id from solvency_parts where snapshot_id = ${taken.id} and part = 0 order by random() limit 1000`);
  const times: number[] = [];
  for (const { id } of sample) {
    const t0 = performance.now();
    await proofOf(db, id, taken.id);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!;
  const cpu = (b: typeof first) => ({ seconds: b.seconds, nodeCpu: b.nodeCpu, pgCpu: b.pgCpu });
  console.log(JSON.stringify({ users, leaves: taken.leafCount, seeded, first: cpu(first), next: cpu(next), peakRssMb: Math.round(peakRssMb), bytes: Number(size!.bytes), p50: times[Math.floor(times.length / 2)], p99 }));
  await close();
}

void main();
