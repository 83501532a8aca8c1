// npm start: build everything in production mode, then run the whole site until Ctrl-C.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../shared/build/index.mjs';
import { startStack } from './stack.mjs';

if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const stack = await startStack();
console.log(`\nThe site is running at ${stack.url}  (Ctrl-C stops everything)\n`);
for (const [name, port] of Object.entries(stack.ports)) console.log(`  ${name.padEnd(12)} http://localhost:${port}`);
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
