// Scripts stop every process they start, and what those start in turn: after a benchmark's short
// run, on Ctrl-C and after an uncaught error (scripts/processes.mjs). A run is told apart from the
// rest of the machine by a marker in its environment, which every process it starts inherits.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** The processes alive with the marker in their environment: all that a run started, however deep. */
function marked(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(`CLEANUP_MARKER=${marker}`)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The TCP ports those processes listen on: sockets in state LISTEN, matched to their open files by inode. */
function listening(pids: number[]): number[] {
  const ports = new Map<string, number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A') ports.set(f[9]!, parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  const found: number[] = [];
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (inode && ports.has(inode)) found.push(ports.get(inode)!);
      } catch {
        // closed meanwhile
      }
    }
  }
  return found;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (a little) for what a signal killed to be gone; answers what is left. */
async function leftAfterExit(marker: string): Promise<{ processes: number[]; ports: number[] }> {
  for (let i = 0; i < 20 && marked(marker).length; i++) await sleep(100);
  const processes = marked(marker);
  return { processes, ports: listening(processes) };
}

/** Runs a script with a fresh marker; `whenListening` is called once it and what it started listen on `ports` ports. */
function run(args: string[], env: Record<string, string>, ports: number, whenListening: (pid: number) => void = () => undefined) {
  const marker = randomUUID();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env, CLEANUP_MARKER: marker }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  let seen = 0;
  const watch = setInterval(() => {
    seen = Math.max(seen, listening(marked(marker)).length);
    if (seen >= ports) {
      clearInterval(watch);
      whenListening(child.pid!);
    }
  }, 100);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return exited.then(async (code) => {
    clearInterval(watch);
    return { code, out, marker, seen, ...(await leftAfterExit(marker)) };
  });
}

const fixture = path.join(root, 'scripts/test/fixtures/holds-servers.mjs');

it('the chain (anvil) and the API, each run by tsx in a second process as the stack runs them, are gone after the script fails', async () => {
  const r = await run([path.join(root, 'scripts/test/fixtures/chain-and-api.mjs')], {}, 2);
  expect(r.out).toContain('a later step fails');
  // anvil and the API's node process were seen listening while the script ran.
  expect(r.seen).toBeGreaterThanOrEqual(2);
  expect({ code: r.code, processes: r.processes, ports: r.ports }).toEqual({ code: 1, processes: [], ports: [] });
}, 240_000);

it('after a short run of a benchmark (bench:api), nothing it started is still running or listening', async () => {
  const r = await run(['scripts/bench-api.mjs'], { BENCH_DURATION: '1', BENCH_ROUNDS: '1', BENCH_CONNECTIONS: '2', BENCH_LOGIN_CONNECTIONS: '1' }, 2);
  expect([r.code, r.out]).toEqual([0, expect.stringContaining('API benchmark')]);
  // While it ran, its servers (the hello-world and the API) were seen listening: the probe sees them.
  expect(r.seen).toBeGreaterThanOrEqual(2);
  expect({ processes: r.processes, ports: r.ports }).toEqual({ processes: [], ports: [] });
}, 180_000);

it('on Ctrl-C a script stops its servers and the servers they started, then exits 130', async () => {
  const r = await run([fixture], {}, 2, (pid) => process.kill(pid, 'SIGINT'));
  expect(r.seen).toBe(2);
  expect({ code: r.code, processes: r.processes, ports: r.ports }).toEqual({ code: 130, processes: [], ports: [] });
}, 60_000);

it('after an uncaught error a script leaves none of its servers behind', async () => {
  const r = await run([fixture, 'throw'], {}, 2);
  expect(r.seen).toBe(2);
  expect(r.out).toContain('the script fails');
  expect({ code: r.code, processes: r.processes, ports: r.ports }).toEqual({ code: 1, processes: [], ports: [] });
}, 60_000);
