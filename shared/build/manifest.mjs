// Writes brand manifests (remotes.json) for a set of remote origins: where each remote is deployed,
// the operator's choice. The routes are each remote's own (its routes.json, published with its
// build); the shell's server reads them from the deploy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { frontends, remoteNames, repoRoot } from './index.mjs';

/**
 * The shell–remote contract version the remotes are built against: CONTRACT_VERSION of
 * shared/contracts. Node runs this file as it is and cannot import TypeScript, so both read the
 * value from the JSON file that holds it.
 */
export const CONTRACT = JSON.parse(readFileSync(join(repoRoot, 'shared/contracts/src/contract.json'), 'utf8')).version;

/** @param {(name: string) => string} originOf the origin serving each remote, e.g. http://localhost:3001 */
export function runtimeManifest(originOf) {
  return {
    remotes: remoteNames.map((name) => {
      const mfName = frontends[name].mfName;
      return { name: mfName, entry: `${originOf(name)}/mf-manifest.json`, contract: CONTRACT };
    }),
  };
}
