import { expect, test } from '../support/fixtures';
import { brandURL } from '../stack.config';
import { expectAccessibleInBothThemes, seriousViolations } from '../support/axe';
import { expectRemoteReady, heading } from '../support/page';
import { routes, shellText } from '../support/routes';

test.describe.configure({ mode: 'parallel' });

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
});

test('axe: the check itself reports a serious violation when there is one', async ({ page }) => {
  await page.goto('/sign-in');
  await expectRemoteReady(page, routes.find((r) => r.path === '/sign-in')!.heading.en);
  await page.evaluate(() => {
    const unnamed = document.createElement('button');
    unnamed.id = 'e2e-unnamed';
    document.querySelector('main')!.append(unnamed);
  });
  expect(await seriousViolations(page)).toEqual([expect.stringContaining('button-name (critical)')]);
});

// Redirects ('/', '/cabinet', '/cabinet/pools') end on pages checked on their own.
for (const route of routes.filter((r) => r.path === r.settlesAt)) {
  test(`axe: ${route.path} in light and dark`, async ({ page, signIn }) => {
    if (route.layout === 'inner') await signIn();
    await page.goto(route.path);
    await expectRemoteReady(page, route.heading.en);
    await expectAccessibleInBothThemes(page);
  });
}

test('axe: the Russian dashboard, 404 page and terms modal in light and dark', async ({ page, signIn }) => {
  await signIn();
  const dashboard = routes.find((r) => r.path === '/cabinet/dashboard')!;
  await page.goto('/ru/cabinet/dashboard');
  await expectRemoteReady(page, dashboard.heading.ru);
  await expectAccessibleInBothThemes(page);

  await page.goto('/ru/no-such-page');
  await expect(heading(page)).toHaveText(shellText('ru', 'errors.notFound'));
  await expectAccessibleInBothThemes(page);

  await page.getByRole('button', { name: shellText('ru', 'footer.terms') }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessibleInBothThemes(page);
});

test('axe: the narrow cabinet with its sidebar overlay, and the start-up error page, in light and dark', async ({ page, signIn, browser }) => {
  await signIn();
  await page.setViewportSize({ width: 600, height: 800 });
  await page.goto('/cabinet/dashboard');
  await expectRemoteReady(page, routes.find((r) => r.path === '/cabinet/dashboard')!.heading.en);
  await expectAccessibleInBothThemes(page);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expectAccessibleInBothThemes(page);

  // The broken brand in a page of its own: the cabinet's idle prefetches, still in flight when this
  // page navigates away, were reported against the next document's Content-Security-Policy.
  const broken = await browser.newPage();
  try {
    await broken.goto(`${brandURL('broken.test')}/sign-in`);
    await expect(heading(broken)).toHaveText(shellText('en', 'errors.manifestTitle'));
    await expectAccessibleInBothThemes(broken);
  } finally {
    await broken.close();
  }
});
