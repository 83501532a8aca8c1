import { expect, test } from '../support/fixtures';
import { brandURL, defaultTitle } from '../stack.config';
import { expectRemoteReady } from '../support/page';
import { routes, shellText } from '../support/routes';

const signInPage = routes.find((r) => r.path === '/sign-in')!;

test('a brand host shows its title in the document title and in the terms', async ({ page }) => {
  await page.goto(`${brandURL('acme.test')}/sign-in`);
  await expectRemoteReady(page, signInPage.heading.en);
  await expect(page).toHaveTitle('Acme Invest');
  await expect(page.getByRole('link', { name: 'Acme Invest home' })).toBeVisible();

  await page.getByRole('button', { name: shellText('en', 'footer.terms') }).click();
  const terms = page.getByRole('dialog', { name: shellText('en', 'terms.title') });
  await expect(terms).toContainText('These terms govern your use of Acme Invest.');
  await expect(terms).toContainText('law of Singapore');
  await expect(terms).not.toContainText('acme.test');
});

test('a host missing from the brand registry gets the default title', async ({ page }) => {
  await page.goto(`${brandURL('unknown-brand.test')}/sign-in`);
  await expectRemoteReady(page, signInPage.heading.en);
  await expect(page).toHaveTitle(defaultTitle);
});
