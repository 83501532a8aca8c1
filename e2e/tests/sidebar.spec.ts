import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectRemoteReady, expectSameDocument, heading, markDocument } from '../support/page';
import { routes } from '../support/routes';

const title = (path: string) => routes.find((r) => r.path === path)!.heading.en;
const sidebar = (page: Page) => page.getByTestId('sidebar');
const sidebarWidth = async (page: Page) => (await sidebar(page).boundingBox())?.width;

test('the sidebar measures 320 px expanded and 125 px collapsed, toggled by its menu button', async ({ page, signIn }) => {
  await signIn();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  await expect.poll(() => sidebarWidth(page)).toBe(320);
  await expect(sidebar(page)).toContainText('© 2022');
  for (const social of ['Twitter', 'Telegram', 'Discord', 'Docs']) {
    await expect(sidebar(page).getByRole('link', { name: social })).toBeVisible();
  }

  const toggle = sidebar(page).locator('.sidebar__toggle');
  await expect(toggle).toHaveAccessibleName('Close menu');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await toggle.click();
  await expect.poll(() => sidebarWidth(page)).toBe(125);
  await expect(toggle).toHaveAccessibleName('Open menu');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  // Collapsed, the menu still works.
  await sidebar(page).getByRole('link', { name: 'Settings' }).click();
  await expectRemoteReady(page, title('/cabinet/settings'));
  await expect.poll(() => sidebarWidth(page)).toBe(125);

  await toggle.click();
  await expect.poll(() => sidebarWidth(page)).toBe(320);
});

test('at a 600 px wide window the sidebar is a full-width overlay that closes after navigation', async ({ page, signIn }) => {
  await signIn();
  await page.setViewportSize({ width: 600, height: 800 });
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  await expect(sidebar(page)).toBeHidden();
  const doc = await markDocument(page);

  await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).click();
  await expect(sidebar(page)).toBeVisible();
  await expect.poll(() => sidebar(page).boundingBox()).toEqual({ x: 0, y: 0, width: 600, height: 800 });
  // It covers the page: what is under the middle of the window is the sidebar, not the content.
  expect(await page.evaluate(() => document.elementFromPoint(300, 400)?.closest('[data-testid="sidebar"]') != null)).toBe(true);

  await sidebar(page).getByRole('link', { name: 'Referral' }).click();
  await expect(page).toHaveURL('/cabinet/refferal');
  await expectRemoteReady(page, title('/cabinet/refferal'));
  await expect(sidebar(page)).toBeHidden();
  await expect(heading(page)).toBeInViewport();
  await expectSameDocument(page, doc);

  // Closing it by its own button works as well.
  await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).click();
  await sidebar(page).getByRole('button', { name: 'Close menu' }).click();
  await expect(sidebar(page)).toBeHidden();
});

test('at 601 px the sidebar sits beside the page, not over it', async ({ page, signIn }) => {
  await signIn();
  await page.setViewportSize({ width: 601, height: 800 });
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  await expect.poll(() => sidebarWidth(page)).toBe(320);
  const main = await page.getByRole('main').boundingBox();
  expect(main?.x).toBeGreaterThanOrEqual(320);
});

test('the Pools submenu opens on pool pages and closes when the user leaves them', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/cabinet/pools/coin');
  await expectRemoteReady(page, title('/cabinet/pools/coin'));
  const pools = sidebar(page).getByRole('button', { name: 'Pools' });
  const dex = sidebar(page).getByRole('link', { name: 'DEX' });
  await expect(pools).toHaveAttribute('aria-expanded', 'true');
  await expect(sidebar(page).getByRole('link', { name: 'Coin' })).toHaveAttribute('aria-current', 'page');

  await dex.click();
  await expectRemoteReady(page, title('/cabinet/pools/dex'));
  await expect(pools).toHaveAttribute('aria-expanded', 'true');
  await expect(dex).toBeVisible();

  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  await expect(pools).toHaveAttribute('aria-expanded', 'false');
  await expect(dex).toBeHidden();

  // Opened by hand elsewhere, it leads into the pools.
  await pools.click();
  await expect(pools).toHaveAttribute('aria-expanded', 'true');
  await sidebar(page).getByRole('link', { name: 'Stable' }).click();
  await expectRemoteReady(page, title('/cabinet/pools/stable'));
  await expect(pools).toHaveAttribute('aria-expanded', 'true');
});

test('on a wide window the page content is at most 1240 px wide', async ({ page, signIn }) => {
  await signIn();
  await page.setViewportSize({ width: 1920, height: 900 });
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  await expect.poll(async () => (await page.getByRole('main').boundingBox())?.width).toBe(1240);
});

test('finding 10: DAO and Affiliates are in the sidebar, and the page the user is on is marked as the current item', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  const menu = sidebar(page).getByRole('navigation');
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  for (const [name, path] of [['DAO', '/cabinet/dao'], ['Affiliates', '/cabinet/affiliates']] as const) {
    await menu.getByRole('link', { name, exact: true }).click();
    await expectRemoteReady(page, title(path));
    await expect(menu.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(menu.locator('[aria-current="page"]')).toHaveCount(1);
  }
  // The public proof of solvency is one click away too.
  await expect(menu.getByRole('link', { name: 'Solvency', exact: true })).toHaveAttribute('href', '/solvency');
});
