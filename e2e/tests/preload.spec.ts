import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { runtimeManifestSchema } from '../../shared/contracts/src/manifest';
import { expect, test } from '../support/fixtures';
import { baseURL, brandURL, ports, redeployCabinetPort } from '../stack.config';
import { expectRemoteReady, heading, serviceWorkerActive } from '../support/page';
import { canaryDir, repoRoot } from '../support/paths';
import { routes } from '../support/routes';
import { serveRemote, type RunningServer } from '../support/servers';

const authOrigin = `http://localhost:${ports['mf-auth']}`;
const dashboard = routes.find((r) => r.path === '/cabinet/dashboard')!.heading.en;

test('the page carries the runtime manifest and preload hints for the route’s remote', async ({ request }) => {
  const html = await (await request.get(`${baseURL}/ru/sign-in`)).text();
  const inlined = /<script type="application\/json" id="runtime-manifest">([^<]*)<\/script>/.exec(html)?.[1];
  // As the server's check read it, the schema's defaults filled in.
  expect(JSON.parse(inlined!)).toEqual(runtimeManifestSchema.parse(await (await request.get(`${baseURL}/remotes.json`)).json()));
  expect(html).toContain(`<link rel="preconnect" href="${authOrigin}">`);
  expect(html).toContain(`<link rel="preload" as="script" href="${authOrigin}/remoteEntry.js">`);
  const manifest = (await (await request.get(`${authOrigin}/mf-manifest.json`)).json()) as { exposes: { assets: { js: { sync: string[]; async: string[] } } }[] };
  for (const chunk of manifest.exposes[0]!.assets.js.sync) expect(html).toContain(`<link rel="preload" as="script" href="${authOrigin}/${chunk}">`);
  // The remote's strings of the page's language, and English (the fallback), come with its code.
  const strings = (lang: string) => manifest.exposes[0]!.assets.js.async.find((c) => new RegExp(`^strings-${lang}\\.[0-9a-f]{8}\\.js$`).test(c));
  for (const lang of ['ru', 'en']) expect(html).toContain(`<link rel="preload" as="script" href="${authOrigin}/${strings(lang)}">`);
  expect(await (await request.get(`${baseURL}/sign-in`)).text()).not.toContain(`<link rel="preload" as="script" href="${authOrigin}/${strings('ru')}">`);
  // A cabinet page preloads its own remote, not mf-auth.
  const cabinet = await (await request.get(`${baseURL}/cabinet/pools/stable`)).text();
  expect(cabinet).toContain(`<link rel="preload" as="script" href="http://localhost:${ports['mf-pools']}/remoteEntry.js">`);
  expect(cabinet).not.toContain(`href="${authOrigin}/remoteEntry.js"`);
});

test('the remote’s container starts downloading before the shell’s main script has finished', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  // main.js is held back: a container requested meanwhile was asked for by the page itself, not by the shell's code.
  const release = await holdMainScript(page);
  await page.goto('/sign-in', { waitUntil: 'commit' });
  await expect.poll(() => requested.filter((u) => u === `${authOrigin}/remoteEntry.js`)).toHaveLength(1);
  expect(requested.some((u) => u.startsWith(`${baseURL}/main.js?v=`))).toBe(true);
  release();
  await expectRemoteReady(page, 'Sign in');
  // Nothing waits on a manifest request, and the preloaded container is fetched once.
  expect(requested.filter((u) => u.endsWith('/remotes.json') || u === `${authOrigin}/mf-manifest.json`)).toEqual([]);
  expect(requested.filter((u) => u === `${authOrigin}/remoteEntry.js`)).toHaveLength(1);
});

test('the shell’s start-up chunks run from the page’s own script tags, each fetched once', async ({ page, request }) => {
  const html = await (await request.get(`${baseURL}/sign-in`)).text();
  const early = [...html.matchAll(/<script async data-early src="([^"]+)"><\/script>/g)].map((m) => new URL(m[1]!, baseURL).href);
  expect(early.length).toBeGreaterThan(1);
  // Only the shell's: a remote's chunks could be of an older deploy than its remoteEntry.js.
  expect(early.every((src) => src.startsWith(`${baseURL}/`))).toBe(true);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto('/sign-in');
  await expectRemoteReady(page, 'Sign in');
  // main.js's loader found them done: no script was fetched twice, and each early one once.
  const scripts = requested.filter((url) => /\.js(\?|$)/.test(url));
  for (const src of early) expect(scripts.filter((url) => url === src)).toHaveLength(1);
  expect(new Set(scripts).size).toBe(scripts.length);
});

