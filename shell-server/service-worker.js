// The site's service worker (served as /sw.js by the shell's server, which puts PRECACHE and
// VERSION in front of this). It keeps the content-addressed scripts a page starts with in Cache
// Storage from its install: Chromium compiles the scripts a service worker caches at install and
// keeps the compiled code beside them, so the next visit runs them without parsing or compiling.
// Only files whose URL names their content are answered from the cache; the pages, remoteEntry.js,
// the manifests and the API always go to the network, so a redeployed remote is served on the
// next page load.
/* global self, caches, PRECACHE, VERSION */
const CACHE = `scripts-${VERSION}`;
const CONTENT_HASHED = /(^|[./-])[0-9a-f]{8,}\.(js|css)$/i;

/** A URL whose bytes can never change: a hashed file name, or the shell's main.js by version. */
function contentAddressed(url) {
  if (CONTENT_HASHED.test(url.pathname)) return true;
  return url.origin === self.location.origin && url.pathname === '/main.js' && url.searchParams.has('v');
}

/**
 * Chromium's static routes answer without starting this worker, which otherwise costs its start-up
 * (on a slow CPU, more than the compiled code saves) on every visit: pages and everything but
 * scripts go to the network, scripts to Cache Storage (only content-addressed files are ever put
 * there; anything else is not found and goes to the network, so remoteEntry.js stays fresh).
 * Browsers without them use the fetch handler below, to the same effect.
 */
async function addStaticRoutes(event) {
  if (typeof event.addRoutes !== 'function') return;
  try {
    await event.addRoutes([
      { condition: { requestMode: 'navigate' }, source: 'network' },
      { condition: { not: { requestDestination: 'script' } }, source: 'network' },
      { condition: { requestDestination: 'script' }, source: 'cache' },
    ]);
  } catch {
    /* an older router: the fetch handler answers */
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      await addStaticRoutes(event);
      const cache = await caches.open(CACHE);
      // One file that cannot be fetched (a remote down) does not stop the others being kept.
      await Promise.allSettled(
        PRECACHE.map(async (href) => {
          const url = new URL(href, self.location.origin);
          const sameOrigin = url.origin === self.location.origin;
          const response = await fetch(url.href, { mode: 'cors', credentials: sameOrigin ? 'same-origin' : 'omit' });
          if (response.ok) await cache.put(url.href, response);
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      // The page's request starts while the worker starts, not after.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.mode === 'navigate') {
    event.respondWith((async () => (await event.preloadResponse) ?? fetch(request))());
    return;
  }
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!contentAddressed(url)) return;
  event.respondWith(
    (async () => {
      const kept = await caches.match(url.href, { cacheName: CACHE, ignoreVary: true });
      return kept ?? fetch(request);
    })(),
  );
});
