import { contentSecurityPolicy, createRemoteManifests, remoteFiles, routeOwner } from '../page.mjs';
import { systemThemeCss } from '../frame.mjs';

const manifest = {
  remotes: [
    { name: 'mf_auth', entry: 'https://auth.example/v2/mf-manifest.json', routes: [{ path: '/sign-in', layout: 'auth' }] },
    { name: 'mf_pools', entry: 'https://pools.example/mf-manifest.json', routes: [{ path: '/cabinet/pools/:name', layout: 'inner', private: true }] },
  ],
};

describe('the page made by the shell’s server', () => {
  it('finds the remote owning a path, in English and under /ru, and none for other paths', () => {
    expect(routeOwner(manifest, '/sign-in')?.remote.name).toBe('mf_auth');
    expect(routeOwner(manifest, '/ru/sign-in/')?.remote.name).toBe('mf_auth');
    expect(routeOwner(manifest, '/cabinet/pools/stable')?.route.layout).toBe('inner');
    expect(routeOwner(manifest, '/cabinet/pools')).toBeUndefined();
    expect(routeOwner(manifest, '/cabinet/pools/stable/x')).toBeUndefined();
    expect(routeOwner(manifest, '/sign-inx')).toBeUndefined();
    expect(routeOwner(undefined, '/sign-in')).toBeUndefined();
  });

  it('resolves a remote’s container and exposed chunks against its manifest’s URL', () => {
    const files = remoteFiles(
      {
        metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' },
        exposes: [{ name: 'app', path: './app', assets: { js: { sync: ['930.d77aafe5.js'], async: ['553.2e77d816.js'] }, css: { sync: [], async: [] } } }],
      },
      'https://auth.example/v2/mf-manifest.json',
    );
    expect(files).toEqual({
      entry: 'https://auth.example/v2/remoteEntry.js',
      js: ['https://auth.example/v2/930.d77aafe5.js'],
      css: [],
      lazy: ['https://auth.example/v2/553.2e77d816.js'],
    });
  });

  it('reads a remote’s manifest once per 2 s, and keeps the last good one when a read fails', async () => {
    let calls = 0;
    let up = true;
    const body = { metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' } }, exposes: [] };
    const fetchImpl = (async () => {
      calls++;
      if (!up) throw new Error('down');
      return { ok: true, url: 'https://r.example/mf-manifest.json', json: async () => body };
    }) as unknown as typeof fetch;
    const read = createRemoteManifests({ ttlMs: 50, fetchImpl });
    expect((await read('https://r.example/mf-manifest.json'))?.entry).toBe('https://r.example/remoteEntry.js');
    await read('https://r.example/mf-manifest.json');
    expect(calls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    up = false;
    expect((await read('https://r.example/mf-manifest.json'))?.entry).toBe('https://r.example/remoteEntry.js');
    expect(calls).toBe(2);
  });

  it('allows the remotes’ origins and the inline parts by hash, never eval or inline code', () => {
    const csp = contentSecurityPolicy({ remoteOrigins: new Set(['https://auth.example']), hashes: { scripts: ["'sha256-a'"], styles: ["'sha256-b'"] } });
    expect(csp).toContain(`script-src 'self' https://auth.example 'sha256-a'`);
    expect(csp).toContain(`style-src 'self' https://auth.example 'sha256-b'`);
    expect(csp).not.toMatch(/unsafe/);
  });

  it('gives a page without a theme the system’s, from the stylesheet’s own tokens', () => {
    const css = `[data-theme='light'] { --bg: #fff; } [data-theme='dark'] { --bg: #000; }`;
    expect(systemThemeCss(css)).toBe(':root:not([data-theme]){--bg: #fff;}@media (prefers-color-scheme: dark){:root:not([data-theme]){--bg: #000;}}');
    expect(systemThemeCss('')).toBe('');
  });
});
