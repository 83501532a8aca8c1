import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { isCompatibleContract, type RemoteEntry, type RemoteModule } from '@app/contracts';

export type RemoteFailure =
  | { reason: 'unavailable'; detail: string; error: unknown }
  | { reason: 'incompatible'; detail: string };

export class RemoteLoadError extends Error {
  constructor(readonly failure: RemoteFailure) {
    super(`${failure.reason}: ${failure.detail}`);
    this.name = 'RemoteLoadError';
  }
}

const RETRY_DELAYS_MS = [300, 1000];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const failedRemotes = new Set<string>();

/** The remotes the shell composes, keyed by MF name. */
export function registerManifestRemotes(remotes: RemoteEntry[]): void {
  registerRemotes(remotes.map((r) => ({ name: r.name, entry: r.entry })));
}

/**
 * Loads a remote's './app' and checks the contract it was built against. A failed network load
 * is retried a few times before the caller shows its fallback.
 */
export async function loadRemoteApp(remote: RemoteEntry, shellContract: string): Promise<RemoteModule> {
  if (!isCompatibleContract(remote.contract, shellContract)) {
    throw new RemoteLoadError({ reason: 'incompatible', detail: `manifest declares contract ${remote.contract}, the shell speaks ${shellContract}` });
  }
  let lastError: unknown;
  for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
    if (attempt > 0) {
      await sleep(RETRY_DELAYS_MS[attempt - 1]!);
    }
    // After a failure, register again so the MF runtime forgets the failed manifest and script.
    if (failedRemotes.has(remote.name)) registerRemotes([{ name: remote.name, entry: remote.entry }], { force: true });
    try {
      const mod = await loadRemote<RemoteModule>(`${remote.name}/app`);
      if (!mod || typeof mod.mount !== 'function') throw new Error('the remote exposes no single-spa lifecycles');
      if (!isCompatibleContract(String(mod.contractVersion), shellContract)) {
        throw new RemoteLoadError({ reason: 'incompatible', detail: `build speaks contract ${String(mod.contractVersion)}, the shell speaks ${shellContract}` });
      }
      failedRemotes.delete(remote.name);
      return mod;
    } catch (error) {
      failedRemotes.add(remote.name);
      if (error instanceof RemoteLoadError) throw error;
      lastError = error;
    }
  }
  throw new RemoteLoadError({ reason: 'unavailable', detail: String((lastError as Error)?.message ?? lastError), error: lastError });
}
