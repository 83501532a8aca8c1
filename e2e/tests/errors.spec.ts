import { expect, test } from '../support/fixtures';
import { expectRemoteReady, expectSameDocument, heading, markDocument } from '../support/page';
import { localized, routes, shellText } from '../support/routes';
import { brandURL } from '../stack.config';

const dashboard = routes.find((r) => r.path === '/cabinet/dashboard')!;

for (const locale of ['en', 'ru'] as const) {
  test(`an unknown path shows the 404 page, whose link goes to the dashboard (${locale})`, async ({ page, signIn }) => {
    await signIn();
    await page.goto(localized('/no/such/page', locale));
    await expect(heading(page)).toHaveText(shellText(locale, 'errors.notFound'));
    if (locale === 'en') await expect(heading(page)).toHaveText('This page could not be found');
    const doc = await markDocument(page);

    await page.getByRole('link', { name: shellText(locale, 'errors.toDashboard') }).click();
    await expect(page).toHaveURL(localized('/cabinet/dashboard', locale));
    await expectRemoteReady(page, dashboard.heading[locale]);
    await expectSameDocument(page, doc);
  });
}

test('a malformed runtime manifest shows a clear start-up error page, never a blank one', async ({ page }) => {
  await page.goto(`${brandURL('broken.test')}/sign-in`);
  await expect(heading(page)).toHaveText('The site could not start');
  await expect(page.getByText(shellText('en', 'errors.manifestMalformed'))).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
});
