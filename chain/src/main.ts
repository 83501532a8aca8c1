// `npx tsx chain/src/main.ts [--port N] [--state FILE] [--fresh] [--verbose]`: the local chain in the
// foreground for `npm start`. State is kept in chain/.data/state.json unless --fresh.
// Start it as `node_modules/.bin/tsx chain/src/main.ts` (or from a script): `npx` does not pass
// SIGTERM on, so the chain would outlive it.

import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { DEFAULT_PORT, startChain } from './index';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const port = Number(option('--port') ?? process.env.CHAIN_PORT ?? DEFAULT_PORT);
  const fresh = process.argv.includes('--fresh');
  const stateFile = fresh ? undefined : (option('--state') ?? process.env.CHAIN_STATE_FILE ?? join(__dirname, '..', '.data', 'state.json'));
  if (stateFile) mkdirSync(join(stateFile, '..'), { recursive: true });

  const chain = await startChain({ port, stateFile, quiet: !process.argv.includes('--verbose') });

  const lines = [
    `local chain ready: ${chain.rpcUrl} (chain id ${chain.chainId})`,
    stateFile ? `state file: ${stateFile}` : 'fresh chain: state is not kept',
    chain.installed.length > 0 ? `installed tokens: ${chain.installed.join(', ')}` : 'tokens restored from the state file',
    'tokens:',
    ...chain.tokens.map((t) => `  ${t.symbol.padEnd(6)} ${t.address}  ${t.decimals} decimals`),
    'dev accounts (public test keys, never use them on a real network):',
    ...chain.accounts.map((a, i) => `  #${i} ${a.address}  key ${a.privateKey}`),
  ];
  console.log(lines.join('\n'));

  const shutdown = (signal: string) => {
    console.log(`local chain: ${signal}, stopping`);
    chain.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`local chain failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
