// Where the shell's server forwards /api (and the operator's calls): one API, or several replicas
// of it (`npm start -- --postgres --replicas N`). Requests are spread over the replicas in turn;
// a replica that refuses the connection is passed over for a moment and the request goes to the
// next live one, so a replica that dies costs no request that it never received.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';

const require = createRequire(import.meta.url);
const httpProxy = require('http-proxy');

/** The largest body the API accepts at its highest setting (BODY_LIMIT_BYTES); the replicas' proxy holds it to send it again. */
export const MAX_BUFFERED_BODY = 10 * 1024 * 1024;
/** How long a replica that failed a connection is passed over before it is tried again. */
export const DOWN_MS = 2000;

/** The replica never had the request: any method can go to another one. */
const NEVER_REACHED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
/** The connection broke: the replica may have acted on it, so only a request that changes nothing goes again. */
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Reads the request's body into memory, up to `limit` bytes (answers null above it). */
function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.once('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/**
 * Forwards requests to `urls` (one or more upstreams). With one, the request streams straight
 * through. With several: round-robin, skipping upstreams marked down (a failed connection marks
 * one for `downMs`; when all are down, all are tried); the body is held so that a request the
 * chosen replica never received goes to the next one. `unavailable(req, res, error)` answers when
 * no upstream could. Answers `web(req, res)` and `targets` (each url with its `downUntil`).
 */
export function createUpstreams(urls, { unavailable, downMs = DOWN_MS, maxBody = MAX_BUFFERED_BODY, now = Date.now } = {}) {
  const proxy = httpProxy.createProxyServer({ xfwd: true, changeOrigin: false });
  const targets = urls.map((url) => ({ url, downUntil: 0 }));
  let turn = 0;

  /** This request's order: the next upstream in turn first, the ones marked down last. */
  function order() {
    const start = turn;
    turn = (turn + 1) % targets.length;
    const inTurn = targets.map((_, i) => targets[(start + i) % targets.length]);
    const at = now();
    return [...inTurn.filter((t) => t.downUntil <= at), ...inTurn.filter((t) => t.downUntil > at)];
  }

  async function spread(req, res) {
    let body;
    try {
      body = await readBody(req, maxBody);
    } catch (error) {
      return unavailable(req, res, error);
    }
    if (body === null) {
      res.writeHead(413, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ message: 'The request is too large.' }));
    }
    const tries = order();
    const attempt = (i) => {
      const target = tries[i];
      proxy.web(req, res, { target: target.url, buffer: Readable.from(body.length ? [body] : []) }, (error) => {
        const code = error?.code;
        if (NEVER_REACHED.has(code) || BROKEN.has(code)) target.downUntil = now() + downMs;
        const again = NEVER_REACHED.has(code) || (BROKEN.has(code) && SAFE_METHODS.has(req.method ?? 'GET'));
        if (again && !res.headersSent && i + 1 < tries.length) return attempt(i + 1);
        unavailable(req, res, error);
      });
    };
    attempt(0);
  }

  return {
    targets,
    web(req, res) {
      if (targets.length === 1) return proxy.web(req, res, { target: targets[0].url }, (error) => unavailable(req, res, error));
      void spread(req, res);
    },
  };
}
