import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectRemoteReady, tabTo } from '../support/page';
import { routes } from '../support/routes';

const title = (path: string) => routes.find((r) => r.path === path)!.heading.en;
const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);
const focusInside = (container: Locator) => container.evaluate((el) => el.contains(document.activeElement));

/** A keyboard user must see where focus is: the design system draws a ring (box-shadow). */
async function expectVisibleFocus(target: Locator) {
  expect(await isFocused(target)).toBe(true);
  const ring = await target.evaluate((el) => getComputedStyle(el).boxShadow);
  expect(ring).not.toBe('none');
}

async function expectTermsModalTrapsFocus(page: Page, opener: Locator) {
  await tabTo(page, opener);
  await expectVisibleFocus(opener);
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Terms and conditions' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('law of Singapore');
  expect(await focusInside(dialog)).toBe(true);
  // 80% by 80% of the window.
  const box = (await dialog.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(Math.round(box.width)).toBe(Math.round(viewport.width * 0.8));
  expect(Math.round(box.height)).toBe(Math.round(viewport.height * 0.8));

  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside(dialog), 'Tab stays inside the modal').toBe(true);
  }
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusInside(dialog), 'Shift+Tab stays inside the modal').toBe(true);
  }

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await isFocused(opener), 'focus returns to the link that opened the modal').toBe(true);
}

test('the terms modal opens from the terms link by keyboard, traps focus and closes on Escape', async ({ page }) => {
  await page.goto('/sign-in');
  await expectRemoteReady(page, title('/sign-in'));
  await expectTermsModalTrapsFocus(page, page.getByRole('button', { name: 'Terms of service' }));
});

test('in the cabinet, the sidebar terms link opens the same modal', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  await expectTermsModalTrapsFocus(page, page.getByTestId('sidebar').getByRole('button', { name: 'Terms of service' }));
});

test('the sidebar toggle and every menu item are reachable and usable by Tab and Enter', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  const sidebar = page.getByTestId('sidebar');
  const toggle = sidebar.getByRole('button', { name: 'Close menu' });

  await tabTo(page, toggle);
  await expectVisibleFocus(toggle);
  await page.keyboard.press('Enter');
  await expect(sidebar.locator('.sidebar__toggle')).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter');
  await expect(sidebar.locator('.sidebar__toggle')).toHaveAttribute('aria-expanded', 'true');

  // The menu follows the toggle in Tab order.
  const menu = sidebar.getByRole('navigation');
  for (const item of [menu.getByRole('link', { name: 'Dashboard' }), menu.getByRole('button', { name: 'Pools' })]) {
    await page.keyboard.press('Tab');
    await expectVisibleFocus(item);
  }
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expectVisibleFocus(menu.getByRole('link', { name: 'Stable' }));
  // Stable, Coin, DEX, Referral, Affiliates, DAO, then Settings.
  await tabTo(page, menu.getByRole('link', { name: 'Settings' }), 6);
  await page.keyboard.press('Enter');
  await expectRemoteReady(page, title('/cabinet/settings'));
});

test('on a narrow window the menu overlay takes focus when opened and gives it back when closed', async ({ page, signIn }) => {
  await signIn();
  await page.setViewportSize({ width: 600, height: 800 });
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, title('/cabinet/dashboard'));
  const sidebar = page.getByTestId('sidebar');
  const open = page.getByRole('banner').getByRole('button', { name: 'Open menu' });

  await tabTo(page, open);
  await page.keyboard.press('Enter');
  await expect(sidebar).toBeVisible();
  // Focus moves into the overlay, on its close button, rather than being lost on the page below.
  await expect(sidebar.getByRole('button', { name: 'Close menu' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(sidebar.getByRole('link', { name: 'Dashboard' })).toBeFocused();

  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(sidebar).toBeHidden();
  await expect(open).toBeFocused();
});
