import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { brandURL, controlledDaoPort, mismatchedContract } from '../stack.config';
import { seriousViolations } from '../support/axe';
import { expectRemoteReady, expectSameDocument, heading, markDocument } from '../support/page';
import { repoRoot } from '../support/paths';
import { serveRemote, type RunningServer } from '../support/servers';
import { routes, shellText } from '../support/routes';

const title = (path: string) => routes.find((r) => r.path === path)!.heading.en;
const sidebar = (page: Page) => page.getByTestId('sidebar');
const fallback = (page: Page) => page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'This section is unavailable' }) });

let daoServer: RunningServer | undefined;
test.afterEach(async () => {
  await daoServer?.close();
  daoServer = undefined;
});

test('a remote whose server is down shows the fallback; the rest works; Retry brings it back without a reload', async ({ page, signIn }) => {
  const { login } = await signIn('down.test');
  const site = brandURL('down.test');
  await page.goto(`${site}/cabinet/dao`);
  await expect(fallback(page)).toBeVisible();
  await expect(fallback(page)).toContainText(shellText('en', 'remote.unavailable'));
  await expect(fallback(page).getByRole('button', { name: 'Retry' })).toBeVisible();
  // Header and sidebar are the shell's and stay, and the panel is as accessible as any page.
  await expect(page.getByRole('banner')).toContainText(`Hello, ${login}!`);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(sidebar(page)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const doc = await markDocument(page);

  // The same remote's other route fails the same way; another remote's route works.
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(`${site}/cabinet/settings`);
  await expect(fallback(page)).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  await expect(fallback(page)).toHaveCount(0);

  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(`${site}/cabinet/dao`);
  await expect(fallback(page)).toBeVisible();

  // The remote is deployed again: Retry mounts it in place, no reload.
  daoServer = await serveRemote(join(repoRoot, 'mf-dao/dist'), controlledDaoPort);
  await fallback(page).getByRole('button', { name: 'Retry' }).click();
  await expectRemoteReady(page, title('/cabinet/dao'));
  await expect(fallback(page)).toHaveCount(0);
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expectRemoteReady(page, title('/cabinet/settings'));
  await expectSameDocument(page, doc);
});

test('a remote declared for another contract version shows the fallback with that reason', async ({ page, signIn }) => {
  await signIn('faults.test');
  await page.goto(`${brandURL('faults.test')}/cabinet/refferal`);
  await expect(fallback(page)).toBeVisible();
  await expect(fallback(page)).toContainText(shellText('en', 'remote.incompatible'));
  await expect(fallback(page)).toContainText(`contract ${mismatchedContract}`);
  await expect(heading(page)).toHaveCount(1);

  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await expectRemoteReady(page, title('/cabinet/dashboard'));
});

test('a remote whose manifest answers 404 shows the fallback, and the rest of the site works', async ({ page, signIn }) => {
  await signIn('faults.test');
  await page.goto(`${brandURL('faults.test')}/cabinet/pools/coin`);
  await expect(fallback(page)).toBeVisible();
  await expect(fallback(page)).toContainText(shellText('en', 'remote.unavailable'));
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expectRemoteReady(page, title('/cabinet/settings'));
});
