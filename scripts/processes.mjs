// Long-lived child processes that never outlive the script that started them. Each child leads a
// process group of its own, so a signal to the group also reaches what it started in turn (tsx runs
// the script in a second node process; the chain runs anvil). They are stopped by stop(); on Ctrl-C,
// SIGTERM or SIGHUP (which no longer reach them from the terminal, their groups being their own);
// and, killed outright, whenever this process exits, also after an uncaught error.
// scripts/processes.test.ts checks it.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** Each running child and its stop(). */
const running = new Map();

/** Sends a signal to the child's whole group; a group that is gone is no error. */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

let installed = false;
function install() {
  if (installed) return;
  installed = true;
  process.on('exit', () => {
    for (const child of running.keys()) signalGroup(child, 'SIGKILL');
  });
  for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
    process.on(signal, () => {
      const stopped = Promise.all([...running.values()].map((stop) => stop()));
      // A host with handlers of its own (Playwright's runner) decides when to exit; a script exits
      // as the signal would have made it, once its children have stopped.
      if (process.listenerCount(signal) === 1) void stopped.finally(() => process.exit(128 + number));
    });
  }
}

/**
 * Spawns a child in a process group of its own (the arguments of `spawn`). Answers the child and
 * stop(): SIGTERM to the group, SIGKILL after `graceMs`, resolved once the child has exited.
 */
export function startProcess(command, args, options = {}, { graceMs = 5000 } = {}) {
  install();
  const child = spawn(command, args, { ...options, detached: true });
  const exited = new Promise((resolve) => {
    child.once('exit', resolve);
    child.once('error', resolve);
  });
  let stopping;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        signalGroup(child, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
    })());
  running.set(child, stop);
  void exited.then(() => {
    running.delete(child);
    // Whatever the child started and left behind goes with it.
    if (child.pid !== undefined) signalGroup(child, 'SIGKILL');
  });
  return { child, stop };
}

/** Refuses a port something else listens on: a wait for a server's answer would take that other's for it. */
export function assertFree(port, what) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`port ${port} (${what}) is in use by another process`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}
