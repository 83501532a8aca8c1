import type { Page, Response } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { baseURL, ports } from '../stack.config';
import { expectRemoteReady, serviceWorkerActive } from '../support/page';

const authOrigin = `http://localhost:${ports['mf-auth']}`;

/** The scripts of one page load, each with whether the service worker answered it. */
function scriptsOf(page: Page) {
  const scripts: { url: string; fromServiceWorker: boolean; status: number }[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() === 'script') scripts.push({ url: response.url(), fromServiceWorker: response.fromServiceWorker(), status: response.status() });
  });
  return scripts;
}

test('the second visit runs the shell’s and the remote’s content-hashed scripts from the service worker’s cache; remoteEntry.js still comes from the network', async ({ page }) => {
  await page.goto('/sign-in');
  await expectRemoteReady(page, 'Sign in');
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  await serviceWorkerActive(page);

  const scripts = scriptsOf(page);
  await page.goto('/sign-in');
  await expectRemoteReady(page, 'Sign in');
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${baseURL}/sw.js`);
  const main = scripts.find((s) => /\/main\.js\?v=[0-9a-f]+$/.test(s.url));
  expect(main?.fromServiceWorker).toBe(true);
  const hashed = scripts.filter((s) => /[./-][0-9a-f]{8}\.js$/.test(new URL(s.url).pathname));
  expect(hashed.filter((s) => s.url.startsWith(authOrigin)).length).toBeGreaterThan(0);
  expect(hashed.filter((s) => s.url.startsWith(baseURL)).length).toBeGreaterThan(0);
  expect(hashed.filter((s) => !s.fromServiceWorker)).toEqual([]);
  const entry = scripts.find((s) => s.url === `${authOrigin}/remoteEntry.js`);
  expect(entry?.fromServiceWorker).toBe(false);
});

test('the service worker’s file list names the brand’s remotes’ hashed files, never a remoteEntry.js or a manifest', async ({ request }) => {
  const response = await request.get(`${baseURL}/sw.js`);
  expect(response.headers()['content-type']).toMatch(/javascript/);
  expect(response.headers()['cache-control']).toBe('no-cache');
  const list = JSON.parse(/^const PRECACHE = (.*);$/m.exec(await response.text())![1]!) as string[];
  expect(list).toContainEqual(expect.stringMatching(/^\/main\.js\?v=[0-9a-f]+$/));
  for (const remote of ['mf-auth', 'mf-cabinet', 'mf-pools'] as const) {
    expect(list.some((href) => href.startsWith(`http://localhost:${ports[remote]}/`))).toBe(true);
  }
  expect(list.filter((href) => /remoteEntry|mf-manifest|remotes\.json/.test(href))).toEqual([]);
  const { pathname } = new URL(list.find((href) => href.startsWith(authOrigin))!);
  expect(pathname).toMatch(/[./-][0-9a-f]{8}\.(js|css)$/);
});
