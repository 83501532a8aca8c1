// npm run verify-proof -- proof.json [--signer 0x…]: checks a downloaded proof with nothing but
// this file's package: no database, no API. Exit status 0 only when every check passes.
import { readFileSync } from 'node:fs';
import { LOCAL_SOLVENCY_SIGNER, verifyProof } from './src';

const args = process.argv.slice(2);
const at = args.indexOf('--signer');
const signer = at >= 0 ? args[at + 1] : process.env.SOLVENCY_SIGNER;
const file = args.find((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
if (!file) {
  console.error('usage: npm run verify-proof -- proof.json [--signer 0xADDRESS]');
  process.exit(2);
}
let proof: unknown;
try {
  proof = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.error(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(2);
}
const expected = signer ?? LOCAL_SOLVENCY_SIGNER;
if (!signer) console.log(`signer: none given (--signer or SOLVENCY_SIGNER), so the local stack's ${expected}`);
const verdict = verifyProof(proof, { signer: expected });
for (const c of verdict.checks) console.log(`${c.ok ? 'PASS' : 'FAIL'} ${c.name.padEnd(9)} ${c.detail}`);
console.log(verdict.ok ? `verified: included in snapshot #${verdict.snapshotId} (block ${verdict.blockNumber})` : 'NOT verified');
process.exit(verdict.ok ? 0 : 1);
