import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { brandURL, controlledDaoPort, mismatchedContract } from '../stack.config';
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
  // Header and sidebar are the shell's and stay.
  await expect(page.getByRole('banner')).toContainText(`Hello, ${login}!`);
  await expect(sidebar(page)).toBeVisible();
  const serious = (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  const doc = await markDocument(page);

  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  await page.getByLabel('Language').selectOption('RUS');
  await expectRemoteReady(page, routes.find((r) => r.path === '/cabinet/dashboard')!.heading.ru);
  await page.getByLabel(shellText('ru', 'header.language')).selectOption('ENG');
  await expectRemoteReady(page, title('/cabinet/dashboard'));

  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(`${site}/cabinet/settings`);
  await expect(fallback(page)).toBeVisible();

  daoServer = await serveRemote(join(repoRoot, 'mf-dao/dist'), controlledDaoPort);
  await fallback(page).getByRole('button', { name: 'Retry' }).click();
  await expectRemoteReady(page, title('/cabinet/settings'));
  await expect(fallback(page)).toHaveCount(0);

  // The other route of the same remote is back too.
  await page.goBack();
  await page.goBack();
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(`${site}/cabinet/dao`);
  await expectRemoteReady(page, title('/cabinet/dao'));
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
