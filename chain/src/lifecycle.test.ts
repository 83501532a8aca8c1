import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { ERC20_ABI, TOKENS } from '@app/web3';
import { DEV_ACCOUNTS, TOKEN_ARTIFACT, freePort, rpc, startChain } from './index';

const USDT = TOKENS[1].USDT!.address;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('starting and stopping the local chain', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'chain-state-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps balances and transactions across a restart with a state file, and installs tokens once', async () => {
    const stateFile = join(dir, 'state.json');
    const receiver = Wallet.createRandom().address;

    const first = await startChain({ port: 0, stateFile, quiet: true });
    expect(first.installed).toHaveLength(6);
    let provider = new JsonRpcProvider(first.rpcUrl, 1, { staticNetwork: true, cacheTimeout: -1 });
    const sender = new Wallet(DEV_ACCOUNTS[0]!.privateKey, provider);
    const tx = await new Contract(USDT, ERC20_ABI, sender).getFunction('transfer')(receiver, 777n);
    await tx.wait();
    const blockBefore = await provider.getBlockNumber();
    provider.destroy();
    await first.stop();
    expect(existsSync(stateFile)).toBe(true);

    const second = await startChain({ port: 0, stateFile, quiet: true });
    try {
      expect(second.installed).toEqual([]);
      provider = new JsonRpcProvider(second.rpcUrl, 1, { staticNetwork: true, cacheTimeout: -1 });
      expect(await new Contract(USDT, ERC20_ABI, provider).getFunction('balanceOf')(receiver)).toBe(777n);
      expect(await provider.getBlockNumber()).toBe(blockBefore);
      // The server re-reads receipts of pending deposits after a restart, so history must survive too.
      expect((await provider.getTransactionReceipt(tx.hash))?.status).toBe(1);
      provider.destroy();
    } finally {
      await second.stop();
    }
  });

  it('has the tokens in place as soon as the port answers, so a supervisor can wait for that alone', async () => {
    const port = await freePort();
    const starting = startChain({ port, quiet: true });
    const rpcUrl = `http://127.0.0.1:${port}`;
    let code: string | undefined;
    while (code === undefined) {
      code = await rpc<string>(rpcUrl, 'eth_getCode', [USDT, 'latest']).catch(() => undefined);
      if (code === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const chain = await starting;
    try {
      expect(code).toBe(TOKEN_ARTIFACT.deployedBytecode);
    } finally {
      await chain.stop();
    }
  });

  it('starts fresh without a state file', async () => {
    const chain = await startChain({ port: 0, quiet: true });
    try {
      expect(chain.installed).toHaveLength(6);
    } finally {
      await chain.stop();
    }
  });

  it('leaves no process and frees the port when stopped, even if stopped twice', async () => {
    const chain = await startChain({ port: 0, quiet: true });
    expect(isRunning(chain.pid)).toBe(true);
    await Promise.all([chain.stop(), chain.stop()]);
    expect(isRunning(chain.pid)).toBe(false);
    expect(await canListen(chain.port)).toBe(true);
    await expect(fetch(chain.rpcUrl, { method: 'POST' })).rejects.toThrow();
  });

  it('refuses a port already in use instead of talking to whatever listens there', async () => {
    const port = await freePort();
    const blocker = createServer().listen(port, '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    try {
      await expect(startChain({ port, quiet: true })).rejects.toThrow(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      blocker.close();
    }
  });
});
