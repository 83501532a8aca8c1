#!/usr/bin/env node
// Benchmark of deposits on the local chain (issue 5). A fresh anvil (its own process) and the API
// in this process, listening on loopback; requests go over HTTP. Prints two tables:
//   1. verification: POST /dashboard/deposit throughput (deposits/s) and latency, K deposits
//      (half ETH, half USDT) from S wallets, C requests in flight; the credit job is off meanwhile.
//   2. crediting: the time from the block that gives a deposit its Nth confirmation to the row
//      being credited by the background job (median, p99), over R rounds of M deposits, blocks mined
//      every BLOCK_MS while the job runs at its configured interval.
//   3. the chain watcher: catch-up speed from block 0, its lag behind the head and credited deposits
//      per second for transfers nobody reported.
// Env: BENCH_K (200), BENCH_SENDERS (20), BENCH_CONCURRENCY (16), BENCH_CONFIRMATIONS (12),
// BENCH_JOB_INTERVAL_MS (1000), BENCH_ROUNDS (10), BENCH_ROUND_SIZE (20), BENCH_BLOCK_MS (200),
// BENCH_WATCH_K (200: transfers the chain watcher finds with nobody reporting them, phase 3),
// DATABASE_URL (optional: PostgreSQL instead of in-memory PGlite).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');

// The API and the chain package are TypeScript: run under tsx's loader.
if (!process.env.BENCH_CHAIN_UNDER_TSX) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', self], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BENCH_CHAIN_UNDER_TSX: '1' },
  });
  process.exit(r.status ?? 1);
}

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const K = env('BENCH_K', 200);
const SENDERS = env('BENCH_SENDERS', 20);
const CONCURRENCY = env('BENCH_CONCURRENCY', 16);
const N = env('BENCH_CONFIRMATIONS', 12);
const JOB_MS = env('BENCH_JOB_INTERVAL_MS', 1000);
const ROUNDS = env('BENCH_ROUNDS', 10);
const ROUND_SIZE = env('BENCH_ROUND_SIZE', 20);
const BLOCK_MS = env('BENCH_BLOCK_MS', 200);
const BLOCK_TXS = env('BENCH_BLOCK_TXS', 20);
const WATCH_K = env('BENCH_WATCH_K', 200);

const { Interface, JsonRpcProvider, Network, Wallet } = await import('ethers');
const { startChain, rpc, mine } = await import('../chain/src/index.ts');
const { TOKENS, ERC20_ABI } = await import('../shared/web3/src/index.ts');
const { buildServer } = await import('../api/src/app.ts');
const { loadConfig } = await import('../api/src/config/index.ts');
const { LOCAL_POOL_ADDRESSES } = await import('../api/src/db/seed.ts');
const { users, deposits } = await import('../api/src/db/schema/index.ts');
// drizzle-orm is the API's own dependency (api/node_modules): load the copy the API uses.
const { eq, inArray } = createRequire(path.join(root, 'api/package.json'))('drizzle-orm');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
const ms = (v) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : '-');

