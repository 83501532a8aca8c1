// Runs the anvil binary as a child process. The binary is started directly, not through `npx anvil`,
// whose wrapper leaves anvil running when it is killed (DESIGN.md, measured pitfalls).

import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { rpc } from './rpc';

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

export interface AnvilProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  /** The last lines anvil wrote to stderr, for error messages. */
  stderrTail(): string;
}

export function spawnAnvil(args: string[], quiet: boolean): AnvilProcess {
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
export async function waitUntilAnswering(rpcUrl: string, anvil: AnvilProcess, timeoutMs = 20_000): Promise<void> {
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
