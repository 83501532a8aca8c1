import fc from 'fast-check';
import { apiRoutes } from '@app/contracts';
import { anyCase, createFuzzer, fuzzAccount, fuzzCase, statsTable } from './fuzz';
import { startTestApp, type TestApp } from './helpers';

/** A few hundred hostile calls with a fixed seed; `npm run fuzz:api -- --runs N` runs longer. */
const SEED = 20261122;
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

let t: TestApp;
beforeAll(async () => {
  // No chain reads: the deposit job stays off and the node address leads nowhere.
  t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0', RPC_URL: 'http://127.0.0.1:9' });
});
afterAll(() => t?.close());

it('every route answers hostile input below 500, with the standard error body; the answer times are printed', async () => {
  const fuzzer = createFuzzer(t.app, await fuzzAccount(t.app));
  // A few cases per route first, so a route added to the contract is reached whatever the seed does.
  for (const route of Object.keys(apiRoutes) as (keyof typeof apiRoutes)[]) {
    await fc.assert(fc.asyncProperty(fuzzCase(route), (c) => fuzzer.run(c)), { seed: SEED, numRuns: 3, endOnFailure: true });
  }
  await fc.assert(
    fc.asyncProperty(anyCase, (c) => fuzzer.run(c)),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  const table = statsTable(fuzzer.stats);
  console.log(`fuzz: ${RUNS} cases, seed ${SEED}\n${table}`);
  // Every route was reached: the generator covers the whole contract.
  expect(table).not.toMatch(/\| +0 \|/);
}, 300_000);
