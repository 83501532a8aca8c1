// @app/chain: the local Ethereum of `npm start` and of the tests. startChain() runs anvil with chain
// id 1, installs the project's tokens at their mainnet addresses and funds the dev accounts.

import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { DEV_ACCOUNTS, type DevAccount } from './accounts';
import { freePort, spawnAnvil, waitUntilAnswering } from './anvil';
import { fundAccount, type Funding } from './fund';
import { rpc } from './rpc';
import { LOCAL_TOKENS, installTokens, type LocalToken } from './tokens';
import type { TokenCurrency } from '@app/web3';

export { DEV_ACCOUNTS, DEV_MNEMONIC, type DevAccount } from './accounts';
export { DEFAULT_FUNDING, fundAccount, type Funding } from './fund';
export { blockNumber, mine, revertTo, rpc, RpcError, snapshot } from './rpc';
export { DEV_TOKEN_FUNDING, LOCAL_TOKENS, MINTER, TOKEN_ARTIFACT, type LocalToken } from './tokens';
export { freePort } from './anvil';

export const LOCAL_CHAIN_ID = 1;
export const DEFAULT_PORT = 8545;

export interface ChainOptions {
  /** Port on 127.0.0.1; default 8545; 0 picks a free one. */
  port?: number;
  /** Keep the chain's state in this file across restarts (anvil --state). Without it the chain is fresh. */
  stateFile?: string;
  /** Hide anvil's own log of requests and blocks. */
  quiet?: boolean;
  /** Mine a block every this many seconds instead of one per transaction. */
  blockTime?: number;
}

export interface LocalChain {
  readonly rpcUrl: string;
  readonly port: number;
  readonly chainId: number;
  readonly pid: number;
  readonly accounts: readonly DevAccount[];
  readonly tokens: readonly LocalToken[];
  /** Currencies installed by this start; empty when the state file already had them all. */
  readonly installed: readonly TokenCurrency[];
  /** Adds ETH and tokens to an address (default: DEFAULT_FUNDING). */
  fund(address: string, funding?: Funding): Promise<void>;
  /** Stops anvil (SIGTERM, so it writes its state file) and waits until the process has exited. */
  stop(): Promise<void>;
}

// State is also written every few seconds, so a crash (SIGKILL, power loss) loses little.
const STATE_INTERVAL_SECONDS = 5;
const STOP_TIMEOUT_MS = 10_000;

export async function startChain(options: ChainOptions = {}): Promise<LocalChain> {
  const port = options.port === 0 ? await freePort() : (options.port ?? DEFAULT_PORT);
  // Fail clearly rather than talk to whatever already listens there (say, a chain left running).
  await ensurePortFree(port);
  const rpcUrl = `http://127.0.0.1:${port}`;
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(LOCAL_CHAIN_ID)];
  if (options.stateFile) args.push('--state', options.stateFile, '--state-interval', String(STATE_INTERVAL_SECONDS));
  if (options.blockTime) args.push('--block-time', String(options.blockTime));
  const loadingState = options.stateFile !== undefined && existsSync(options.stateFile);

  const anvil = spawnAnvil(args, options.quiet ?? false);
  const pid = anvil.child.pid;
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
    if (pid === undefined) throw new Error(`anvil did not start: ${anvil.stderrTail()}`);
    await waitUntilAnswering(rpcUrl, anvil, loadingState ? 60_000 : 20_000);
    const chainId = Number(await rpc<string>(rpcUrl, 'eth_chainId'));
    if (chainId !== LOCAL_CHAIN_ID) throw new Error(`the chain answers chain id ${chainId}, expected ${LOCAL_CHAIN_ID}`);
    const installed = await installTokens(rpcUrl);
    return {
      rpcUrl,
      port,
      chainId,
      pid,
      accounts: DEV_ACCOUNTS,
      tokens: LOCAL_TOKENS,
      installed,
      fund: (address, funding) => fundAccount(rpcUrl, address, funding),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function ensurePortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', () => reject(new Error(`port ${port} on 127.0.0.1 is in use: is a chain already running?`)));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}
