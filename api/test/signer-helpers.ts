// The real signer (signer/src) in the test's process, on a loopback port, with the local stack's
// keys (float, deposit addresses, treasury, solvency), reading the payout records from the test's
// database as it reads PostgreSQL in production.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { createSigner, databaseRecords, databaseRefills, localCaps, localColdAddress, localKeys, localTreasuryCaps, serveSigner, type Limits } from '@app/signer';
import type { Db } from '../src/db/client';

type Client = { query: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }> };

export type TestSigner = { url: string; logFile: string; alerts: string[]; float: string; cold: string; log: () => { event: string; detail: Record<string, unknown> }[]; close: () => Promise<void> };

export async function startTestSigner(db: () => Db, limits: Partial<Limits> = {}): Promise<TestSigner> {
  const keys = localKeys();
  const float = new Wallet(keys.float).address;
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'signer-')), 'audit.jsonl');
  const alerts: string[] = [];
  const query = (text: string, params: unknown[]) => (db() as unknown as { $client: Client }).$client.query(text, params);
  const signer = createSigner({
    keys: [keys.float, ...keys.deposits],
    treasuryKey: keys.treasury,
    solvencyKey: keys.solvency,
    limits: { caps: localCaps(), treasuryCaps: localTreasuryCaps(), perMinute: 100_000, cold: localColdAddress(), float, ...limits },
    records: databaseRecords(query),
    refills: databaseRefills(query),
    logFile,
    alert: (reason) => alerts.push(reason),
  });
  const server = await serveSigner(signer, 0);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    logFile,
    alerts,
    float: float.toLowerCase(),
    cold: localColdAddress(),
    log: () =>
      readFileSync(logFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { event: string; detail: Record<string, unknown> }),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
