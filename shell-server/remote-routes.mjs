// The routes each remote owns, as it publishes them with its build (routes.json beside its
// mf-manifest.json), put into the brand's runtime manifest: a team that adds a route changes only
// its own folder and deploys its remote; the shell sees it within REMOTE_ROUTES_TTL_MS.
import { createRemoteReader } from './remote-json.mjs';

/** How long a remote's routes.json is trusted: a deploy that adds a route is seen within this. */
export const REMOTE_ROUTES_TTL_MS = 5000;

/**
 * A page waits for a remote's routes only when none were ever read (once kept, later reads happen
 * behind the pages): long enough for a busy remote, which would otherwise leave its pages out.
 */
const REMOTE_ROUTES_TIMEOUT_MS = 3000;

/** A remote's routes.json, beside its mf-manifest.json (the brand manifest's `entry`). */
export const routesUrlOf = (entry) => new URL('routes.json', entry).href;

/**
 * @param {object} o
 * @param {Promise<{ safeParse(v: unknown): { success: boolean, data?: any, error?: any } } | undefined>} o.schema
 *   remoteRoutesFileSchema from the shell's build; without a build, the file's shape is read loosely
 *   and the browser's check of the manifest reports what is wrong
 * @param {(line: string) => void} [o.log]
 * @param {number} [o.ttlMs]
 * @param {typeof fetch} [o.fetchImpl]
 * @returns {(remote: { name: string, entry: string }) => Promise<object[] | undefined>} the routes, or undefined if never read
 */
export function createRemoteRoutes({ schema, log = console.warn, ttlMs = REMOTE_ROUTES_TTL_MS, fetchImpl = fetch }) {
  const parse = async (json) => {
    const checker = await schema;
    if (!checker) {
      if (!Array.isArray(json?.routes)) throw new Error('no routes');
      return json.routes;
    }
    const result = checker.safeParse(json);
    if (!result.success) throw new Error(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
    return result.data.routes;
  };
  // A deploy whose routes do not answer keeps the last good ones: a remote's routes do not go
  // away with a restart of its server, and the page shows the section's fallback meanwhile.
  const read = createRemoteReader({
    ttlMs,
    staleMs: Infinity,
    timeoutMs: REMOTE_ROUTES_TIMEOUT_MS,
    background: true,
    fetchImpl,
    parse,
    onChange: (url, problem) => log(problem ? `[routes] ${url}: ${problem}; the last good routes stay` : `[routes] ${url} answers again`),
  });
  // The same remote at another deploy (another brand's, a canary) publishes the same routes: its
  // last good ones stand in for a deploy that never answered.
  const byName = new Map();
  return async (remote) => {
    let url;
    try {
      url = routesUrlOf(remote.entry);
    } catch {
      return byName.get(remote.name);
    }
    const routes = await read(url);
    if (routes) byName.set(remote.name, routes);
    return routes ?? byName.get(remote.name);
  };
}

/**
 * The runtime manifest the browser gets: the brand's manifest (where each remote is deployed and
 * its contract) with the routes each remote publishes. A remote whose routes were never read is
 * left out (its pages are not found until it answers). A manifest that is not JSON with a
 * remotes list is passed on as it is: the browser's check shows what is wrong with it.
 * @param {ReturnType<typeof createRemoteRoutes>} remoteRoutes
 * @param {(line: string) => void} [log]
 */
export function createManifestComposer(remoteRoutes, log = console.warn) {
  let last = { text: /** @type {string | undefined} */ (undefined), routes: /** @type {unknown[]} */ ([]), composed: /** @type {string | undefined} */ (undefined) };
  const missing = new Set();
  /** @param {string | undefined} manifestText the brand's manifest as stored */
  return async (manifestText) => {
    let manifest;
    try {
      manifest = manifestText === undefined ? undefined : JSON.parse(manifestText);
    } catch {
      return manifestText;
    }
    if (!Array.isArray(manifest?.remotes)) return manifestText;
    const named = (r) => typeof r?.name === 'string' && typeof r?.entry === 'string';
    const routes = await Promise.all(manifest.remotes.map((r) => (named(r) ? remoteRoutes(r) : undefined)));
    // The same text and the same routes (kept objects): the same answer, so the page's checked copy is kept too.
    if (manifestText === last.text && routes.length === last.routes.length && routes.every((r, i) => r === last.routes[i])) return last.composed;
    const remotes = [];
    manifest.remotes.forEach((remote, i) => {
      if (!named(remote)) return remotes.push(remote);
      if (routes[i]) return remotes.push({ ...remote, routes: routes[i] });
      if (!missing.has(remote.entry)) log(`[routes] ${remote.name} (${remote.entry}): no routes read yet; its pages are left out`);
      missing.add(remote.entry);
    });
    const composed = JSON.stringify({ ...manifest, remotes });
    last = { text: manifestText, routes, composed };
    return composed;
  };
}
