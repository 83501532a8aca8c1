import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '@app/contracts';
import { CONTRACT, runtimeManifest } from '../manifest.mjs';

const repoRoot = join(__dirname, '../../..');

describe('the runtime manifest', () => {
  it('one source per fact: the contract version it declares for every remote is CONTRACT_VERSION of shared/contracts', () => {
    const generated = runtimeManifest((name: string) => `http://${name}.example`);
    expect(generated.remotes.length).toBeGreaterThan(0);
    expect(CONTRACT).toBe(CONTRACT_VERSION);
    for (const remote of generated.remotes) expect(remote.contract).toBe(CONTRACT_VERSION);
  });

  it('one source per fact: the operator manifest in shell/remotes declares CONTRACT_VERSION for every remote', () => {
    const kept = JSON.parse(readFileSync(join(repoRoot, 'shell/remotes/remotes.json'), 'utf8')) as { remotes: { name: string; contract: string }[] };
    expect(kept.remotes.map((r) => [r.name, r.contract])).toEqual(kept.remotes.map((r) => [r.name, CONTRACT_VERSION]));
  });
});
