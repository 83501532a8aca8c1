import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSecurityPolicy, createPageRenderer, createPrecacheList, createRemoteManifests, firstCalls, isRoleRemote, remoteFiles, routeOwner, withoutRoleRemotes } from '../page.mjs';
import { systemThemeCss } from '../frame.mjs';
import { runtimeManifestSchema } from '../../shared/contracts/src/manifest';
import { cabinetRoutes } from '../../shared/contracts/src/api/cabinet-routes';
import shellPlan from '../../shell/page-plan.json';

/** The shell's page plan as its build hands it to the server (shared/build/page-plan.mjs). */
function writePagePlan(dir: string) {
  mkdirSync(join(dir, 'server'), { recursive: true });
  const cabinetCalls = Object.values(cabinetRoutes).filter((r) => r.method === 'GET').map((r) => `/api/v1${r.path}`);
  writeFileSync(join(dir, 'server/page-plan.json'), JSON.stringify({ ...shellPlan, cabinetCalls }));
}
import { checkBrandFolder } from '../../shared/contracts/src/brand-folder';
import type { Brand } from '../../shared/contracts/src/brand';

const loaded = (id: string): Brand => {
  const r = checkBrandFolder(join(__dirname, '../../brands', id), id);
  if (!r.ok) throw new Error(r.problems.join('; '));
  return r.brand;
};
const brand = { ...loaded('default'), title: 'T' };

