// The local stack's stand-in for a read-only replica: the local ledger is PGlite inside this
// process, so the signer cannot open it; this loopback listener answers the signer's questions, the
// ledger's record of a payout or of a float refill, with the signer's own queries. In production the signer reads
// PostgreSQL through a read-only role instead, and this listener is refused (LEDGER_READER_PORT).
import { createServer, type Server } from 'node:http';
import { databaseRecords, databaseRefills } from '@app/signer';
import type { Db } from '../db/client';

type Client = { query: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }> };

export function startLedgerReader(db: Db, port: number, host = '127.0.0.1'): Promise<Server> {
  const query = (text: string, params: unknown[]) => (db as unknown as { $client: Client }).$client.query(text, params);
  const read = { payouts: databaseRecords(query), refills: databaseRefills(query) };
  const server = createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const m = req.method === 'GET' ? /^\/v1\/(payouts|refills)\/(\d{1,15})$/.exec(req.url ?? '') : null;
    if (!m) return answer(404, { error: 'not found' });
    read[m[1] as keyof typeof read](Number(m[2])).then(
      (r) => (r ? answer(200, r) : answer(404, { error: 'no such record' })),
      () => answer(500, { error: 'the ledger could not be read' }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
