// The static servers of the deployables: each remote from its own origin (CORS open, since
// the shell's page loads it cross-origin), and the shell with its per-brand runtime manifest,
// the brand title written into the page, and /api proxied to the API server.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import sirv from 'sirv';

const require = createRequire(import.meta.url);
const httpProxy = require('http-proxy');

// Entry points must be re-read after a deploy; hashed chunks never change.
const NO_CACHE = /(^|\/)(index\.html|remoteEntry\.js|mf-manifest\.json|main\.js|remotes\.json)$/;

function cacheHeaders(res, pathname) {
  res.setHeader('Cache-Control', NO_CACHE.test(pathname) ? 'no-cache' : 'public, max-age=31536000, immutable');
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/** A remote's build, served from its own origin. */
export function serveRemote({ dir, port, host = '127.0.0.1' }) {
  const files = sirv(dir, { dev: false, etag: true, setHeaders: cacheHeaders });
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

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function brandOf(registry, hostHeader) {
  const host = String(hostHeader ?? '').toLowerCase().replace(/:\d+$/, '');
  return registry.brands.find((b) => b.host === host);
}

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The shell. remotesDir holds the runtime manifests (remotes.json and any per-brand ones); they
 * are read on every request, so an operator's edit takes effect without a rebuild or restart.
 */
export function serveShell({ dir, port, host = '127.0.0.1', remotesDir, brands, apiUrl }) {
  const files = sirv(dir, { dev: false, etag: true, setHeaders: cacheHeaders });
  const indexHtml = readFileSync(join(dir, 'index.html'), 'utf8');
  const proxy = apiUrl ? httpProxy.createProxyServer({ target: apiUrl, xfwd: true, changeOrigin: false }) : null;
  proxy?.on('error', (_error, _req, res) => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ message: 'The service is unavailable. Please try again later.' }));
  });
  const securityHeaders = (res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('X-Frame-Options', 'DENY');
  };

  const server = createServer((req, res) => {
    securityHeaders(res);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/api/') || url.pathname === '/api') {
      if (!proxy) {
        res.writeHead(503, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ message: 'The service is unavailable. Please try again later.' }));
      }
      return proxy.web(req, res);
    }
    const brand = brandOf(brands, req.headers.host);
    if (url.pathname === '/remotes.json') {
      const file = join(remotesDir, brand?.manifest ?? 'remotes.json');
      res.setHeader('Cache-Control', 'no-cache');
      if (!existsSync(file)) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        return res.end('{}');
      }
      res.setHeader('Content-Type', 'application/json');
      return res.end(readFileSync(file));
    }
    files(req, res, () => {
      // Every other path is a route of the single-page app: the page, with the brand's title.
      const title = escapeHtml(brand?.title ?? brands.defaultTitle);
      const page = indexHtml
        .replace(/<meta name="brand-title" content="[^"]*"\s*\/?>/, `<meta name="brand-title" content="${title}">`)
        .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
      res.end(page);
    });
  });
  return listen(server, port, host);
}

export function loadBrands(file, fallback) {
  return file ? readJson(file) : fallback;
}
