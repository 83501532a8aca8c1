import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, rpc } from './index';

// The CLI as `npm start` runs it: tsx in the foreground, stopped with SIGTERM.
it('starts in the foreground, prints what a developer needs, and exits cleanly on SIGTERM', async () => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'chain-cli-'));
  const stateFile = join(dir, 'state.json');
  const cli = spawn(process.execPath, [require.resolve('tsx/cli'), join(__dirname, 'main.ts'), '--port', String(port), '--state', stateFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  cli.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  cli.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
  try {
    for (let waited = 0; !output.includes('dev accounts'); waited += 100) {
      if (waited > 20_000 || cli.exitCode !== null) throw new Error(`the CLI did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 100)); // the rest of the account list
    expect(output).toContain(`local chain ready: http://127.0.0.1:${port} (chain id 1)`);
    expect(output).toContain('USDT   0xdAC17F958D2ee523a2206206994597C13D831ec7  6 decimals');
    expect(output).toContain('#0 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266  key 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect(await rpc(`http://127.0.0.1:${port}`, 'eth_chainId')).toBe('0x1');

    cli.kill('SIGTERM');
    expect(await exited).toBe(0);
    // anvil went with it, and wrote its state on the way out.
    await expect(rpc(`http://127.0.0.1:${port}`, 'eth_chainId')).rejects.toThrow();
    expect(existsSync(stateFile)).toBe(true);
  } finally {
    cli.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
