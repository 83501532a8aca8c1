/** Spec §9: how long the page must have been idle before the next step's files are fetched. */
export const IDLE_PREFETCH_TIMEOUT_MS = 2000;

interface IdleWindow {
  setTimeout(handler: () => void, ms: number): unknown;
  requestIdleCallback?(handler: () => void, options?: { timeout: number }): unknown;
}

/**
 * When the page has loaded and then been idle for IDLE_PREFETCH_TIMEOUT_MS, asks the browser to
 * prefetch `urls` (what the visitor most likely opens next, listed by the shell's server): low
 * priority, into the cache, nothing run. A later import of them is then a cache hit.
 */
export function prefetchWhenIdle(urls: readonly string[], doc: Document = document, win: IdleWindow = window): void {
  if (urls.length === 0) return;
  const prefetch = () => {
    for (const href of urls) {
      const link = doc.createElement('link');
      link.rel = 'prefetch';
      link.href = href;
      doc.head.appendChild(link);
    }
  };
  const afterIdle = () =>
    win.setTimeout(() => {
      if (win.requestIdleCallback) win.requestIdleCallback(prefetch, { timeout: IDLE_PREFETCH_TIMEOUT_MS });
      else prefetch();
    }, IDLE_PREFETCH_TIMEOUT_MS);
  if (doc.readyState === 'complete') afterIdle();
  else doc.defaultView?.addEventListener('load', afterIdle, { once: true });
}

/** The list the shell's server wrote into the page, if it is one. */
export function pagePrefetchList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((u): u is string => typeof u === 'string' && /^(\/|https?:\/\/)/.test(u)) : [];
}