/** Holds the shell's main.js back until the returned function is called. */
async function holdMainScript(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/main\.js(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

test('a signed-in page’s refresh and first call start before the shell’s script runs, and are made once', async ({ page, signIn }) => {
  await signIn();
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${baseURL}/api/`)) calls.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  // The shell's script is held back: whatever reaches the API meanwhile, the page itself asked for.
  const release = await holdMainScript(page);
  await page.goto('/cabinet/dashboard', { waitUntil: 'commit' });
  await expect.poll(() => calls).toEqual(['POST /api/v1/refresh', 'GET /api/v1/cabinet/summary']);
  release();
  await expectRemoteReady(page, dashboard);
  await expect(page.getByTestId('totals')).toBeVisible();
  // The shell and the dashboard took those answers: one refresh (refresh tokens rotate), one summary.
  expect(calls.filter((c) => c === 'POST /api/v1/refresh')).toHaveLength(1);
  expect(calls.filter((c) => c === 'GET /api/v1/cabinet/summary')).toHaveLength(1);
  // The session it restored is the one the page goes on with: its next call is not refused.
  await page.reload();
  await expectRemoteReady(page, dashboard);
});

test('a pool page starts the calls its route lists in the runtime manifest, and its panels take those answers', async ({ page, signIn, request }) => {
  await signIn();
  const manifest = (await (await request.get(`${baseURL}/remotes.json`)).json()) as { remotes: { routes: { path: string; firstCalls?: string[] }[] }[] };
  const listed = manifest.remotes.flatMap((r) => r.routes).find((r) => r.path === '/cabinet/pools/:name')!.firstCalls!;
  const expected = listed.map((call) => `GET /api/v1${call.replaceAll(':name', 'stable')}`);
  expect(expected.length).toBeGreaterThan(2);
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${baseURL}/api/`)) calls.push(`${r.method()} ${r.url().slice(baseURL.length)}`);
  });
  const release = await holdMainScript(page);
  await page.goto('/cabinet/pools/stable', { waitUntil: 'commit' });
  await expect.poll(() => [...calls].sort()).toEqual(['POST /api/v1/refresh', ...expected].sort());
  release();
  await expectRemoteReady(page, /Stable/);
  // Each was made once: the remote's own calls were answered by the page's.
  for (const call of expected) expect(calls.filter((c) => c === call)).toHaveLength(1);
});

test('a visitor without a session marker makes no early call', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${baseURL}/api/`)) calls.push(r.url());
  });
  await page.goto('/sign-in');
  await expectRemoteReady(page, 'Sign in');
  expect(calls).toEqual([]);
});

let server: RunningServer | undefined;
test.afterEach(async () => {
  await server?.close();
  server = undefined;
});

test('a remote redeployed with a new build is served on the next page load, the shell and its service worker still running', async ({ page, signIn }) => {
  await signIn('redeploy.test');
  const site = brandURL('redeploy.test');
  server = await serveRemote(join(repoRoot, 'mf-cabinet/dist'), redeployCabinetPort);
  await page.goto(`${site}/cabinet/dashboard`);
  await expectRemoteReady(page, dashboard);
  await expect(heading(page)).not.toContainText('Canary build');
  // The visit before the deploy is one the service worker controls, with the first build's files
  // in its cache.
  await serviceWorkerActive(page);
  await page.goto(`${site}/cabinet/dashboard`);
  await expectRemoteReady(page, dashboard);
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  // The remote's deploy replaces its server and files; the shell's server is left alone.
  await server.close();
  server = await serveRemote(canaryDir, redeployCabinetPort);
  const startedAt = Date.now();
  await page.goto(`${site}/cabinet/dashboard`);
  await expectRemoteReady(page, `${dashboard} Canary build`);
  expect(Date.now() - startedAt).toBeLessThan(10_000);
});

test('after 2 s of idle the sign-in page prefetches the cabinet layout, the API schemas (zod with them), the wallet service and the other auth pages', async ({ page }) => {
  const requested: { url: string; at: number }[] = [];
  page.on('request', (r) => requested.push({ url: r.url(), at: Date.now() }));
  await page.goto('/sign-in');
  await expectRemoteReady(page, 'Sign in');
  const loadedAt = Date.now();
  const named = (name: string) => requested.find((r) => new RegExp(`/${name}\\.[0-9a-f]{8}\\.js$`).test(r.url));
  // And what a first action checks with: zod, the session's schemas (signing in), the bus's.
  const idle = ['cabinet-layout', 'api-schemas', 'wallet-service', 'zod', 'session-schemas', 'bus-schemas'];
  await expect.poll(() => idle.filter((n) => !named(n)), { timeout: 10_000 }).toEqual([]);
  // From the end of the page's load event (on the wall clock) to each prefetch as the browser asked
  // for it: the requests seen here, not the page's resource timing buffer, which can come back empty.
  const loadedWall = await page.evaluate(() => performance.timeOrigin + (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd);
  const waited = idle.map((n) => named(n)!.at - loadedWall);
  expect(waited).toHaveLength(6);
  for (const ms of waited) expect(ms).toBeGreaterThanOrEqual(2000);
  // mf-auth's lazily loaded chunks (the other auth pages) come from its own origin.
  const lazy = (await (await page.request.get(`${authOrigin}/mf-manifest.json`)).json()) as { exposes: { assets: { js: { async: string[] } } }[] };
  const signUpAndTheRest = lazy.exposes[0]!.assets.js.async.map((c) => `${authOrigin}/${c}`);
  await expect.poll(() => signUpAndTheRest.filter((u) => requested.some((r) => r.url === u)).length).toBe(signUpAndTheRest.length);
  // Nothing of the cabinet's layout had been asked for before the wait.
  expect(requested.filter((r) => r.url.includes('/cabinet-layout.') && r.at < loadedAt)).toEqual([]);
});
