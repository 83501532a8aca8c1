import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createUpstreams } from '../upstreams.mjs';
import { close, listening as listen, send, type Answer } from './http';

// The shell's proxy in front of several API replicas (`npm start -- --postgres --replicas N`).

/** A replica that answers its name, the method and the body it received, and counts its calls. */
function replica(name: string, handle?: (req: IncomingMessage, res: ServerResponse) => boolean) {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      calls.push(`${req.method} ${body}`);
      if (handle?.(req, res)) return;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ name, method: req.method, body }));
    });
  });
  return { name, server, calls };
}

/** The proxy as the shell's server runs it, on a port of its own. */
async function proxyTo(urls: string[], downMs = 60_000) {
  const upstreams = createUpstreams(urls, {
    downMs,
    unavailable: (_req: IncomingMessage, res: ServerResponse) => {
      if (!res.headersSent) res.writeHead(502);
      res.end('unavailable');
    },
  });
  const server = createServer((req, res) => upstreams.web(req, res));
  return { server, port: await listen(server) };
}

const nameOf = (a: Answer) => (JSON.parse(a.body) as { name: string }).name;

describe('the shell’s proxy over the API replicas', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => (s.listening ? close(s) : Promise.resolve())));
  });
  async function replicas(...made: ReturnType<typeof replica>[]) {
    const ports = [];
    for (const r of made) {
      servers.push(r.server);
      ports.push(await listen(r.server));
    }
    return ports.map((p) => `http://127.0.0.1:${p}`);
  }

  it('spreads requests over the replicas in turn', async () => {
    const urls = await replicas(replica('a'), replica('b'), replica('c'));
    const proxy = await proxyTo(urls);
    servers.push(proxy.server);
    const names = [];
    for (let i = 0; i < 6; i++) names.push(nameOf(await send(proxy.port, 'GET', '/api/v1/profile')));
    expect(names).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('a replica that is down: every request, a POST and its body included, goes to a live one; the dead one is tried again later', async () => {
    const a = replica('a');
    const b = replica('b');
    const urls = await replicas(a, b);
    const proxy = await proxyTo(urls, 300);
    servers.push(proxy.server);
    const aPort = Number(new URL(urls[0]!).port);
    await close(a.server);

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send(proxy.port, i % 2 ? 'GET' : 'POST', '/api/v1/withdrawals', {}, i % 2 ? undefined : `request ${i}`));
    expect(answers.map((x) => [x.status, nameOf(x)])).toEqual([
      [200, 'b'],
      [200, 'b'],
      [200, 'b'],
      [200, 'b'],
    ]);
    // Each request reached a replica once, with its body.
    expect(b.calls).toEqual(['POST request 0', 'GET ', 'POST request 2', 'GET ']);

    // Back on its port: once its pause is over, it has its turn again.
    await listen(a.server, aPort);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const names = new Set<string>();
    for (let i = 0; i < 4; i++) names.add(nameOf(await send(proxy.port, 'GET', '/api/v1/profile')));
    expect([...names].sort()).toEqual(['a', 'b']);
  });

  it('a replica that drops the connection mid-request: a read goes to another replica, a change is never sent twice', async () => {
    // Replica a dies while it holds the request (the socket is cut, no answer).
    const a = replica('a', (req) => {
      req.socket.destroy();
      return true;
    });
    const b = replica('b');
    const urls = await replicas(a, b);
    const proxy = await proxyTo(urls, 0);
    servers.push(proxy.server);

    const read = await send(proxy.port, 'GET', '/api/v1/profile');
    expect([read.status, nameOf(read)]).toEqual([200, 'b']);

    // b's turn, then a's again (no pause here): a POST that replica a may have acted on is answered 502, not repeated at b.
    expect(nameOf(await send(proxy.port, 'GET', '/api/v1/profile'))).toBe('b');
    const calls = b.calls.length;
    const change = await send(proxy.port, 'POST', '/api/v1/withdrawals', {}, 'once');
    expect(change).toEqual({ status: 502, body: 'unavailable' });
    expect(a.calls).toEqual(['GET ', 'POST once']);
    expect(b.calls.length).toBe(calls);
  });

  it('with every replica down, answers unavailable', async () => {
    const a = replica('a');
    const b = replica('b');
    const urls = await replicas(a, b);
    const proxy = await proxyTo(urls);
    servers.push(proxy.server);
    await Promise.all([close(a.server), close(b.server)]);
    expect(await send(proxy.port, 'POST', '/api/v1/withdrawals', {}, 'x')).toEqual({ status: 502, body: 'unavailable' });
  });
});
