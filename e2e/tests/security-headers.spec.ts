import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { baseURL, controlledDaoPort, ports } from '../stack.config';
import { brandPageModule, serveModule } from '../support/build-modules';
import { expectRemoteReady } from '../support/page';
import { CSP_PROBE, remotesDir, repoRoot } from '../support/paths';
import { localized, routes } from '../support/routes';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

const origin = (n: string) => `http://localhost:${ports[n as keyof typeof ports]}`;
/** localhost is the operator host: its manifest has the operator console too; other brands' hosts do not. */
const remoteOrigins = ['mf-auth', 'mf-cabinet', 'mf-pools', 'mf-referral', 'mf-dao', 'mf-operator'].map(origin);

/** Every violation the page's CSP reports, as the browser sees it. */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations!.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => window.__cspViolations ?? []);
}

const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

test('the page’s CSP allows exactly its own origin, the brand’s remotes and its inline parts by hash', async ({ request }) => {
  const response = await request.get(`${baseURL}/sign-in`);
  const csp = response.headers()['content-security-policy']!;
  expect(csp).toBeTruthy();
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).not.toContain('unsafe-inline');
  const policy = directives(csp);
  for (const name of ['script-src', 'style-src', 'connect-src']) {
    const values = policy.get(name)!;
    expect(values.filter((v) => v.startsWith('http')).sort(), name).toEqual([...remoteOrigins].sort());
    expect(values, name).toContain(`'self'`);
  }
  expect(policy.get('script-src')!.filter((v) => v.startsWith(`'sha256-`))).toHaveLength(1);
  expect(policy.get('object-src')).toEqual([`'none'`]);
  expect(policy.get('frame-ancestors')).toEqual([`'none'`]);
  // Not served over HTTPS in production here: no HSTS.
  expect(response.headers()['strict-transport-security']).toBeUndefined();

  // Another brand, another manifest: down.test has mf_dao on its own port.
  const down = await request.get(`${baseURL}/sign-in`, { headers: { host: `down.test:${ports.shell}` } });
  const downOrigins = remoteOrigins.filter((o) => o !== origin('mf-operator')).map((o) => (o.endsWith(`:${ports['mf-dao']}`) ? `http://localhost:${controlledDaoPort}` : o));
  expect(directives(down.headers()['content-security-policy']!).get('script-src')!.filter((v) => v.startsWith('http')).sort()).toEqual(downOrigins.sort());
});

test('no page of the site breaks its CSP, in English or Russian, signed in or not; an injected inline script is refused', async ({ page, context, signIn }) => {
  const violations = await watchViolations(page);
  const visit = async (path: string, heading: string) => {
    await page.goto(path);
    await expectRemoteReady(page, heading);
    expect(await violations(), path).toEqual([]);
  };
  // A Russian page is remembered; each language is visited from a clean choice.
  const speak = (locale: 'en' | 'ru') => context.addCookies([{ name: 'lang', value: locale, domain: 'localhost', path: '/' }]);
  for (const locale of ['en', 'ru'] as const) {
    await speak(locale);
    for (const route of routes.filter((r) => r.layout === 'auth' && r.path !== '/registration-confirm')) await visit(localized(route.path, locale), route.heading[locale]);
  }
  await signIn();
  for (const locale of ['en', 'ru'] as const) {
    await speak(locale);
    for (const route of routes.filter((r) => r.layout === 'inner' && r.path === r.settlesAt)) await visit(localized(route.path, locale), route.heading[locale]);
  }
  // The policy is enforced, and the watch above would have seen a breach. The page is marked as
  // the probe's, so the suite's end-of-run check of the server's reports passes over this one.
  await page.goto(`/ru/cabinet/dashboard?${CSP_PROBE}`);
  await expectRemoteReady(page, routes.find((r) => r.path === '/cabinet/dashboard')!.heading.ru);
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true';
    document.body.append(script);
  });
  await expect.poll(violations).toEqual([expect.stringMatching(/^script-src(-elem)? inline$/)]);
  expect(await page.evaluate(() => (window as Window & { __injected?: boolean }).__injected)).toBeUndefined();
});

test('in production the page is sent with HSTS', async ({ request }) => {
  const { serveShell } = await serveModule();
  const brands = await (await brandPageModule()).openBrands(join(repoRoot, 'shell/dist'), join(repoRoot, 'brands'), () => undefined);
  const port = ports.shell + 500;
  const server = await serveShell({ dir: join(repoRoot, 'shell/dist'), port, remotesDir, brands, production: true });
  try {
    const response = await request.get(`http://localhost:${port}/sign-in`);
    expect(response.headers()['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
  } finally {
    await new Promise((resolve) => server.close(resolve));
    brands.close();
  }
});
