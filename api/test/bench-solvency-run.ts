// One size of `npm run bench:solvency` (scripts/bench-solvency.mjs starts the PostgreSQL it runs
// on): N users with positions in two currencies, straight into the ledger's accounts; one snapshot;
// its seconds, the process's peak RSS, the bytes the snapshot stored, and proof requests' p99.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { rows } from '../src/db/rows';
import { seed } from '../src/db/seed';
import type { ChainReader } from '../src/chain';
import { proofOf, takeSnapshot } from '../src/solvency';

const users = Number(process.argv[2]);
const url = process.env.BENCH_DATABASE_URL!;

// The chain is not what is measured: a reader that answers at once, with no declared address.
const chain = {
  chainId: async () => 1,
  blockNumber: async () => 100,
  call: async <T>(method: string) => (method === 'eth_getBlockByNumber' ? { hash: `0x${'ab'.repeat(32)}` } : '0x0') as T,
} as unknown as ChainReader;

async function main() {
  const { db, close } = await openDatabase({ kind: 'postgres', url });
  await seed(db);
  const seedStart = performance.now();
  await db.execute(sql`insert into users (id, email, referral_code, role)
    select gen_random_uuid(), 'bench' || i || '@example.com', 'b' || i, 'user' from generate_series(1, ${users}) i`);
  // Two currencies each: USDT in the stable pool and ETH in the coin pool (credit balances: owed).
  await db.execute(sql`insert into ledger_accounts (key, kind, currency, user_id, pool, balance)
    select 'position:stable:USDT:' || id, 'position', 'USDT', id, 'stable', -(1 + (random() * 1e12)::bigint) from users where email like 'bench%'
    union all
    select 'position:coin:ETH:' || id, 'position', 'ETH', id, 'coin', -(1 + (random() * 1e18)::numeric(40,0)) from users where email like 'bench%'`);
  await db.execute(sql`analyze`);
  const seeded = (performance.now() - seedStart) / 1000;

  const start = performance.now();
  const taken = await takeSnapshot(db, chain, { chainId: 1, confirmations: 12, solvencyKey: `0x${'11'.repeat(32)}`, brandTitle: 'Bench', custody: null, treasuryKey: null, pageSize: 5000 }, { actor: 'bench' });
  const seconds = (performance.now() - start) / 1000;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;

  const [size] = await rows<{ bytes: string }>(
    db,
    sql`select (pg_total_relation_size('solvency_nodes') + pg_total_relation_size('solvency_parts') + pg_total_relation_size('solvency_nonces') + pg_total_relation_size('solvency_snapshots'))::text as bytes`,
  );
  const sample = await rows<{ id: string }>(db, sql`select user_id::text as id from solvency_parts where snapshot_id = ${taken.id} and part = 0 order by random() limit 1000`);
  const times: number[] = [];
  for (const { id } of sample) {
    const t0 = performance.now();
    await proofOf(db, id, taken.id);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!;
  console.log(JSON.stringify({ users, leaves: taken.leafCount, seeded, seconds, peakRssMb: Math.round(peakRssMb), bytes: Number(size!.bytes), p50: times[Math.floor(times.length / 2)], p99 }));
  await close();
}

void main();
