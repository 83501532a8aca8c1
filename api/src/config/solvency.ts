import * as z from 'zod/mini';
import type { ConfigDoc } from './fields';

/** Proof of solvency (api/src/solvency, docs/proof-of-solvency.md). */
export const solvencyEnv = z.object({
  /** No longer read: the key that signs the solvency headers belongs to the signer (signer/README.md). Production refuses it being set. */
  SOLVENCY_KEY: z.optional(z.string()),
});
type SolvencyEnv = z.output<typeof solvencyEnv>;

export const solvencyDocs: ConfigDoc[] = [
  {
    vars: ['SOLVENCY_KEY'],
    default: 'none',
    meaning:
      'no longer read: the key that signs the proof-of-solvency headers is the signer\'s (`solvency` in its keys file, issue 26), which signs nothing but a well-formed header; its address stays public (`GET /api/v1/solvency/signer`). Production refuses it set',
  },
];

/** The solvency key is the signer's: the API's configuration holds nothing of it. */
export type SolvencyConfig = Record<never, never>;

/** A key left in the API's environment is a key a leaked environment gives away: moved, not kept. */
export function solvencyProblems(e: SolvencyEnv, production: boolean): string[] {
  return production && e.SOLVENCY_KEY ? ['SOLVENCY_KEY must not be set: the API holds no key, the signer holds the solvency key (SIGNER_URL)'] : [];
}

export function solvencyConfig(): SolvencyConfig {
  return {};
}
