// The static servers of the deployables: each remote from its own origin (CORS open, since
// the shell's page loads it cross-origin), and the shell with its per-brand runtime manifest,
// the brand's look written into the page, its legal pages, and /api proxied to the API server.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { appendFileSync, existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import sirv from 'sirv';
import { defaultLanguageRedirect, serveBrandFile } from './brand-page.mjs';
import { CSP_REPORT_PATH, createPageRenderer, createPrecacheList, createRemoteManifests, loadServerSchemas, mainScriptVersion, withoutRoleRemotes } from './page.mjs';
import { createManifestComposer, createRemoteRoutes } from './remote-routes.mjs';
import { createUpstreams } from './upstreams.mjs';

// A file whose name carries its content hash never changes: cached for a year, never revalidated.
// Everything else (the page, main.js, remoteEntry.js, the manifests) is revalidated by ETag on
// every use, so a deploy is seen at once.
const HASHED = /(^|[./-])[0-9a-f]{8,}\.[a-z0-9]+$/i;
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Responses whose URL names their content though the file name does not (main.js?v=…). */
const versioned = new WeakSet();

function cacheHeaders(res, pathname) {
  res.setHeader('Cache-Control', HASHED.test(pathname) || versioned.has(res) ? IMMUTABLE : REVALIDATE);
}

/** A build's files, with the .br and .gz copies made at build time chosen by Accept-Encoding. */
const staticFiles = (dir) => sirv(dir, { dev: false, etag: true, brotli: true, gzip: true, setHeaders: cacheHeaders });

/** The encoding a response made on the fly uses: brotli, else gzip, else none. */
function negotiatedEncoding(req) {
  const accepted = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return undefined;
}

const encoders = {
  // Quality 5: the page is made per request, and 11 costs tens of milliseconds for a few bytes.
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (body) => gzipSync(body, { level: 6 }),
};

/**
 * Sends a text made by the server (the page, remotes.json): revalidated by ETag, compressed as
 * the request accepts.
 */
