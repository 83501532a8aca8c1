import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { remoteRoutesFileSchema } from '../../shared/contracts/src/manifest';
import { openBrandRegistry } from '../../shared/contracts/src/brand-folder';
import { createManifestComposer, createRemoteRoutes } from '../remote-routes.mjs';
import { serveShell } from '../serve.mjs';

const listening = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** A deployed remote whose routes.json the test sets (or takes down: status). */
async function deployedRemote() {
  const state = { status: 200, routes: '' };
  const server = createServer((req, res) => {
    if (req.url !== '/routes.json') return res.writeHead(404).end();
    res.writeHead(state.status, { 'Content-Type': 'application/json' }).end(state.routes);
  });
  const port = await listening(server);
  return { state, server, entry: `http://127.0.0.1:${port}/mf-manifest.json` };
}

const route = (path: string, extra: object = {}) => ({ path, layout: 'inner', private: true, ...extra });
const file = (...paths: string[]) => JSON.stringify({ routes: paths.map((p) => route(p)) });

/** Reads until done: a state to wait for, with a deadline rather than a sleep. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the remotes' routes, read from their deploys", () => {
  const brands = openBrandRegistry(join(__dirname, '../../brands'), () => undefined);
  afterAll(() => brands.close());
  it('the runtime manifest carries the routes the deployed remote publishes, and a route a later deploy adds is served without restarting the shell', async () => {
    const remote = await deployedRemote();
    remote.state.routes = file('/cabinet/dao');
    const dir = mkdtempSync(join(tmpdir(), 'shell-routes-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
    writeFileSync(join(dir, 'remotes.json'), JSON.stringify({ remotes: [{ name: 'mf_dao', entry: remote.entry, contract: '1.1' }] }));
    const shell = (await serveShell({ dir, port: 0, remotesDir: dir, brands, routesTtlMs: 30 })) as Server;
    const manifest = async () => (await (await fetch(`http://127.0.0.1:${(shell.address() as AddressInfo).port}/remotes.json`)).json()) as { remotes: { name: string; entry: string; routes: { path: string }[] }[] };
    try {
      expect(await manifest()).toEqual({ remotes: [{ name: 'mf_dao', entry: remote.entry, contract: '1.1', routes: [route('/cabinet/dao')] }] });
      // The remote's team adds a page and deploys; nothing of the shell changes.
      remote.state.routes = file('/cabinet/dao', '/cabinet/dao/:proposal');
      const later = await until(manifest, (m) => m.remotes[0]!.routes.length === 2);
      expect(later.remotes[0]!.routes.map((r) => r.path)).toEqual(['/cabinet/dao', '/cabinet/dao/:proposal']);
    } finally {
      await close(shell);
      await close(remote.server);
    }
  });

  it('routes that stop answering, or answer with a file that is not routes, keep the last good ones, and the log says why', async () => {
    const remote = await deployedRemote();
    remote.state.routes = file('/cabinet/settings');
    const lines: string[] = [];
    const read = createRemoteRoutes({ schema: Promise.resolve(remoteRoutesFileSchema), ttlMs: 0, log: (line: string) => lines.push(line) });
    const paths = async () => ((await read({ name: 'mf_dao', entry: remote.entry })) as { path: string }[] | undefined)?.map((r) => r.path);
    try {
      expect(await paths()).toEqual(['/cabinet/settings']);
      remote.state.routes = JSON.stringify({ routes: [{ path: 'no-slash', layout: 'inner' }] });
      await until(async () => (await paths(), lines.length), (n) => n >= 1);
      expect(await paths()).toEqual(['/cabinet/settings']);
      expect(lines[0]).toMatch(/routes\.json: routes\.0\.path: .*the last good routes stay/);
      // Answering again ends the failure; a later outage is a new one, logged once however often it is read.
      remote.state.routes = file('/cabinet/settings');
      await until(async () => (await paths(), lines.length), (n) => n >= 2);
      expect(lines[1]).toMatch(/answers again/);
      remote.state.status = 503;
      await until(async () => (await paths(), lines.length), (n) => n >= 3);
      expect(await paths()).toEqual(['/cabinet/settings']);
      expect(lines.slice(2)).toEqual([expect.stringMatching(/HTTP 503; the last good routes stay/)]);
      // The deploy is back with a new route: it is taken.
      remote.state.status = 200;
      remote.state.routes = file('/cabinet/settings', '/cabinet/dao');
      await until(paths, (p) => p?.length === 2);
    } finally {
      await close(remote.server);
    }
  });

  it('a deploy that never answered borrows the routes its remote published at another deploy; a remote with none is left out', async () => {
    const good = await deployedRemote();
    good.state.routes = file('/cabinet/dao');
    const lines: string[] = [];
    const compose = createManifestComposer(createRemoteRoutes({ schema: Promise.resolve(remoteRoutesFileSchema), log: () => undefined }), (line: string) => lines.push(line));
    const down = 'http://127.0.0.1:9/mf-manifest.json';
    try {
      await compose(JSON.stringify({ remotes: [{ name: 'mf_dao', entry: good.entry, contract: '1.1' }] }));
      const composed = JSON.parse((await compose(JSON.stringify({ remotes: [{ name: 'mf_dao', entry: down, contract: '1.1' }, { name: 'mf_pools', entry: down, contract: '1.1' }] })))!);
      expect(composed).toEqual({ remotes: [{ name: 'mf_dao', entry: down, contract: '1.1', routes: [route('/cabinet/dao')] }] });
      expect(lines).toEqual([expect.stringContaining('mf_pools')]);
      // Not a manifest: passed on as it is, for the browser's check to show.
      expect(await compose('{ "remotes": [')).toBe('{ "remotes": [');
    } finally {
      await close(good.server);
    }
  });
});
