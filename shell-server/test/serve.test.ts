import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrandRegistry } from '../../shared/contracts/src/brand-folder';
import { serveShell } from '../serve.mjs';
import { close, listening, send } from './http';

describe('the shell’s server at the edge', () => {
  // A shell build of one page: enough for the server to start.
  const dir = mkdtempSync(join(tmpdir(), 'shell-dist-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body><script src="/main.js"></script></body></html>');
  const brands = openBrandRegistry(join(__dirname, '../../brands'), () => undefined);
  afterAll(() => brands.close());

  it('overwrites a client’s X-Forwarded-For (and Host, Proto) before passing a call to the API', async () => {
    // The API here echoes the forwarding headers it receives.
    const api = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ for: req.headers['x-forwarded-for'], host: req.headers['x-forwarded-host'] ?? null, proto: req.headers['x-forwarded-proto'], realIp: req.headers['x-real-ip'] ?? null }));
    });
    const apiPort = await listening(api);
    let shell: Server | undefined;
    try {
      shell = (await serveShell({ dir, port: 0, remotesDir: dir, brands, apiUrl: `http://127.0.0.1:${apiPort}` })) as Server;
      const port = (shell.address() as AddressInfo).port;
      const r = await send(port, 'GET', '/api/v1/profile', { 'X-Forwarded-For': '203.0.113.9, 198.51.100.7', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https', 'X-Real-IP': '203.0.113.9' });
      expect(r.status).toBe(200);
      // The test connects from 127.0.0.1: that, and only that, is the browser's address; the host is
      // the one it connected to, not the one it claimed.
      expect(JSON.parse(r.body)).toEqual({ for: '127.0.0.1', host: `127.0.0.1:${port}`, proto: 'http', realIp: null });
    } finally {
      if (shell) await close(shell);
      await close(api);
    }
  });

  it('forwards the console\'s calls to the operator API only on the operator host', async () => {
    // The operator API here echoes the path it was asked for.
    const operatorApi = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ path: req.url }));
    });
    const operatorPort = await listening(operatorApi);
    let shell: Server | undefined;
    try {
      shell = (await serveShell({ dir, port: 0, remotesDir: dir, brands, operatorApiUrl: `http://127.0.0.1:${operatorPort}`, operatorHosts: ['ops.example'] })) as Server;
      const port = (shell.address() as AddressInfo).port;
      const onOps = await send(port, 'GET', '/operator-api/withdrawals?status=awaiting_approval', { Host: `ops.example:${port}` });
      expect([onOps.status, JSON.parse(onOps.body)]).toEqual([200, { path: '/api/v1/operator/withdrawals?status=awaiting_approval' }]);
      expect((await send(port, 'GET', '/operator-api/withdrawals', { Host: 'invest.example' })).status).toBe(404);
      expect((await send(port, 'GET', '/operator-api/withdrawals', { Host: `127.0.0.1:${port}` })).status).toBe(404);
    } finally {
      if (shell) await close(shell);
      await close(operatorApi);
    }
  });

  it('limits CSP reports per address and rotates their file at its size', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'csp-')), 'csp-reports.jsonl');
    const limits = { perAddressPerMinute: 5, perMinute: 100, fileBytes: 300 };
    const shell = (await serveShell({ dir, port: 0, remotesDir: dir, brands, cspReportFile: file, cspReportLimits: limits })) as Server;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const port = (shell.address() as AddressInfo).port;
      const report = (n: number) => JSON.stringify({ 'csp-report': { 'document-uri': `http://localhost/page-${n}`, 'violated-directive': 'script-src', 'blocked-uri': 'inline' } });
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await send(port, 'POST', '/csp-report', { 'Content-Type': 'application/csp-report' }, report(i))).status);
      expect(statuses).toEqual([204, 204, 204, 204, 204, 429, 429, 429]);
      // Five were accepted; a 300-byte file holds about two, so it was moved aside: the two files
      // hold the newest reports in order, and neither is over the size.
      const pages = [`${file}.1`, file].flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean)).map((l) => JSON.parse(l).page as string);
      const sent = [0, 1, 2, 3, 4].map((n) => `http://localhost/page-${n}`);
      expect(pages.length).toBeGreaterThanOrEqual(2);
      expect(pages).toEqual(sent.slice(sent.length - pages.length));
      expect(statSync(file).size).toBeLessThanOrEqual(limits.fileBytes);
      expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(limits.fileBytes);
    } finally {
      warn.mockRestore();
      await close(shell);
    }
  });

  it('issue 25: a first visit to a brand whose default language is Russian opens the page under /ru; a remembered language, or another brand, stays', async () => {
    const shell = (await serveShell({ dir, port: 0, remotesDir: dir, brands })) as Server;
    try {
      const port = (shell.address() as AddressInfo).port;
      const head = (path: string, headers: Record<string, string>) =>
        new Promise<{ status: number; location?: string }>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, method: 'GET', path, headers }, (res) => {
            res.resume();
            resolve({ status: res.statusCode ?? 0, location: res.headers.location });
          });
          req.on('error', reject);
          req.end();
        });
      // ember's brand.json says "defaultLanguage": "ru"; aurora's says "en".
      expect(await head('/sign-in?from=x', { host: 'ember.test' })).toEqual({ status: 302, location: '/ru/sign-in?from=x' });
      expect(await head('/', { host: 'ember.test' })).toEqual({ status: 302, location: '/ru' });
      expect((await head('/sign-in', { host: 'ember.test', cookie: 'lang=en' })).status).toBe(200);
      expect((await head('/ru/sign-in', { host: 'ember.test' })).status).toBe(200);
      expect((await head('/sign-in', { host: 'aurora.test' })).status).toBe(200);
    } finally {
      await close(shell);
    }
  });
});
