// A file a deployed remote serves (its mf-manifest.json, its routes.json), read by the shell's
// server and kept for a while: a redeploy is seen within the TTL, and a remote that fails to
// answer keeps its last good copy for `staleMs`.

// A remote that does not answer must not hold the page up.
export const REMOTE_TIMEOUT_MS = 800;

/**
 * @template T
 * @param {object} o
 * @param {number} o.ttlMs how long a read is trusted
 * @param {number} o.staleMs how long the last good copy stands in for a failed read
 * @param {(json: unknown, url: string) => T | Promise<T>} o.parse throws on a file that is not one
 * @param {number} [o.timeoutMs] how long a read may take
 * @param {boolean} [o.background] after the TTL, answer with the last good copy at once and read again behind it
 * @param {(url: string, problem: string | undefined) => void} [o.onChange] a URL starts failing (with why) or answers again (undefined)
 * @param {typeof fetch} [o.fetchImpl]
 * @returns {(url: string) => Promise<T | undefined>}
 */
export function createRemoteReader({ ttlMs, staleMs, parse, timeoutMs = REMOTE_TIMEOUT_MS, background = false, onChange = () => undefined, fetchImpl = fetch }) {
  const cache = new Map();
  const lastGood = new Map();
  const failing = new Set();
  const read = async (url) => {
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const value = await parse(await response.json(), response.url || url);
      if (failing.delete(url)) onChange(url, undefined);
      return value;
    } catch (error) {
      if (!failing.has(url)) {
        failing.add(url);
        onChange(url, String(error?.message ?? error));
      }
      return undefined;
    }
  };
  const stale = (url) => {
    const kept = lastGood.get(url);
    return kept && Date.now() - kept.at < staleMs ? kept.value : undefined;
  };
  return (url) => {
    const hit = cache.get(url);
    if (hit && Date.now() - hit.at < ttlMs) return hit.value;
    const value = read(url).then((fresh) => {
      if (fresh !== undefined) lastGood.set(url, { at: Date.now(), value: fresh });
      return fresh ?? stale(url);
    });
    cache.set(url, { at: Date.now(), value });
    const kept = stale(url);
    return background && kept !== undefined ? Promise.resolve(kept) : value;
  };
}
