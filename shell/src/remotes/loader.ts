import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { inlineJson } from './manifest';
import { isCompatibleContract, loadManifestSchemas, remoteEntryUrl, type RemoteEntry, type RemoteModule } from '@app/contracts';

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

/** The container script each remote is registered with, once its manifest has been read. */
const registered = new Map<string, string>();
const failedRemotes = new Set<string>();

/**
 * The container scripts the shell's server read from the remotes' manifests for this page (and
 * told the browser to preload for the route's remote): no mf-manifest.json request for them.
 */
let pageEntries: Record<string, unknown> | undefined;
function inlinedEntry(name: string): string | undefined {
  if (pageEntries === undefined) {
    const found = inlineJson('remote-entries');
    pageEntries = typeof found === 'object' && found !== null ? (found as Record<string, unknown>) : {};
  }
  const entry = pageEntries[name];
  return typeof entry === 'string' && /^https?:\/\//.test(entry) ? entry : undefined;
}

/**
 * Reads the remote's mf-manifest.json for its container script. The shell does this itself,
 * rather than handing the MF runtime the manifest, so the runtime can leave out its manifest
 * snapshot and preloading code, which every first load would carry.
 */
async function readRemoteEntry(remote: RemoteEntry): Promise<string> {
  // Revalidated every time: a remote is redeployed (or swapped) without the shell.
  const response = await fetch(remote.entry, { cache: 'no-cache' });
  if (!response.ok) throw new Error(`${remote.entry} answered ${response.status}`);
  const { mfManifestSchema } = await loadManifestSchemas();
  const parsed = mfManifestSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new Error(`${remote.entry} is not a Module Federation manifest`);
  return remoteEntryUrl(parsed.data, response.url || remote.entry);
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
    try {
      // The manifest is read once per page; after a failure it is read again and the remote
      // registered anew, so the MF runtime forgets the failed script.
      if (!registered.has(remote.name) || failedRemotes.has(remote.name)) {
        // The page's own copy first; after a failure the manifest is read afresh.
        const inlined = failedRemotes.has(remote.name) ? undefined : inlinedEntry(remote.name);
        const entry = inlined ?? (await readRemoteEntry(remote));
        registerRemotes([{ name: remote.name, entry }], { force: registered.has(remote.name) });
        registered.set(remote.name, entry);
      }
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

/** Loads started before their outlet renders, each handed to the first outlet of that remote. */
const warming = new Map<string, Promise<RemoteModule>>();

/**
 * Starts loading a remote's './app' before its outlet renders: a signed-in page's remote is
 * made ready (its container and chunks evaluated) while the session is read from the refresh
 * cookie, instead of after. A failure is the outlet's to show, with its retries.
 */
export function warmRemote(remote: RemoteEntry, shellContract: string): void {
  if (warming.has(remote.name)) return;
  const load = loadRemoteApp(remote, shellContract);
  load.catch(() => undefined);
  warming.set(remote.name, load);
}

/** The load warmRemote started for this remote, once: a Retry loads afresh. */
export function takeWarmedRemote(name: string): Promise<RemoteModule> | undefined {
  const load = warming.get(name);
  warming.delete(name);
  return load;
}