export function sendRevalidated(req, res, body, contentType) {
  const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const etag = `"${createHash('sha1').update(buffer).digest('base64url')}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', REVALIDATE);
  res.setHeader('Vary', ['Accept-Encoding', res.getHeader('Vary')].filter(Boolean).join(', '));
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304);
    return res.end();
  }
  const encoding = negotiatedEncoding(req);
  const payload = encoding ? encoders[encoding](buffer) : buffer;
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': payload.length });
  res.end(req.method === 'HEAD' ? undefined : payload);
}

export const SERVICE_WORKER_PATH = '/sw.js';
const serviceWorkerSource = readFileSync(new URL('./service-worker.js', import.meta.url), 'utf8');

/** The service worker with the brand's list of files to keep, and a version naming that list. */
export function serviceWorkerScript(list) {
  const version = createHash('sha256').update(JSON.stringify(list)).update(serviceWorkerSource).digest('hex').slice(0, 12);
  return `const PRECACHE = ${JSON.stringify(list)};\nconst VERSION = '${version}';\n${serviceWorkerSource}`;
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** A remote's build, served from its own origin. */
export function serveRemote({ dir, port, host = '127.0.0.1' }) {
  const files = staticFiles(dir);
  const server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    files(req, res, () => {
      res.statusCode = 404;
      res.end('Not found');
    });
  });
  return listen(server, port, host);
}

/** A brand's manifest as stored, or undefined when there is none. */
const readManifest = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

/** A route of the single-page app, not a file of the build ("/", "/sign-in", "/ru/cabinet/pools/stable"). */
const isPage = (pathname) => pathname === '/' || pathname.endsWith('/index.html') || !/\.[a-z0-9]+$/i.test(pathname);

/** The console's calls: forwarded to the operator API's /api/v1/operator/ on the operator host only. */
export const OPERATOR_API_PREFIX = '/operator-api/';

/** Headers a client could send to pass for another address, host or scheme behind the proxy. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip'];

/** Two years, subdomains too: the whole site is HTTPS-only in production. */
export const HSTS = 'max-age=63072000; includeSubDomains';
const MAX_REPORT_BYTES = 16 * 1024;
/**
 * CSP reports: a page with a violation sends one per blocked load, so a few a minute per address is
 * plenty; past that (or past the site-wide budget) a report is refused unread. The file keeps the
 * newest reports up to its size, and the one before it as `.1`.
 */
export const CSP_REPORT_LIMITS = { perAddressPerMinute: 30, perMinute: 600, fileBytes: 1024 * 1024 };

/** Fixed one-minute windows per client address, forgotten wholesale when the minute turns. */
function createReportBudget(limits) {
  let windowStart = 0;
  let total = 0;
  const counts = new Map();
  return (address) => {
    const now = Date.now();
    if (now - windowStart >= 60_000) {
      windowStart = now;
      total = 0;
      counts.clear();
    }
    const mine = (counts.get(address) ?? 0) + 1;
    if (mine > limits.perAddressPerMinute || total >= limits.perMinute) return false;
    counts.set(address, mine);
    total++;
    return true;
  };
}

/** Appends a line, first moving a full file aside to `.1` (replacing the older one). */
function appendRotated(file, line, maxBytes) {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    /* no file yet */
  }
  if (size > 0 && size + Buffer.byteLength(line) > maxBytes) renameSync(file, `${file}.1`);
  appendFileSync(file, line);
}

/** A browser's CSP violation report: logged (and kept in a file when asked), answered 204. */
function receiveCspReport(req, res, reportFile, allowed, limits) {
  if (!allowed(req.socket.remoteAddress ?? 'unknown')) {
    res.writeHead(429, { 'Retry-After': '60' });
    res.end();
    req.resume();
    return;
  }
  let body = '';
  let tooLong = false;
  req.setEncoding('utf8');
  req.on('data', (chunk) => {
    if (body.length + chunk.length > MAX_REPORT_BYTES) tooLong = true;
    else body += chunk;
  });
  req.on('end', () => {
    res.writeHead(tooLong ? 413 : 204);
    res.end();
    if (tooLong) return;
    let report;
    try {
      report = JSON.parse(body)['csp-report'];
    } catch {
      return;
    }
    if (!report || typeof report !== 'object') return;
    const line = JSON.stringify({ at: new Date().toISOString(), page: report['document-uri'], directive: report['violated-directive'], blocked: report['blocked-uri'], source: report['source-file'], line: report['line-number'], sample: report['script-sample'] });
    console.warn(`[csp] ${line}`);
    if (reportFile) appendRotated(reportFile, `${line}\n`, limits.fileBytes);
  });
}

/**
 * The shell. remotesDir holds the brands' manifests (remotes.json and any per-brand ones: where
 * each remote is deployed); they are read on every request, so an operator's edit takes effect
 * without a rebuild or restart. The routes come from each deployed remote (remote-routes.mjs).
 * `brands` is the live brand registry (brand-page.mjs openBrands): a brand added or edited in its
 * folder is served from the next request.
 * `production` adds HSTS; `routesTtlMs` how long a remote's routes are trusted; `cspReportFile` keeps the CSP violation reports the browsers send (within `cspReportLimits`).
 * `operatorApiUrl` is the operator API (its own internal port): the console's calls under
 * /operator-api/ reach it only when the page's host is one of `operatorHosts` (the deployment's
 * operator host); on any other host, and without it, they are not found. `apiUrl` and
 * `operatorApiUrl` may each be a list: the API's replicas, taken in turn (upstreams.mjs).
 */
export function serveShell({ dir, port, host = '127.0.0.1', remotesDir, brands, apiUrl, operatorApiUrl, operatorHosts = [], production = false, cspReportFile, cspReportLimits = CSP_REPORT_LIMITS, routesTtlMs }) {
  const reportAllowed = createReportBudget(cspReportLimits);
  const files = staticFiles(dir);
  const remoteManifests = createRemoteManifests();
  // main.js is read and hashed once, for the page, the service worker's list and its caching.
  const mainVersion = mainScriptVersion(dir);
  const schemas = loadServerSchemas(dir);
  const renderPage = createPageRenderer({ dir, remoteManifests, mainVersion, schemas });
  const remoteRoutes = createRemoteRoutes({ schema: schemas.then((s) => s?.remoteRoutesFileSchema), ttlMs: routesTtlMs });
  const compose = createManifestComposer(remoteRoutes);
  // Every brand's remotes are read once at start, so a brand whose deploy of a remote is down
  // from the first request still has that remote's routes (read from another brand's deploy).
  const manifestFiles = [...new Set(['remotes.json', ...(brands?.brands ?? []).map((b) => b.manifest ?? 'remotes.json')])];
  const warm = Promise.all(manifestFiles.map((file) => compose(readManifest(join(remotesDir, file))).catch(() => undefined)));
  const precacheList = createPrecacheList({ dir, remoteManifests, mainVersion });
  const unavailable = (_req, res) => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ message: 'The service is unavailable. Please try again later.' }));
  };
  // One API or several replicas of it, spread in turn (upstreams.mjs).
  const proxy = apiUrl ? createUpstreams([apiUrl].flat(), { unavailable }) : null;
  const operatorProxy = operatorApiUrl ? createUpstreams([operatorApiUrl].flat(), { unavailable }) : null;
  const onOperatorHost = (req) => operatorHosts.includes((req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase());
  const securityHeaders = (res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    if (production) res.setHeader('Strict-Transport-Security', HSTS);
  };

  const server = createServer((req, res) => {
    securityHeaders(res);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith(OPERATOR_API_PREFIX)) {
      if (!operatorProxy || !onOperatorHost(req)) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ message: 'Not found', code: 'NOT_FOUND' }));
      }
      for (const h of FORWARDING_HEADERS) delete req.headers[h];
      req.url = `/api/v1/operator/${req.url.slice(OPERATOR_API_PREFIX.length)}`;
      return operatorProxy.web(req, res);
    }
    if (url.pathname.startsWith('/api/') || url.pathname === '/api') {
      if (!proxy) {
        res.writeHead(503, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ message: 'The service is unavailable. Please try again later.' }));
      }
      // This server is the edge: the browser's address is the socket's, whatever the request
      // claims. The proxy then writes X-Forwarded-For/-Port/-Proto afresh (xfwd).
      for (const h of FORWARDING_HEADERS) delete req.headers[h];
      return proxy.web(req, res);
    }
    if (url.pathname === CSP_REPORT_PATH && req.method === 'POST') return receiveCspReport(req, res, cspReportFile, reportAllowed, cspReportLimits);
    const brand = brands.forHost(req.headers.host);
    const manifestFile = join(remotesDir, brand.manifest);
    // The console's remote is composed only on the operator host; elsewhere it does not exist.
    const operatorHost = onOperatorHost(req);
    const manifestText = () => warm.then(() => compose(readManifest(manifestFile))).then((text) => (operatorHost ? text : withoutRoleRemotes(text)));
    if (url.pathname === SERVICE_WORKER_PATH) {
      // The brand's list is part of the script: a deploy of the shell or of a remote changes
      // its bytes, and the browser installs it again with the new files.
      return manifestText().then(precacheList).then(
        (list) => sendRevalidated(req, res, serviceWorkerScript(list), 'text/javascript; charset=utf-8'),
        () => {
          res.writeHead(503, { 'Content-Type': 'text/plain' });
          res.end('The service worker could not be made.');
        },
      );
    }
    if (serveBrandFile({ req, res, brand, pathname: url.pathname, stylesheet: renderPage.stylesheet, send: sendRevalidated })) return;
    if (url.pathname === '/main.js' && mainVersion && url.searchParams.get('v') === mainVersion) versioned.add(res);
    if (url.pathname === '/remotes.json') {
      if (!existsSync(manifestFile)) {
        res.writeHead(404, { 'Content-Type': 'application/json', 'Cache-Control': REVALIDATE });
        return res.end('{}');
      }
      return manifestText().then((text) => sendRevalidated(req, res, text ?? '{}', 'application/json'));
    }
    // The page itself is always made here (never sirv's index.html), with the brand's title.
    const serveFile = isPage(url.pathname) ? (_req, _res, next) => next() : files;
    serveFile(req, res, () => {
      // Every other path is a route of the single-page app.
      const toDefaultLanguage = defaultLanguageRedirect(req, brand, url);
      if (toDefaultLanguage) {
        res.writeHead(302, { Location: toDefaultLanguage, 'Cache-Control': 'no-store', Vary: 'Cookie' });
        return res.end();
      }
      // The service worker's navigation preload says so: the page's files are in its cache.
      const keptByServiceWorker = req.headers['service-worker-navigation-preload'] !== undefined;
      manifestText().then((text) => renderPage({ brand, pathname: url.pathname, manifestText: text, keptByServiceWorker })).then(
        ({ html, csp }) => {
          res.setHeader('Content-Security-Policy', csp);
          res.setHeader('Vary', 'Service-Worker-Navigation-Preload');
          sendRevalidated(req, res, html, 'text/html; charset=utf-8');
        },
        (error) => {
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end(`The page could not be made: ${String(error?.message ?? error)}`);
        },
      );
    });
  });
  return listen(server, port, host);
}
