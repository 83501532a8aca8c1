// Runs the anvil binary as a child process. The binary is started directly, not through `npx anvil`,
// whose wrapper leaves anvil running when it is killed (DESIGN.md, measured pitfalls).

import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { SUPPORTED_CHAIN_ID } from '@app/contracts';
import { rpc } from './rpc';

const STOP_TIMEOUT_MS = 10_000;

export function anvilBinary(): string {
  const require = createRequire(__filename);
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  const packageJson = require.resolve(`${platformPackage}/package.json`);
  return join(dirname(packageJson), 'bin', 'anvil');
}

/** A TCP port nobody listens on right now (for tests that run several chains). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

interface AnvilProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  /** The last lines anvil wrote to stderr, for error messages. */
  stderrTail(): string;
}

function spawnAnvil(args: string[], quiet: boolean): AnvilProcess {
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    if (!quiet) process.stderr.write(chunk);
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  return { child, exited, stderrTail: () => stderr.trim() };
}

/** Resolves once the chain answers eth_chainId; rejects if anvil exits first or takes too long. */
async function waitUntilAnswering(rpcUrl: string, anvil: AnvilProcess, timeoutMs = 20_000): Promise<void> {
  let exitedEarly = false;
  void anvil.exited.then(() => (exitedEarly = true));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitedEarly) throw new Error(`anvil exited before answering: ${anvil.stderrTail() || 'no output'}`);
    try {
      await rpc(rpcUrl, 'eth_chainId');
      return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`anvil did not answer on ${rpcUrl} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface RunningAnvil {
  readonly rpcUrl: string;
  readonly pid: number;
  /** SIGTERM (anvil then writes its state file) and wait for the exit; SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** Spawns anvil on 127.0.0.1:port with the product's supported chain id (the app takes it for mainnet) and resolves once it answers. */
export async function runAnvil(port: number, extraArgs: string[], quiet: boolean, timeoutMs = 20_000): Promise<RunningAnvil> {
  const rpcUrl = `http://127.0.0.1:${port}`;
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(SUPPORTED_CHAIN_ID), ...extraArgs];
  const anvil = spawnAnvil(args, quiet);
  // Never leave anvil behind if this process exits without calling stop().
  const killOnExit = () => anvil.child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      process.removeListener('exit', killOnExit);
      if (anvil.child.exitCode !== null || anvil.child.signalCode !== null) return;
      anvil.child.kill('SIGTERM');
      const timer = setTimeout(() => anvil.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await anvil.exited;
      clearTimeout(timer);
    })());

  try {
    const pid = anvil.child.pid;
    if (pid === undefined) throw new Error(`anvil did not start: ${anvil.stderrTail()}`);
    await waitUntilAnswering(rpcUrl, anvil, timeoutMs);
    const chainId = Number(await rpc<string>(rpcUrl, 'eth_chainId'));
    if (chainId !== SUPPORTED_CHAIN_ID) throw new Error(`the chain answers chain id ${chainId}, expected ${SUPPORTED_CHAIN_ID}`);
    return { rpcUrl, pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
