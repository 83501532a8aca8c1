// The signer process: `npm run signer` (or `npm start -w signer`). It reads its keys from a file only
// it can read, the ledger's records through a read-only database role, and answers on loopback.
//   SIGNER_PORT (4200), SIGNER_HOST (127.0.0.1)
//   SIGNER_KEYS_FILE   JSON { "float": "0x…key", "deposits": ["0x…key", …] }, mode 600
//   SIGNER_COLD_ADDRESS the operator's cold address (sweeps go there, payouts may)
//   SIGNER_CAPS        JSON { "ETH": { "perTransaction": "…", "perDay": "…" }, … } in base units
//   SIGNER_RATE_PER_MINUTE (30)
//   SIGNER_DATABASE_URL PostgreSQL, a role granted SELECT on withdrawals and users only
//   SIGNER_LOG_FILE    its audit log (default signer-audit.jsonl beside the keys file)
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Wallet } from 'ethers';
import { createSigner, databaseRecords } from './signer';
import { serveSigner } from './server';
import type { Caps } from './policy';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  const e = process.env;
  const keysFile = e.SIGNER_KEYS_FILE ?? fail('SIGNER_KEYS_FILE is required: the float\'s and the deposit addresses\' keys');
  if ((statSync(keysFile).mode & 0o077) !== 0) fail(`${keysFile} must be readable by its owner only (chmod 600)`);
  const keys = JSON.parse(readFileSync(keysFile, 'utf8')) as { float: string; deposits: string[] };
  const cold = e.SIGNER_COLD_ADDRESS ?? fail('SIGNER_COLD_ADDRESS is required');
  const caps = Object.fromEntries(
    Object.entries(JSON.parse(e.SIGNER_CAPS ?? fail('SIGNER_CAPS is required: per currency, perTransaction and perDay in base units')) as Record<string, { perTransaction: string; perDay: string }>).map(
      ([c, v]) => [c, { perTransaction: BigInt(v.perTransaction), perDay: BigInt(v.perDay) }],
    ),
  ) as Caps;
  const url = e.SIGNER_DATABASE_URL ?? fail('SIGNER_DATABASE_URL is required: a read-only role on the ledger\'s database');
  const { Pool } = await import('pg');
  const pool = new Pool({ connectionString: url, max: 2 });
  // Read-only whatever the role may do: a bug here cannot change the ledger.
  pool.on('connect', (c) => void c.query('set session characteristics as transaction read only'));
  const signer = createSigner({
    keys: [keys.float, ...keys.deposits],
    limits: { caps, perMinute: Number(e.SIGNER_RATE_PER_MINUTE ?? 30), cold, float: new Wallet(keys.float).address },
    records: databaseRecords((text, params) => pool.query(text, params)),
    logFile: e.SIGNER_LOG_FILE ?? join(dirname(keysFile), 'signer-audit.jsonl'),
    // The refusal is answered to the API, which alerts the operator and keeps the payout unpaid.
    alert: (reason) => console.warn(JSON.stringify({ level: 'warn', msg: 'signer refused', reason })),
  });
  const port = Number(e.SIGNER_PORT ?? 4200);
  await serveSigner(signer, port, e.SIGNER_HOST ?? '127.0.0.1');
  console.log(`signer on ${e.SIGNER_HOST ?? '127.0.0.1'}:${port}, float ${new Wallet(keys.float).address}, ${keys.deposits.length} deposit address(es)`);
}

void main();
