// Type-checks every workspace that has a tsconfig.json, one `tsc --noEmit` each, two at a time.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const targets = workspaces.filter((w) => existsSync(join(root, w, 'tsconfig.json')));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

function check(dir) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '--noEmit', '-p', join(root, dir)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ dir, code, out }));
  });
}

let failed = 0;
const queue = [...targets];
async function worker() {
  for (let dir = queue.shift(); dir; dir = queue.shift()) {
    const { code, out } = await check(dir);
    console.log(`${code === 0 ? 'ok  ' : 'FAIL'} typecheck ${dir}`);
    if (code !== 0) {
      failed++;
      process.stdout.write(out);
    }
  }
}
await Promise.all([worker(), worker()]);
process.exit(failed ? 1 : 0);