const chain = await startChain({ port: 0, quiet: true });
const config = loadConfig({
  NODE_ENV: 'test',
  LOCAL_CHAIN: 'true',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01',
  ARGON2_MEMORY_KIB: '1024',
  ARGON2_TIME_COST: '1',
  RATE_LIMIT_MULTIPLIER: '100000',
  UNIFORM_RESPONSE_MS: '0',
  LOG_LEVEL: 'error',
  RPC_URL: chain.rpcUrl,
  DEPOSIT_CONFIRMATIONS: String(N),
  // Off during the verification phase; started for the crediting phase.
  DEPOSIT_JOB_INTERVAL_MS: '0',
  // The watcher runs only in phase 3, by the bench's own hand.
  MONEY_JOBS_INTERVAL_MS: '0',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
let database;
if (!process.env.DATABASE_URL) {
  const { openDatabase } = await import('../api/src/db/client.ts');
  database = await openDatabase({ kind: 'pglite', dataDir: null });
}
const app = await buildServer(config, { database, logger: { level: 'error' } });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${app.server.address().port}/api/v1`;
const db = app.services.db;

async function shutdown() {
  await app.close().catch(() => undefined);
  await database?.close().catch(() => undefined);
  await chain.stop().catch(() => undefined);
}

try {
  const provider = new JsonRpcProvider(chain.rpcUrl, Network.from(1), { staticNetwork: true, cacheTimeout: -1 });
  const erc20 = new Interface(ERC20_ABI);
  const usdt = TOKENS[1].USDT.address;

  // Senders: fresh wallets, funded, each linked to its own confirmed account (registered and signed
  // in over HTTP; the confirmation and the link are written directly: the mail and SIWE flows are
  // measured elsewhere, not here).
  const senders = [];
  const json = async (path, body) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const out = await res.json();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(out)}`);
    return out;
  };
  for (let i = 0; i < SENDERS; i++) {
    const wallet = Wallet.createRandom().connect(provider);
    await chain.fund(wallet.address, { eth: '1000', tokens: { USDT: '1000000' } });
    const account = { login: `bench${i}.${Date.now()}@example.com`, password: 'Str0ng!pass' };
    const registered = await json('/register', account);
    await db
      .update(users)
      .set({ walletAddress: wallet.address.toLowerCase(), role: 'user', emailConfirmedAt: new Date() })
      .where(eq(users.id, registered.user.id));
    const signedIn = await json('/login', account);
    senders.push({ wallet, token: signedIn.token, nonce: await provider.getTransactionCount(wallet.address, 'pending') });
  }

  /** Sends `count` transfers (alternating ETH to the coin pool and USDT to the stable pool), `perBlock` to a block. */
  async function sendBatch(count, tag, perBlock = count) {
    await rpc(chain.rpcUrl, 'evm_setAutomine', [false]);
    const sent = [];
    for (let i = 0; i < count; i++) {
      if (i && i % perBlock === 0) await mine(chain.rpcUrl, 1);
      const s = senders[i % senders.length];
      const eth = i % 2 === 0;
      const amount = eth ? 10n ** 15n + BigInt(i) : 1_000_000n + BigInt(i);
      const tx = eth
        ? { to: LOCAL_POOL_ADDRESSES.coin, value: amount, gasLimit: 21_000n }
        : { to: usdt, data: erc20.encodeFunctionData('transfer', [LOCAL_POOL_ADDRESSES.stable, amount]), gasLimit: 80_000n };
      const signed = await s.wallet.signTransaction({ ...tx, nonce: s.nonce++, chainId: 1n, type: 2, maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n });
      const hash = await rpc(chain.rpcUrl, 'eth_sendRawTransaction', [signed]);
      sent.push({ hash, token: s.token, pool: eth ? 'coin' : 'stable', currency: eth ? 'ETH' : 'USDT', amount: String(amount), tag });
    }
    await mine(chain.rpcUrl, 1);
    // Everything in the pool went into that block (the block gas limit fits a few hundred transfers).
    while (Number(await rpc(chain.rpcUrl, 'eth_getBlockTransactionCountByNumber', ['pending'])) > 0) await mine(chain.rpcUrl, 1);
    await rpc(chain.rpcUrl, 'evm_setAutomine', [true]);
    return sent;
  }

  async function post(d) {
    const t0 = performance.now();
    const res = await fetch(`${base}/dashboard/deposit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${d.token}` },
      body: JSON.stringify({ pool: d.pool, amount: d.amount, currency: d.currency, transaction: d.hash }),
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`deposit ${d.hash}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - t0, id: body.id };
  }

  async function postAll(list, concurrency) {
    const latencies = [];
    const ids = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, list.length) }, async () => {
        while (next < list.length) {
          const d = list[next++];
          const r = await post(d);
          latencies.push(r.ms);
          ids.push(r.id);
        }
      }),
    );
    return { latencies: latencies.sort((a, b) => a - b), ids };
  }

  // Phase 0: what the node alone answers, the same reads at the same concurrency (the ceiling).
  const batch = await sendBatch(K, 'verify', BLOCK_TXS);
  const nodeStart = performance.now();
  {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batch.length) {
          const d = batch[next++];
          await Promise.all([
            rpc(chain.rpcUrl, 'eth_getTransactionReceipt', [d.hash]),
            d.currency === 'ETH' ? rpc(chain.rpcUrl, 'eth_getTransactionByHash', [d.hash]) : null,
          ]);
        }
      }),
    );
  }
  const nodeSeconds = (performance.now() - nodeStart) / 1000;

  // Phase 1: verification throughput.
  const warm = await postAll(batch.slice(0, 4), 1);
  const t0 = performance.now();
  const phase1 = await postAll(batch.slice(4), CONCURRENCY);
  const seconds = (performance.now() - t0) / 1000;
  const verified = batch.length - 4 + warm.ids.length;

  // Phase 2: from the Nth confirmation to credited, with the job running at its interval.
  config.deposits.jobIntervalMs = JOB_MS;
  app.services.depositJob.start();
  // Let the job credit the backlog of phase 1 first.
  await mine(chain.rpcUrl, N);
  for (let i = 0; i < 200; i++) {
    const rows = await db.select({ id: deposits.id }).from(deposits).where(eq(deposits.status, 'pending'));
    if (!rows.length) break;
    await sleep(100);
  }
  const creditLatencies = [];
  for (let round = 0; round < ROUNDS; round++) {
    const list = await sendBatch(ROUND_SIZE, `round${round}`);
    const { ids } = await postAll(list, CONCURRENCY);
    // The batch's block is confirmation 1; mine up to N, a block every BLOCK_MS.
    let nth = 0;
    for (let c = 2; c <= N; c++) {
      await sleep(BLOCK_MS);
      await mine(chain.rpcUrl, 1);
      nth = Date.now();
    }
    if (N === 1) nth = Date.now();
    for (;;) {
      const rows = await db.select({ status: deposits.status, creditedAt: deposits.creditedAt }).from(deposits).where(inArray(deposits.id, ids));
      if (rows.every((r) => r.status === 'credited')) {
        for (const r of rows) creditLatencies.push(Math.max(0, r.creditedAt.getTime() - nth));
        break;
      }
      await sleep(10);
    }
  }
  creditLatencies.sort((a, b) => a - b);
  await app.services.depositJob.stop();

  // Phase 3: the chain watcher. First it catches up from block 0 (everything above), then W
  // transfers are sent straight to the pool addresses with nobody reporting them; the watcher and
  // the deposit job run back to back until all are credited. Lag: blocks between the head and the
  // watcher's cursor after each step.
  const catchUpStart = performance.now();
  let caughtUp = 0;
  for (;;) {
    const r = await app.services.watcher.run();
    caughtUp = r.to;
    if (r.to >= r.head) break;
  }
  const catchUpSeconds = (performance.now() - catchUpStart) / 1000;
  const watchStart = performance.now();
  const watched = await sendBatch(WATCH_K, 'watch', BLOCK_TXS);
  const lags = [];
  let creditedWatched = 0;
  for (let step = 0; step < 10_000; step++) {
    const r = await app.services.watcher.run();
    lags.push(r.head - r.to);
    if (step % 3 === 0) await mine(chain.rpcUrl, 1);
    await app.services.depositJob.tick();
    const rows = await db.select({ status: deposits.status }).from(deposits).where(inArray(deposits.txHash, watched.map((w) => w.hash.toLowerCase())));
    creditedWatched = rows.filter((x) => x.status === 'credited').length;
    if (creditedWatched === watched.length) break;
  }
  const watchSeconds = (performance.now() - watchStart) / 1000;
  lags.sort((a, b) => a - b);

  const lines = [
    ['setting', 'value'],
    ['chain', 'anvil (own process), chain id 1'],
    ['database', process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite in memory'],
    ['confirmations N', String(N)],
    ['job interval', `${JOB_MS} ms`],
    ['senders / in flight', `${SENDERS} / ${CONCURRENCY}`],
    ['transactions per block', `${BLOCK_TXS} (phase 1), ${ROUND_SIZE} (phase 2)`],
  ];
  const results = [
    ['measure', 'value'],
    ['deposits verified (POST, ETH+USDT)', String(verified)],
    ['verification throughput', `${((batch.length - 4) / seconds).toFixed(1)} deposits/s`],
    ['node alone, same reads (ceiling)', `${(batch.length / nodeSeconds).toFixed(1)} deposits/s`],
    ['POST latency median', ms(pct(phase1.latencies, 50))],
    ['POST latency p99', ms(pct(phase1.latencies, 99))],
    [`credited deposits measured (${ROUNDS} rounds x ${ROUND_SIZE})`, String(creditLatencies.length)],
    ['Nth confirmation -> credited, median', ms(pct(creditLatencies, 50))],
    ['Nth confirmation -> credited, p99', ms(pct(creditLatencies, 99))],
    ['Nth confirmation -> credited, max', ms(creditLatencies[creditLatencies.length - 1])],
    [`watcher catch-up from block 0 (${caughtUp} blocks)`, `${(caughtUp / catchUpSeconds).toFixed(0)} blocks/s`],
    [`watched transfers credited, nobody reporting (${WATCH_K})`, `${creditedWatched}`],
    ['watched: send -> all credited', `${(creditedWatched / watchSeconds).toFixed(1)} deposits/s`],
    ['watcher lag behind the head, median / max', `${pct(lags, 50)} / ${lags[lags.length - 1]} blocks`],
  ];
  const print = (rows) => {
    const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length))];
    const line = (r) => `| ${r[0].padEnd(w[0])} | ${r[1].padStart(w[1])} |`;
    console.log(line(rows[0]));
    console.log(`|${'-'.repeat(w[0] + 2)}|${'-'.repeat(w[1] + 1)}:|`);
    for (const r of rows.slice(1)) console.log(line(r));
  };
  print(lines);
  console.log('');
  print(results);
} finally {
  await shutdown();
}
