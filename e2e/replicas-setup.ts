import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { baseURL, ports } from './stack.config';
import { stackModule } from './support/build-modules';
import { dataDir, repoRoot, stackLog } from './support/paths';

/** A port the system says is free now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * The site as `npm start -- --postgres --replicas 2` runs it, on the browser tests' ports (the main
 * run's stack has stopped by then: scripts/e2e.mjs runs the two one after the other): a throwaway
 * PostgreSQL cluster on a free port, two API processes behind the shell's proxy. The tests find the
 * database's address and the replicas' processes in E2E_DATABASE_URL and E2E_REPLICAS.
 */
export default async function replicasSetup(_config: FullConfig) {
  const { startStack } = await stackModule();
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const stack = await startStack({
    ports: { ...ports, postgres: await freePort() },
    dataDir,
    remotesDir: join(dataDir, 'remotes'),
    brandsDir: join(repoRoot, 'brands'),
    postgres: { throwaway: true },
    replicas: 2,
    apiEnv: { NODE_ENV: 'test', RATE_LIMIT_MULTIPLIER: '1000', PUBLIC_URL: baseURL },
    log: (line: string) => {
      appendFileSync(stackLog, `${line}\n`);
      if (process.env.E2E_VERBOSE) console.log(line);
    },
  });
  process.env.E2E_DATABASE_URL = stack.databaseUrl;
  process.env.E2E_REPLICAS = JSON.stringify(stack.replicas);
  return async () => {
    await stack.stop();
  };
}
