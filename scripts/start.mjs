// npm start: build everything in production mode, then run the whole site until Ctrl-C.
// `-- --no-build` skips the build; `-- --postgres` runs the API on a local PostgreSQL (its cluster
// in .data/postgres) instead of PGlite; `-- --replicas N` runs N API processes behind the shell's
// proxy (PostgreSQL needed).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../shared/build/index.mjs';
import { startStack } from './stack.mjs';

/** `--replicas N`: API processes behind the shell's proxy. */
function replicaCount(argv) {
  const at = argv.indexOf('--replicas');
  if (at < 0) return 1;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 16) {
    console.error('--replicas takes a whole number from 1 to 16, e.g. npm start -- --postgres --replicas 2');
    process.exit(2);
  }
  return n;
}
const replicas = replicaCount(process.argv);
const postgres = process.argv.includes('--postgres');
if (replicas > 1 && !postgres && !process.env.DATABASE_URL) {
  console.error('More than one API replica needs PostgreSQL: npm start -- --postgres --replicas ' + replicas);
  process.exit(2);
}

if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const stack = await startStack({ postgres, replicas });
console.log(`\nThe site is running at ${stack.url}  (Ctrl-C stops everything)\n`);
for (const [name, port] of Object.entries(stack.ports)) {
  if (name === 'postgres' && !postgres) continue;
  if ((name === 'api' || name === 'operatorApi') && stack.replicas.length > 1) continue;
  console.log(`  ${name.padEnd(12)} ${name === 'postgres' ? stack.databaseUrl : `http://localhost:${port}`}`);
}
if (stack.replicas.length > 1) for (const r of stack.replicas) console.log(`  ${r.name.padEnd(12)} ${r.url} (operator ${r.operatorUrl})`);
console.log(`\nMail the site sends (codes, recovery): ${stack.mailInbox}  (MailDev web inbox)\n`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
