import * as z from 'zod/mini';
import { isLocalKey } from '@app/signer';
import { localKey, localTreasuryKey } from '../payouts';
import type { ConfigDoc } from './fields';

/** m/44'/60'/0'/0/104 of the public test mnemonic: the local stack's solvency key (no hot wallet's, not the treasury's). */
const LOCAL_SOLVENCY_INDEX = 104;

/** Proof of solvency (api/src/solvency, docs/proof-of-solvency.md). */
export const solvencyEnv = z.object({
  /** Private key that signs the solvency headers (EIP-191); its address is published. No hot wallet's nor the treasury's. */
  SOLVENCY_KEY: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'SOLVENCY_KEY must be a private key: 0x and 64 hex digits'))),
});
type SolvencyEnv = z.output<typeof solvencyEnv> & { TREASURY_KEY?: string | undefined };

export const solvencyDocs: ConfigDoc[] = [
  {
    vars: ['SOLVENCY_KEY'],
    default: "none; with `LOCAL_CHAIN` the test mnemonic's m/44'/60'/0'/0/104",
    meaning:
      'key that signs the proof-of-solvency headers; its address is public (`GET /api/v1/solvency/signer`). Without it no snapshot is taken. It must not be the treasury\'s; production refuses the test mnemonic\'s',
  },
];

export type SolvencyConfig = {
  /** Null until configured: snapshots are then refused. */
  solvencyKey: string | null;
};

export const localSolvencyKey = () => localKey(LOCAL_SOLVENCY_INDEX);

/** A signer that could move money would make a signed header worth stealing a key for: the roles stay apart. */
export function solvencyProblems(e: SolvencyEnv, production: boolean): string[] {
  const key = e.SOLVENCY_KEY?.toLowerCase();
  if (!key) return [];
  const problems: string[] = [];
  if (e.TREASURY_KEY && e.TREASURY_KEY.toLowerCase() === key) problems.push('SOLVENCY_KEY must not be the treasury key');
  if (production && ([localSolvencyKey(), localTreasuryKey()].some((k) => k.toLowerCase() === key) || isLocalKey(key))) {
    problems.push('SOLVENCY_KEY must not be a key of the public test mnemonic in production');
  }
  return problems;
}

export function solvencyConfig(e: SolvencyEnv, local: boolean): SolvencyConfig {
  return { solvencyKey: e.SOLVENCY_KEY ?? (local ? localSolvencyKey() : null) };
}
