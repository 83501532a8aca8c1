// @app/chain: the local Ethereum of `npm start` and of the tests. startChain() runs anvil with the
// product's supported chain id, installs the project's tokens at their mainnet addresses and funds
// the dev accounts.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_ACCOUNTS, type DevAccount } from './accounts';
import { SUPPORTED_CHAIN_ID } from '@app/contracts';
import { freePort, runAnvil } from './anvil';
import { fundAccount, type Funding } from './fund';
import { fundCustody, fundHotWallets, fundTreasury } from './hot-wallets';
import { LOCAL_TOKENS, installTokens, type LocalToken } from './tokens';
import type { TokenCurrency } from '@app/web3';

export { DEV_ACCOUNTS, DEV_MNEMONIC, type DevAccount } from './accounts';
export { DEFAULT_FUNDING, fundAccount, type Funding } from './fund';
export { HOT_WALLET_GAS, LOCAL_COLD, LOCAL_FLOAT, LOCAL_HOT_WALLETS, LOCAL_TREASURY, TREASURY_TOKEN_FUNDING, fundCustody, fundHotWallets, fundTreasury } from './hot-wallets';
export { blockNumber, mine, revertTo, rpc, RpcError, snapshot } from './rpc';
export { DEV_TOKEN_FUNDING, LOCAL_TOKENS, MINTER, TOKEN_ARTIFACT, type LocalToken } from './tokens';
export { freePort } from './anvil';

export const DEFAULT_PORT = 8545;
export const DEFAULT_RPC_URL = `http://127.0.0.1:${DEFAULT_PORT}`;

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

/**
 * Starts the chain; when the promise resolves (and already when the port first answers) the tokens are
 * in place and the dev accounts funded. A new chain is therefore seeded first on a private port, then
 * started from that seed on the real one, so `npm start` can treat "answers" as "ready".
 */
export async function startChain(options: ChainOptions = {}): Promise<LocalChain> {
  const port = options.port === 0 ? await freePort() : (options.port ?? DEFAULT_PORT);
  // Fail clearly rather than talk to whatever already listens there (say, a chain left running).
  await ensurePortFree(port);
  const quiet = options.quiet ?? false;
  const args: string[] = [];
  if (options.blockTime) args.push('--block-time', String(options.blockTime));

  const seedDir = mkdtempSync(join(tmpdir(), 'chain-seed-'));
  try {
    let installed: TokenCurrency[] = [];
    const stateFile = options.stateFile;
    if (stateFile && existsSync(stateFile)) {
      args.push('--state', stateFile);
    } else {
      const seedFile = join(seedDir, 'state.json');
      installed = await seedChain(seedFile);
      args.push('--load-state', seedFile);
      if (stateFile) args.push('--dump-state', stateFile);
    }
    if (stateFile) args.push('--state-interval', String(STATE_INTERVAL_SECONDS));

    // Loading a large state file takes a while, hence the generous wait.
    const anvil = await runAnvil(port, args, quiet, 60_000);
    try {
      // Normally nothing to do; replaces tokens whose code changed since the state file was written.
      installed = [...installed, ...(await installTokens(anvil.rpcUrl))];
      // The deposit addresses pay the gas of their sweeps to cold.
      await fundHotWallets(anvil.rpcUrl);
      // Withdrawals are paid from the float; sweeps go to the cold address.
      await fundCustody(anvil.rpcUrl);
      // The treasury funds the interest the books owe (the API's treasury job).
      await fundTreasury(anvil.rpcUrl);
    } catch (error) {
      await anvil.stop();
      throw error;
    }
    return {
      rpcUrl: anvil.rpcUrl,
      port,
      chainId: SUPPORTED_CHAIN_ID,
      pid: anvil.pid,
      accounts: DEV_ACCOUNTS,
      tokens: LOCAL_TOKENS,
      installed,
      fund: (address, funding) => fundAccount(anvil.rpcUrl, address, funding),
      stop: anvil.stop,
    };
  } finally {
    rmSync(seedDir, { recursive: true, force: true });
  }
}

/** Installs the tokens on a throw-away anvil and leaves its state in seedFile. */
async function seedChain(seedFile: string): Promise<TokenCurrency[]> {
  const seed = await runAnvil(await freePort(), ['--dump-state', seedFile], true);
  try {
    return await installTokens(seed.rpcUrl);
  } finally {
    await seed.stop();
  }
}

function ensurePortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', () => reject(new Error(`port ${port} on 127.0.0.1 is in use: is a chain already running?`)));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}
