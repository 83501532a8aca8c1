import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brandURL } from '../stack.config';
import { repoRoot } from '../support/paths';

const surfaces = { light: 'rgb(255, 255, 255)', dark: 'rgb(22, 26, 47)' } as const;

for (const scheme of ['light', 'dark'] as const) {
  test(`with JavaScript off, /sign-in shows the header and the brand title in the ${scheme} theme`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(`${brandURL('acme.test')}/sign-in`);
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Acme Invest home' })).toHaveText('Acme Invest');
    await expect(header.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    await expect(header.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/sign-up');
    expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(surfaces[scheme]);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(scheme === 'dark' ? 'rgb(13, 16, 32)' : 'rgb(244, 246, 251)');
    await context.close();
  });
}

// Issue 25: the brand's look is in the page itself; aurora's values are read from its brand.json here.
const aurora = JSON.parse(readFileSync(join(repoRoot, 'brands/aurora/brand.json'), 'utf8')) as { theme: Record<'light' | 'dark', Record<string, string>> };
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
for (const scheme of ['light', 'dark'] as const) {
  test(`issue 25: with JavaScript off, the header wears its brand in the ${scheme} theme: colours and logo`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(`${brandURL('aurora.test')}/sign-in`);
    const header = page.getByRole('banner');
    expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb(aurora.theme[scheme].surface ?? '#ffffff'));
    expect(await header.locator('.btn--primary').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb(aurora.theme[scheme].primary!));
    const logo = header.locator(`.logo__img--${scheme}`);
    await expect(logo).toBeVisible();
    await expect(header.locator(`.logo__img--${scheme === 'dark' ? 'light' : 'dark'}`)).toBeHidden();
    expect(decodeURIComponent((await logo.getAttribute('src'))!.replace('data:image/svg+xml,', '')).replace(/\s+/g, ' ').trim()).toBe(
      readFileSync(join(repoRoot, `brands/aurora/${scheme === 'dark' ? 'logo-dark' : 'logo'}.svg`), 'utf8').replace(/\s+/g, ' ').trim(),
    );
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
