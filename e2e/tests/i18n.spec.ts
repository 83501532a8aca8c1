import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectRemoteReady, expectSameDocument, heading, markDocument } from '../support/page';
import { localized, routes, shellText, type Locale } from '../support/routes';

test.describe.configure({ mode: 'parallel' });

const YEAR_S = 365 * 24 * 3600;
const route = (path: string) => routes.find((r) => r.path === path)!;

for (const locale of ['en', 'ru'] as const) {
  for (const layout of ['auth', 'inner'] as const) {
    const language = locale === 'en' ? 'English' : 'Russian under /ru';
    test(`every ${layout === 'auth' ? 'visitor' : 'cabinet'} route renders in ${language}`, async ({ page, signIn }) => {
      if (layout === 'inner') await signIn();
      for (const r of routes.filter((x) => x.layout === layout)) {
        await test.step(localized(r.path, locale), async () => {
          await page.goto(localized(r.path, locale));
          await expect(page).toHaveURL(localized(r.settlesAt, locale));
          await expectRemoteReady(page, r.heading[locale]);
          await expect(page.locator('html')).toHaveAttribute('lang', locale);
          // The shell's chrome speaks the same language as the remote.
          await expect(page.getByRole('banner').getByLabel(shellText(locale, 'header.language'))).toHaveValue(locale);
        });
      }
    });
  }
}

test('the language is remembered in the lang cookie for 365 days, and a later visit follows it', async ({ page, context, signIn }) => {
  await page.goto('/ru/sign-in');
  await expectRemoteReady(page, route('/sign-in').heading.ru);
  const cookie = (await context.cookies()).find((c) => c.name === 'lang');
  expect(cookie?.value).toBe('ru');
  const lifetime = cookie!.expires - Date.now() / 1000;
  expect(lifetime).toBeGreaterThan(YEAR_S - 3600);
  expect(lifetime).toBeLessThanOrEqual(YEAR_S + 60);

  // An English link opened later lands on the Russian page.
  await signIn();
  await page.goto('/cabinet/settings');
  await expect(page).toHaveURL('/ru/cabinet/settings');
  await expectRemoteReady(page, route('/cabinet/settings').heading.ru);
});

async function switchLanguage(page: Page, from: Locale, to: Locale) {
  await page.getByLabel(shellText(from, 'header.language')).selectOption(to === 'en' ? 'ENG' : 'RUS');
}

for (const path of ['/sign-in', '/cabinet/pools/coin']) {
  test(`the language select switches the locale path on ${path} without reloading`, async ({ page, context, signIn }) => {
    const r = route(path);
    if (r.layout === 'inner') await signIn();
    await page.goto(path);
    await expectRemoteReady(page, r.heading.en);
    const doc = await markDocument(page);

    await switchLanguage(page, 'en', 'ru');
    await expect(page).toHaveURL(localized(path, 'ru'));
    await expect(heading(page)).toHaveText(r.heading.ru);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('ru');

    await switchLanguage(page, 'ru', 'en');
    await expect(page).toHaveURL(path);
    await expect(heading(page)).toHaveText(r.heading.en);
    expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('en');
    await expectSameDocument(page, doc);
  });
}
