// npm run fuzz:api -- --runs N [--seed S]: the hostile-input property over every route, longer
// than in `npm test` and with a random seed; prints route, cases, 2xx/4xx/5xx and the slowest answer.
import fc from 'fast-check';
import { buildServer } from '../src/app';
import { anyCase, createFuzzer, fuzzAccount, statsTable } from './fuzz';
import { createTestDatabase, testConfig } from './helpers';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const runs = Number(arg('runs') ?? 2000);
const seed = Number(arg('seed') ?? Math.floor(Math.random() * 2 ** 31));

async function main() {
  const db = await createTestDatabase();
  // No SMTP (mail stays unsent), no chain reads, real limits scaled up like the tests'.
  const app = await buildServer(testConfig({ DEPOSIT_JOB_INTERVAL_MS: '0', RPC_URL: 'http://127.0.0.1:9' }), { database: db.database, logger: false });
  const fuzzer = createFuzzer(app, await fuzzAccount(app));
  const failures: string[] = [];
  let done = 0;
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(anyCase, async (c) => {
      try {
        await fuzzer.run(c);
      } catch (err) {
        if (failures.length < 20) failures.push((err as Error).message.slice(0, 400));
      }
      if (++done % 1000 === 0) process.stderr.write(`${done}/${runs} cases, ${Math.round((Date.now() - started) / 1000)} s\n`);
    }),
    { seed, numRuns: runs },
  );
  await app.close();
  await db.drop();
  console.log(`fuzz:api — ${runs} cases, seed ${seed}, ${Math.round((Date.now() - started) / 1000)} s\n`);
  console.log(statsTable(fuzzer.stats));
  if (failures.length) {
    console.log(`\n${failures.length} failing case(s) (first 20):\n${failures.map((f) => `- ${f}`).join('\n')}`);
    process.exitCode = 1;
  } else console.log('\nNo 5xx, every 4xx with the standard error body (answer times in the table).');
}

void main();
