import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectRemoteReady } from '../support/page';
import { routes } from '../support/routes';

const signInPage = routes.find((r) => r.path === '/sign-in')!;
const dashboard = routes.find((r) => r.path === '/cabinet/dashboard')!;

/** What the user sees: the page background of each theme (shared/ui tokens --bg). */
const BACKGROUND = { light: 'rgb(244, 246, 251)', dark: 'rgb(13, 16, 32)' } as const;

async function expectTheme(page: Page, theme: 'light' | 'dark') {
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  await expect(page.locator('body')).toHaveCSS('background-color', BACKGROUND[theme]);
}

const radio = (page: Page, name: 'Light' | 'Dark' | 'System') => page.getByRole('radio', { name, exact: true });

test('a chosen theme survives a reload and applies across layouts', async ({ page, signIn }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/sign-in');
  await expectRemoteReady(page, signInPage.heading.en);
  await expectTheme(page, 'light');

  await radio(page, 'Dark').check();
  await expectTheme(page, 'dark');
  await page.reload();
  await expectRemoteReady(page, signInPage.heading.en);
  await expectTheme(page, 'dark');
  await expect(radio(page, 'Dark')).toBeChecked();

  // The cabinet's own switch (in the sidebar) shows the same choice.
  await signIn();
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, dashboard.heading.en);
  await expectTheme(page, 'dark');
  await expect(radio(page, 'Dark')).toBeChecked();
});

test('an explicit light theme wins over a dark OS, after a reload too', async ({ page, signIn }) => {
  await signIn();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, dashboard.heading.en);
  await expectTheme(page, 'dark');

  await radio(page, 'Light').check();
  await expectTheme(page, 'light');
  await page.reload();
  await expectRemoteReady(page, dashboard.heading.en);
  await expectTheme(page, 'light');
  await expect(radio(page, 'Light')).toBeChecked();
});

test('"system" follows the OS colour scheme and its changes', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/sign-in');
  await expectRemoteReady(page, signInPage.heading.en);
  await expect(radio(page, 'System')).toBeChecked();
  await expectTheme(page, 'dark');

  await page.emulateMedia({ colorScheme: 'light' });
  await expectTheme(page, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectTheme(page, 'dark');

  // Back to "system" after an explicit choice: the OS decides again.
  await radio(page, 'Light').check();
  await expectTheme(page, 'light');
  await radio(page, 'System').check();
  await expectTheme(page, 'dark');
  await page.reload();
  await expectRemoteReady(page, signInPage.heading.en);
  await expect(radio(page, 'System')).toBeChecked();
  await expectTheme(page, 'dark');
});
