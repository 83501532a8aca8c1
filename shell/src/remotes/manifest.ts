import { loadManifestSchemas, routeOwner as ownerOf, type RemoteEntry, type RemoteRoute, type RuntimeManifest } from '@app/contracts';

export class ManifestError extends Error {
  constructor(message: string, readonly detail: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/** JSON the shell's server wrote into the page (<script type="application/json" id=…>), if any. */
export function inlineJson(id: string, doc: Document | undefined = globalThis.document): unknown {
  const text = doc?.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The runtime manifest the server chose for this brand host: the copy inlined in the page (no
 * request before the remotes can start), else fetched. Validated either way: the server puts in
 * the page only a manifest that passed runtimeManifestSchema (shell-server/page.mjs), and the
 * page is as much the server's word as the manifest, so only a fetched one is checked here.
 */
export async function fetchRuntimeManifest(url = '/remotes.json', fetchImpl: typeof fetch = fetch): Promise<RuntimeManifest> {
  const inlined = inlineJson('runtime-manifest');
  if (inlined !== undefined) return inlined as RuntimeManifest;
  let response: Response;
  try {
    response = await fetchImpl(url, { cache: 'no-store' });
  } catch (error) {
    throw new ManifestError('unreachable', String(error));
  }
  if (!response.ok) throw new ManifestError('unreachable', `HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new ManifestError('malformed', `not JSON: ${String(error)}`);
  }
  let schemas: Awaited<ReturnType<typeof loadManifestSchemas>>;
  try {
    schemas = await loadManifestSchemas();
  } catch (error) {
    throw new ManifestError('unreachable', String(error));
  }
  const parsed = schemas.runtimeManifestSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ManifestError('malformed', issues);
  }
  return parsed.data;
}

/** The remote and route owning a pathname, by the matcher the shell's server uses too. */
export function routeOwner(manifest: RuntimeManifest, pathname: string): { remote: RemoteEntry; route: RemoteRoute } | undefined {
  return ownerOf<RemoteRoute, RemoteEntry>(manifest, pathname);
}
