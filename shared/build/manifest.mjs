// Writes runtime manifests (remotes.json) for a set of remote origins. The routes each remote
// owns are in shell/remotes/routes.json; where each is deployed is the operator's choice.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { frontends, remoteNames, repoRoot } from './index.mjs';

export const CONTRACT = '1.0';

export function routesByRemote() {
  return JSON.parse(readFileSync(join(repoRoot, 'shell/remotes/routes.json'), 'utf8'));
}

/** @param {(name: string) => string} originOf the origin serving each remote, e.g. http://localhost:3001 */
export function runtimeManifest(originOf) {
  const routes = routesByRemote();
  return {
    remotes: remoteNames.map((name) => {
      const mfName = frontends[name].mfName;
      return { name: mfName, entry: `${originOf(name)}/mf-manifest.json`, routes: routes[mfName], contract: CONTRACT };
    }),
  };
}
