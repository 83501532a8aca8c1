import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectRemoteReady, expectSameDocument, markDocument } from '../support/page';
import { repoRoot } from '../support/paths';
import { routes } from '../support/routes';

const title = (path: string) => routes.find((r) => r.path === path)!.heading.en;
const sidebar = (page: Page) => page.getByTestId('sidebar');

/**
 * Strings that occur in exactly one module of each library, minified or not: a JS response
 * containing one is a downloaded copy of that library.
 */
const LIBRARIES = {
  react: 'React.Children.only',
  'react-dom': 'requestFormReset',
  'react-dom/client': '__reactFiber$',
  'react-router': '__reactRouterVersion',
} as const;
type Library = keyof typeof LIBRARIES;

const BUILDS = ['shell', 'mf-auth', 'mf-cabinet', 'mf-pools', 'mf-referral', 'mf-dao', 'mf-operator'];

/** Every build carries its own copy of each library, to use only when the share scope has none. */
function buildsCarrying(marker: string): string[] {
  return BUILDS.filter((build) => {
    const dir = join(repoRoot, build, 'dist');
    return readdirSync(dir).some((f) => f.endsWith('.js') && readFileSync(join(dir, f), 'utf8').includes(marker));
  });
}

/**
 * Walks through all five remotes by client-side navigation, the way a user would: the cabinet
 * from the sidebar, then logging out lands on the sign-in page of mf-auth.
 */
async function visitEveryRemote(page: Page, { logOut }: { logOut: boolean }) {
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  const doc = await markDocument(page);
  await sidebar(page).getByRole('button', { name: 'Pools' }).click();
  await sidebar(page).getByRole('link', { name: 'Stable' }).click();
  await expectRemoteReady(page, title('/cabinet/pools/stable'));
  await sidebar(page).getByRole('link', { name: 'Referral' }).click();
  await expectRemoteReady(page, title('/cabinet/refferal'));
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expectRemoteReady(page, title('/cabinet/settings'));
  if (logOut) {
    await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
    // A logout, not a lost session: the sign-in page without the 'please sign in' reason.
    await expect(page).toHaveURL('/sign-in');
    await expectRemoteReady(page, title('/sign-in'));
  }
  await expectSameDocument(page, doc);
  return doc;
}

test('React, ReactDOM and the router are each downloaded once across the shell and five remotes', async ({ page, signIn }) => {
  await signIn();
  // The check means something only if every build could bring its own copy.
  for (const [library, marker] of Object.entries(LIBRARIES)) {
    expect(buildsCarrying(marker), `${library}'s marker is in every build`).toEqual(BUILDS);
  }

  const bodies: Promise<{ url: string; body: string }>[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    bodies.push(response.text().then((body) => ({ url: response.url(), body }), () => ({ url: response.url(), body: '' })));
  });
  await visitEveryRemote(page, { logOut: true });
  const scripts = await Promise.all(bodies);

  // Each remote's entry was fetched, from its own origin: the five remotes really loaded.
  const origins = new Set(scripts.filter((s) => s.url.endsWith('/remoteEntry.js') || s.url.includes('__federation_expose')).map((s) => new URL(s.url).port));
  expect(origins.size, 'scripts from five remote origins').toBe(5);

  const copies = Object.fromEntries(
    Object.entries(LIBRARIES).map(([library, marker]) => [library, scripts.filter((s) => s.body.includes(marker)).map((s) => s.url)]),
  ) as Record<Library, string[]>;
  for (const library of Object.keys(LIBRARIES) as Library[]) {
    expect(copies[library], `downloads of ${library}`).toHaveLength(1);
  }
});

test('navigation across remotes, back and forward, never reloads the page', async ({ page, signIn }) => {
  await signIn();
  const doc = await visitEveryRemote(page, { logOut: false });
  await page.goBack();
  await expect(page).toHaveURL('/cabinet/refferal');
  await expectRemoteReady(page, title('/cabinet/refferal'));
  await page.goBack();
  await expectRemoteReady(page, title('/cabinet/pools/stable'));
  await page.goBack();
  await expect(page).toHaveURL('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  await page.goForward();
  await expectRemoteReady(page, title('/cabinet/pools/stable'));
  await expectSameDocument(page, doc);
});
