// The browser tests: Debian's Chromium (installed here when missing and apt-get can be used),
// a production build of every front end plus a labelled second build of mf-cabinet, then
// Playwright. Extra arguments go to `playwright test` (e.g. a file name or --grep).
// The full run (no arguments) then runs the replicas' tests (e2e/replicas/: PostgreSQL, two API
// processes) on a stack of their own; `-- --replicas [args]` runs only those.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../shared/build/index.mjs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', cwd: repoRoot, ...opts }).status ?? 1;

if (!existsSync(chromium)) {
  const canApt = process.getuid?.() === 0 && spawnSync('which', ['apt-get']).status === 0;
  if (!canApt) {
    console.error(`Chromium is missing: run "sudo apt-get install -y chromium" (or set CHROMIUM_PATH), then npm test again.`);
    process.exit(1);
  }
  console.log('Installing Chromium from Debian…');
  if (run('apt-get', ['update', '-qq']) !== 0 || run('apt-get', ['install', '-y', '-qq', 'chromium']) !== 0) process.exit(1);
}

const args = process.argv.slice(2);
const skipBuild = args.includes('--no-build');
const replicasOnly = args.includes('--replicas');
const pwArgs = args.filter((a) => a !== '--no-build' && a !== '--replicas');
if (!skipBuild) {
  if (run(process.execPath, ['scripts/build.mjs']) !== 0) process.exit(1);
  if (run(process.execPath, ['scripts/build.mjs', 'mf-cabinet', '--label', 'Canary build', '--out', join(repoRoot, 'e2e/.builds')]) !== 0) process.exit(1);
}
const playwright = (config) => run(process.execPath, [join(repoRoot, 'node_modules/@playwright/test/cli.js'), 'test', '-c', config, ...pwArgs]);
// One stack at a time: the replicas' stack uses the same ports once the main one has stopped.
const site = replicasOnly ? 0 : playwright('e2e/playwright.config.ts');
const replicas = replicasOnly || pwArgs.length === 0 ? playwright('e2e/playwright.replicas.config.ts') : 0;
process.exit(site || replicas);
