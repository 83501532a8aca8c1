import type { Server } from 'node:http';
import { configOrExit } from './config';
import { buildServer } from './app';
import { localOperators, startOperatorListener } from './operator';
import { startLedgerReader } from './payouts';

async function main() {
  const config = configOrExit(process.env);
  const app = await buildServer(config);
  let operatorServer: Server | null = null;
  let ledgerReader: Server | null = null;
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await new Promise((resolve) => (operatorServer ? operatorServer.close(resolve) : resolve(undefined)));
    await new Promise((resolve) => (ledgerReader ? ledgerReader.close(resolve) : resolve(undefined)));
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  // The local stack's own two operators, so `npm run operator` and the console work out of the box;
  // made before the port opens, so whoever waits for the API finds their credentials.
  if (config.localChain) await localOperators(app.services, config.dataDir);
  await app.listen({ port: config.port, host: config.host });
  // The local stack's signer reads the payout records here (the PGlite database lives in this process).
  if (config.money.ledgerReaderPort !== null) ledgerReader = await startLedgerReader(app.services.db, config.money.ledgerReaderPort);
  if (config.operatorPort !== null) operatorServer = await startOperatorListener(app, config.operatorPort, config.operatorHost);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
