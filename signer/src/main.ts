// The signer process: `npm start -w signer` (the local stack starts it). It reads its keys from a
// file only it can read, the ledger's records through a read-only database role, and answers on loopback.
//   SIGNER_PORT (4200), SIGNER_HOST (127.0.0.1)
//   SIGNER_KEYS_FILE   JSON { "float": "0x…key", "deposits": ["0x…key", …], "treasury": "0x…key",
//                      "solvency": "0x…key" }, mode 600 (treasury and solvency optional: without
//                      them nothing is funded, no snapshot is signed)
//   SIGNER_COLD_ADDRESS the operator's cold address (sweeps go there, payouts may)
//   SIGNER_CAPS        JSON { "ETH": { "perTransaction": "…", "perDay": "…" }, … } in base units
//   SIGNER_TREASURY_CAPS the treasury's caps, same shape (required with a treasury key)
//   SIGNER_RATE_PER_MINUTE (30)
//   SIGNER_DATABASE_URL PostgreSQL, a role granted SELECT on withdrawals, users and float_refills only
//   SIGNER_LOG_FILE    its audit log (default signer-audit.jsonl beside the keys file)
// SIGNER_LOCAL_CHAIN=true (the local stack, never production): the test mnemonic's keys and cold
// address, caps far above the tests' amounts, and, since the local ledger is PGlite inside the API
// process, the records read from the API's loopback ledger reader (SIGNER_RECORDS_URL) instead of
// a database role.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Wallet } from 'ethers';
import { createSigner, databaseRecords, databaseRefills, httpRecords, type RefillRecords, type Records } from './signer';
import { serveSigner } from './server';
import { isLocalKey, localCaps, localColdAddress, localKeys, localTreasuryCaps } from './local';
import type { Caps, RefillRecord } from './policy';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function records(e: NodeJS.ProcessEnv): Promise<{ records: Records; refills: RefillRecords }> {
  if (e.SIGNER_RECORDS_URL && e.SIGNER_LOCAL_CHAIN === 'true') return { records: httpRecords(e.SIGNER_RECORDS_URL), refills: httpRecords<RefillRecord>(e.SIGNER_RECORDS_URL, 'refills') };
  const url = e.SIGNER_DATABASE_URL ?? fail('SIGNER_DATABASE_URL is required: a read-only role on the ledger\'s database');
  const { Pool } = await import('pg');
  const pool = new Pool({ connectionString: url, max: 2 });
  // Read-only whatever the role may do: a bug here cannot change the ledger.
  pool.on('connect', (c) => void c.query('set session characteristics as transaction read only'));
  const query = (text: string, params: unknown[]) => pool.query(text, params);
  return { records: databaseRecords(query), refills: databaseRefills(query) };
}

async function main() {
  const e = process.env;
  const local = e.SIGNER_LOCAL_CHAIN === 'true';
  if (local && e.NODE_ENV === 'production') fail('SIGNER_LOCAL_CHAIN uses the public test mnemonic: never in production');
  let keys: { float: string; deposits: string[]; treasury?: string; solvency?: string };
  let logFile = e.SIGNER_LOG_FILE;
  if (e.SIGNER_KEYS_FILE) {
    if ((statSync(e.SIGNER_KEYS_FILE).mode & 0o077) !== 0) fail(`${e.SIGNER_KEYS_FILE} must be readable by its owner only (chmod 600)`);
    keys = JSON.parse(readFileSync(e.SIGNER_KEYS_FILE, 'utf8')) as typeof keys;
    logFile ??= join(dirname(e.SIGNER_KEYS_FILE), 'signer-audit.jsonl');
  } else if (local) keys = localKeys();
  else fail('SIGNER_KEYS_FILE is required: the float\'s and the deposit addresses\' keys');
  if (e.NODE_ENV === 'production' && [keys.float, ...keys.deposits, keys.treasury, keys.solvency].some((k) => k && isLocalKey(k))) fail('a key of the public test mnemonic is never used in production');
  logFile ??= fail('SIGNER_LOG_FILE is required without a keys file');
  mkdirSync(dirname(logFile), { recursive: true });
  const cold = e.SIGNER_COLD_ADDRESS ?? (local ? localColdAddress() : fail('SIGNER_COLD_ADDRESS is required'));
  const parseCaps = (json: string): Caps =>
    Object.fromEntries(
      Object.entries(JSON.parse(json) as Record<string, { perTransaction: string; perDay: string }>).map(([c, v]) => [c, { perTransaction: BigInt(v.perTransaction), perDay: BigInt(v.perDay) }]),
    );
  const caps: Caps = e.SIGNER_CAPS ? parseCaps(e.SIGNER_CAPS) : local ? localCaps() : fail('SIGNER_CAPS is required: per currency, perTransaction and perDay in base units');
  const treasuryCaps: Caps = e.SIGNER_TREASURY_CAPS
    ? parseCaps(e.SIGNER_TREASURY_CAPS)
    : local
      ? localTreasuryCaps()
      : keys.treasury
        ? fail('SIGNER_TREASURY_CAPS is required with a treasury key: per currency, perTransaction and perDay in base units')
        : {};
  const float = new Wallet(keys.float).address;
  const signer = createSigner({
    keys: [keys.float, ...keys.deposits],
    treasuryKey: keys.treasury ?? null,
    solvencyKey: keys.solvency ?? null,
    limits: { caps, treasuryCaps, perMinute: Number(e.SIGNER_RATE_PER_MINUTE ?? (local ? 600 : 30)), cold, float },
    ...(await records(e)),
    logFile,
    // The refusal is answered to the API, which records it on the payout and alerts the operator.
    alert: (reason, request) => console.warn(JSON.stringify({ level: 'warn', msg: 'signer refused', kind: request.kind, reason })),
  });
  const port = Number(e.SIGNER_PORT ?? 4200);
  await serveSigner(signer, port, e.SIGNER_HOST ?? '127.0.0.1');
  const d = signer.declared;
  console.log(
    `signer on ${e.SIGNER_HOST ?? '127.0.0.1'}:${port}, float ${float}, cold ${cold}, ${keys.deposits.length} deposit address(es), treasury ${d.treasury ?? 'none'}, solvency ${d.solvency ?? 'none'}`,
  );
}

void main();