const manifest = {
  remotes: [
    { name: 'mf_auth', entry: 'https://auth.example/v2/mf-manifest.json', routes: [{ path: '/sign-in', layout: 'auth' }], contract: '1.1' },
    {
      name: 'mf_pools',
      entry: 'https://pools.example/mf-manifest.json',
      routes: [
        {
          path: '/cabinet/pools/:name',
          layout: 'inner',
          private: true,
          firstCalls: ['/dashboard/pools/:name', '/cabinet/summary', '/dashboard/deposits?pool=:name', '/dashboard/withdrawals?pool=:name', '/pools/:name/graph', '/pools/:name/assets', '/pools/:name/strategy'],
        },
        { path: '/cabinet/dashboard', layout: 'inner', private: true, firstCalls: ['/cabinet/summary'] },
      ],
      contract: '1.1',
    },
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
        exposes: [{ name: 'app', path: './app', assets: { js: { sync: ['930.d77aafe5.js'], async: ['553.2e77d816.js', 'strings-en.e88ac572.js', 'strings-ru.0a1b2c3d.js'] }, css: { sync: [], async: [] } } }],
      },
      'https://auth.example/v2/mf-manifest.json',
    );
    expect(files).toEqual({
      entry: 'https://auth.example/v2/remoteEntry.js',
      js: ['https://auth.example/v2/930.d77aafe5.js'],
      css: [],
      lazy: ['https://auth.example/v2/553.2e77d816.js', 'https://auth.example/v2/strings-en.e88ac572.js', 'https://auth.example/v2/strings-ru.0a1b2c3d.js'],
      strings: { en: ['https://auth.example/v2/strings-en.e88ac572.js'], ru: ['https://auth.example/v2/strings-ru.0a1b2c3d.js'] },
    });
  });

  it('has the page fetch the route owner’s strings of its language (and English) with its code, and a cabinet page its calls’ schemas', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shell-page-'));
    writeFileSync(join(dir, 'index.html'), '<html lang="en"><head><title>x</title></head><body><div id="root"></div></body></html>');
    for (const file of ['cabinet-layout.0123abcd.js', 'cabinet-schemas.89abcdef.js', 'api-schemas.11112222.js']) writeFileSync(join(dir, file), '');
    writePagePlan(dir);
    const files = (name: string) =>
      remoteFiles(
        { metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' }, exposes: [{ name: 'app', path: './app', assets: { js: { sync: ['1.0000aaaa.js'], async: ['strings-en.0000bbbb.js', 'strings-ru.0000cccc.js', '7.0000dddd.js'] }, css: { sync: [], async: [] } } }] },
        `https://${name}.example/mf-manifest.json`,
      );
    const renderPage = createPageRenderer({ dir, manifestSchema: runtimeManifestSchema, remoteManifests: async (url: string) => files(new URL(url).hostname.split('.')[0]!) });
    // What the page starts fetching: its preload hints and the shell's chunks it runs early.
    const preloads = async (pathname: string) => {
      const { html } = await renderPage({ brand, pathname, manifestText: JSON.stringify(manifest) });
      return [...html.matchAll(/<link rel="preload" as="script" href="([^"]+)">|<script async data-early src="([^"]+)">/g)].map((m) => m[1] ?? m[2]);
    };
    const en = await preloads('/sign-in');
    expect(en).toEqual(expect.arrayContaining(['https://auth.example/remoteEntry.js', 'https://auth.example/1.0000aaaa.js', 'https://auth.example/strings-en.0000bbbb.js']));
    expect(en.filter((href) => /strings-ru|7\.0000dddd|cabinet-/.test(href!))).toEqual([]);
    const ru = await preloads('/ru/sign-in');
    expect(ru).toEqual(expect.arrayContaining(['https://auth.example/strings-ru.0000cccc.js', 'https://auth.example/strings-en.0000bbbb.js']));
    const cabinet = await preloads('/cabinet/pools/stable');
    expect(cabinet).toEqual(expect.arrayContaining(['/cabinet-layout.0123abcd.js', '/cabinet-schemas.89abcdef.js', 'https://pools.example/strings-en.0000bbbb.js']));
    // A pool page checks its pool's answer with every call's schemas at once; an auth page leaves them for the idle moment.
    expect(cabinet).toContain('/api-schemas.11112222.js');
    expect(en).not.toContain('/api-schemas.11112222.js');
    // A page the service worker serves (its navigation preload says so) is hinted only what the
    // worker does not keep: the remote's container, which names the current deploy.
    const { html: served } = await renderPage({ brand, pathname: '/cabinet/pools/stable', manifestText: JSON.stringify(manifest), keptByServiceWorker: true });
    expect([...served.matchAll(/<link rel="preload" as="script" href="([^"]+)">/g)].map((m) => m[1])).toEqual(['https://pools.example/remoteEntry.js']);
  });

  it('puts the hints at the top of the head, and runs the shell’s start-up chunks as they arrive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shell-page-'));
    writeFileSync(join(dir, 'index.html'), '<html lang="en"><head><meta charset="utf-8"><title>x</title><script>/* the page’s own */</script><style>p{}</style></head><body><div id="root"></div><script defer="defer" src="/main.js"></script></body></html>');
    writeFileSync(join(dir, 'main.js'), 'console.log(1)');
    writeFileSync(join(dir, 'startup-chunks.json'), JSON.stringify({ startup: ['1.0000aaaa.js'], strings: { en: ['2.0000bbbb.js'], ru: ['3.0000cccc.js'] } }));
    const auth = remoteFiles(
      { metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' }, exposes: [{ name: 'app', path: './app', assets: { js: { sync: ['9.0000eeee.js'], async: ['strings-en.0000ffff.js', '7.0000dddd.js'] }, css: { sync: [], async: [] } } }] },
      'https://auth.example/mf-manifest.json',
    );
    const renderPage = createPageRenderer({ dir, manifestSchema: runtimeManifestSchema, remoteManifests: async (url: string) => (url.startsWith('https://auth.example/') ? auth : undefined) });
    const { html } = await renderPage({ brand, pathname: '/sign-in', manifestText: JSON.stringify(manifest) });
    const version = /src="\/main\.js\?v=([0-9a-f]{12})"/.exec(html)![1];
    // Before the title, the inline script and the stylesheet: found with the page's first bytes.
    const head = /<head>(.*)<\/head>/.exec(html)![1]!;
    const hint = head.indexOf(`<link rel="preload" as="script" href="/main.js?v=${version}">`);
    expect(hint).toBeGreaterThan(-1);
    expect(hint).toBeLessThan(head.indexOf('<title>'));
    expect(head.indexOf('<link rel="preload" as="script" href="https://auth.example/remoteEntry.js">')).toBeLessThan(head.indexOf('<script>'));
    // The shell's start-up chunks run as they arrive (not main.js, which starts the page once it is
    // parsed), and none of a remote's: its remoteEntry.js may be of a newer deploy.
    const early = [...html.matchAll(/<script async data-early src="([^"]+)"><\/script>/g)].map((m) => m[1]);
    expect(early).toEqual(['/1.0000aaaa.js', '/2.0000bbbb.js']);
    // Their own tags start them, right after the page's inline script (whose listener takes out
    // one that fails) and before the stylesheet; a hint each as well only cost the page.
    expect(head).toContain('<script>/* the page’s own */</script><script async data-early src="/1.0000aaaa.js">');
    expect(head.indexOf('data-early')).toBeLessThan(head.indexOf('<style>'));
    expect(head).not.toContain('<link rel="preload" as="script" href="/1.0000aaaa.js">');
  });

  it('dresses the page in its brand at first paint: token overrides, favicon and logo inline, no script, at most 2 KB gzipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shell-page-'));
    writeFileSync(join(dir, 'index.html'), '<html lang="en"><head><link rel="icon" href="data:," /><title>x</title><script>/* the page’s own */</script></head><body><div id="root"></div><script defer="defer" src="/main.js"></script></body></html>');
    writeFileSync(join(dir, 'main.js'), 'console.log(1)');
    const frameStrings = { brand: { logo: '{{title}} home' }, header: { language: 'Language', signIn: 'Sign in', signUp: 'Sign up' }, remote: { loading: 'Loading' }, theme: { label: 'Theme', light: 'Light', dark: 'Dark', system: 'System' }, footer: { terms: 'Terms' } };
    writeFileSync(join(dir, 'frame-strings.json'), JSON.stringify({ en: frameStrings, ru: frameStrings }));
    const renderPage = createPageRenderer({ dir, manifestSchema: runtimeManifestSchema, remoteManifests: async () => undefined });
    const aurora = loaded('aurora');
    const plain = (await renderPage({ brand: loaded('default'), pathname: '/sign-in', manifestText: JSON.stringify(manifest) })).html;
    const { html, csp } = await renderPage({ brand: aurora, pathname: '/sign-in', manifestText: JSON.stringify(manifest) });
    // Its colours, in both themes, as the last style of the head (after the design system's).
    const style = /<style>([^<]*)<\/style>[^]*<\/head>/.exec(html)![1]!;
    expect(style).toContain(`[data-theme='light'],:root:not([data-theme]){`);
    expect(style).toContain(`--primary:${aurora.theme.light.primary}`);
    expect(style).toContain(`[data-theme='dark']{`);
    expect(style).toContain(`--primary:${aurora.theme.dark.primary}`);
    // Allowed by its hash, and nothing else inline is.
    const hash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
    expect(csp).toContain(hash);
    expect(csp).not.toContain('unsafe-inline');
    // The favicon and both logos as data: images, the sign-in frame's header showing them.
    expect(html).toContain('<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,');
    expect(html).not.toContain('href="data:,"');
    expect(html).toMatch(/<header class="header header--auth"><a aria-label="Aurora Capital home" class="logo" href="\/"><span class="logo__mark" aria-hidden="true"><img class="logo__img logo__img--light" src="data:image\/svg\+xml,/);
    // No script added: the same executable scripts as the unbranded page.
    const scripts = (page: string) => [...page.matchAll(/<script(?![^>]*type="application\/json")[^>]*>/g)].map((m) => m[0]);
    expect(scripts(html)).toEqual(scripts(plain));
    // The brand's share of the page, gzipped, stays within 2 KB.
    const shellOnly = html.replace(/<link rel="icon"[^>]*>|<style>\[data-theme='light'\][^<]*<\/style>|<script type="application\/json" id="brand">[^<]*<\/script>|<img class="logo__img[^>]*>/g, '');
    expect(gzipSync(html).length - gzipSync(shellOnly).length).toBeLessThanOrEqual(2048);
  });

  it('names main.js by its content, lists a signed-in page’s first calls, and gives the service worker only content-addressed files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shell-page-'));
    writeFileSync(join(dir, 'index.html'), '<html lang="en"><head><title>x</title><script>/* the page’s own */</script></head><body><div id="root"></div><script defer="defer" src="/main.js"></script></body></html>');
    writeFileSync(join(dir, 'main.js'), 'console.log(1)');
    writeFileSync(join(dir, 'startup-chunks.json'), JSON.stringify({ startup: ['1.0000aaaa.js'], strings: { en: ['2.0000bbbb.js'], ru: ['3.0000cccc.js'] } }));
    writeFileSync(join(dir, 'cabinet-layout.0123abcd.js'), '');
    writePagePlan(dir);
    const pools = remoteFiles(
      { metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' }, exposes: [{ name: 'app', path: './app', assets: { js: { sync: ['9.0000eeee.js'], async: ['strings-en.0000ffff.js', '7.0000dddd.js'] }, css: { sync: [], async: [] } } }] },
      'https://pools.example/mf-manifest.json',
    );
    const remoteManifests = async (url: string) => (url.startsWith('https://pools.example/') ? pools : undefined);
    const { html } = await createPageRenderer({ dir, manifestSchema: runtimeManifestSchema, remoteManifests })({ brand, pathname: '/ru/cabinet/pools/stable', manifestText: JSON.stringify(manifest) });
    const version = /src="\/main\.js\?v=([0-9a-f]{12})"/.exec(html)?.[1];
    expect(version).toBeTruthy();
    expect(html).toContain(`<link rel="preload" as="script" href="/main.js?v=${version}">`);
    // Before the inline script that reads it.
    const early = JSON.parse(/<script type="application\/json" id="early-calls">([^<]*)<\/script><script>\/\* the page/.exec(html)![1]!);
    expect(early).toEqual({ marker: 'signed_in', refresh: '/api/v1/refresh', calls: [
        '/api/v1/dashboard/pools/stable',
        '/api/v1/cabinet/summary',
        '/api/v1/dashboard/deposits?pool=stable',
        '/api/v1/dashboard/withdrawals?pool=stable',
        '/api/v1/pools/stable/graph',
        '/api/v1/pools/stable/assets',
        '/api/v1/pools/stable/strategy',
      ],
    });
    expect(firstCalls(manifest, '/cabinet/dashboard')).toEqual(['/api/v1/cabinet/summary']);
    expect(firstCalls(manifest, '/sign-in')).toEqual([]);
    // A parameter that is not a plain word, or a call that would leave the API, is never made.
    expect(firstCalls(manifest, '/cabinet/pools/x%2F..')).toEqual([]);
    const hostile = { remotes: [{ name: 'mf_x', entry: 'https://x.example/mf-manifest.json', routes: [{ path: '/cabinet/x/:id', layout: 'inner', firstCalls: ['//evil.example/steal', 'https://evil.example/', '/ok/:id', '/../:id', '/:missing'] }] }] };
    expect(firstCalls(hostile, '/cabinet/x/7')).toEqual(['/api/v1/ok/7']);

    const list = await createPrecacheList({ dir, remoteManifests })(JSON.stringify(manifest));
    expect(list).toEqual([`/main.js?v=${version}`, '/1.0000aaaa.js', '/2.0000bbbb.js', '/3.0000cccc.js', '/cabinet-layout.0123abcd.js', 'https://pools.example/9.0000eeee.js', 'https://pools.example/strings-en.0000ffff.js', 'https://pools.example/7.0000dddd.js']);
  });

  it('puts in the page only a manifest its schema accepts, the defaults filled in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shell-page-'));
    writeFileSync(join(dir, 'index.html'), '<html lang="en"><head><title>x</title><script>/* the page’s own */</script></head><body><div id="root"></div></body></html>');
    const auth = remoteFiles(
      { metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' }, publicPath: 'auto' }, exposes: [{ name: 'app', path: './app', assets: { js: { sync: ['9.0000eeee.js'], async: [] }, css: { sync: [], async: [] } } }] },
      'https://auth.example/v2/mf-manifest.json',
    );
    const remoteManifests = async (url: string) => (url.startsWith('https://auth.example/') ? auth : undefined);
    const render = (manifestText: string, manifestSchema?: typeof runtimeManifestSchema) =>
      createPageRenderer({ dir, remoteManifests, manifestSchema })({ brand, pathname: '/sign-in', manifestText });
    const inlined = (html: string) => /<script type="application\/json" id="runtime-manifest">([^<]*)<\/script>/.exec(html)?.[1];

    const good = await render(JSON.stringify(manifest), runtimeManifestSchema);
    expect(JSON.parse(inlined(good.html)!).remotes[0].routes[0]).toEqual({ path: '/sign-in', layout: 'auth', private: false });
    expect(good.html).toContain('<link rel="preload" as="script" href="https://auth.example/v2/remoteEntry.js">');

    // Without a contract version: the browser fetches it and shows what is wrong. The page still
    // allows the remotes' origins, and hints none of their files.
    const unversioned = JSON.stringify({ remotes: manifest.remotes.map(({ contract: _, ...remote }) => remote) });
    for (const page of [await render(unversioned, runtimeManifestSchema), await render(JSON.stringify(manifest))]) {
      expect(inlined(page.html)).toBeUndefined();
      expect(page.html).not.toContain('<link rel="preload" as="script" href="https://auth.example/v2/remoteEntry.js">');
      expect(page.csp).toContain('https://auth.example');
    }
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

describe('a remote of a role (issue 26, the operator console)', () => {
  const console_ = { name: 'mf_operator', entry: 'http://localhost:3006/mf-manifest.json', contract: '1.1', routes: [{ path: '/operator/:screen', layout: 'inner', private: true, role: 'operator', firstCalls: ['/cabinet/summary'] }] };
  const dao = { name: 'mf_dao', entry: 'http://localhost:3005/mf-manifest.json', contract: '1.1', routes: [{ path: '/cabinet/dao', layout: 'inner', private: true }] };

  it('is known by its routes: every one carries a role', () => {
    expect([isRoleRemote(console_), isRoleRemote(dao), isRoleRemote({ ...dao, routes: [...dao.routes, console_.routes[0]] })]).toEqual([true, false, false]);
  });

  it('is left out of the manifest served on a host that is not an operator host; a manifest without one is served as it is', () => {
    const text = JSON.stringify({ remotes: [dao, console_] });
    expect(JSON.parse(withoutRoleRemotes(text)!)).toEqual({ remotes: [dao] });
    const plain = JSON.stringify({ remotes: [dao] });
    expect(withoutRoleRemotes(plain)).toBe(plain);
    expect(withoutRoleRemotes(undefined)).toBeUndefined();
  });

  it('starts no early call for its page, whatever its routes.json lists', () => {
    const manifest = runtimeManifestSchema.parse({ remotes: [dao, console_] });
    expect(firstCalls(manifest, '/operator/withdrawals')).toEqual([]);
  });
});
