import { expect, test } from '@playwright/test';
import { brandURL } from '../stack.config';

const surfaces = { light: 'rgb(255, 255, 255)', dark: 'rgb(22, 26, 47)' } as const;

for (const scheme of ['light', 'dark'] as const) {
  test(`with JavaScript off, /sign-in shows the header and the brand title in the ${scheme} theme`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(`${brandURL('acme.test')}/sign-in`);
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Acme Invest home' })).toHaveText('◆Acme Invest');
    await expect(header.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    await expect(header.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/sign-up');
    expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(surfaces[scheme]);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(scheme === 'dark' ? 'rgb(13, 16, 32)' : 'rgb(244, 246, 251)');
    await context.close();
  });
}

test('with JavaScript off, a Russian cabinet page shows its frame in Russian', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${brandURL('acme.test')}/ru/cabinet/dashboard`);
  expect(await page.getAttribute('html', 'lang')).toBe('ru');
  await expect(page.getByRole('banner')).toContainText('Здравствуйте!');
  await expect(page.getByRole('navigation', { name: 'Главное меню' }).getByRole('link')).toHaveCount(4);
  await context.close();
});

test('a stored dark theme is the first thing painted, and React takes over the frame without moving it', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'light' });
  await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
  const page = await context.newPage();
  // The header's place as first painted: the shell's main script is held back until it is measured.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/main\.js(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${brandURL('acme.test')}/sign-in`, { waitUntil: 'commit' });
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Acme Invest home' })).toBeVisible();
  expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(surfaces.dark);
  const before = await header.boundingBox();
  const title = await page.locator('.logo__title').boundingBox();
  expect(await page.evaluate(() => document.querySelector('.remote-root'))).toBeNull();
  release();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(surfaces.dark);
  expect(await header.boundingBox()).toEqual(before);
  expect(await page.locator('.logo__title').boundingBox()).toEqual(title);
  await context.close();
});
