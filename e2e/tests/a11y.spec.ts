import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { brandURL } from '../stack.config';
import { expectRemoteReady, heading } from '../support/page';
import { localized, routes, shellText } from '../support/routes';

test.describe.configure({ mode: 'parallel' });

/** Serious and critical violations only, described so a failure says what and where. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

// Redirects ('/', '/cabinet', '/cabinet/pools') end on pages checked on their own.
const pages = routes.filter((r) => r.path === r.settlesAt);

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on any route in the ${theme} theme`, async ({ page }) => {
    await page.addInitScript((choice) => localStorage.setItem('theme', choice), theme);
    const found: string[] = [];
    const check = async (where: string) => {
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      found.push(...(await seriousViolations(page)).map((v) => `${where}: ${v}`));
    };

    for (const locale of ['en', 'ru'] as const) {
      for (const route of pages) {
        await page.goto(localized(route.path, locale));
        await expectRemoteReady(page, route.heading[locale]);
        await check(localized(route.path, locale));
      }
    }

    await page.goto('/no-such-page');
    await expect(heading(page)).toHaveText(shellText('en', 'errors.notFound'));
    await check('404 page');

    await page.getByRole('button', { name: 'Terms of service' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await check('terms modal');

    await page.setViewportSize({ width: 600, height: 800 });
    await page.goto('/cabinet/dashboard');
    await expectRemoteReady(page, routes.find((r) => r.path === '/cabinet/dashboard')!.heading.en);
    await check('narrow cabinet');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await check('sidebar overlay');

    await page.goto(`${brandURL('broken.test')}/sign-in`);
    await expect(heading(page)).toHaveText(shellText('en', 'errors.manifestTitle'));
    await check('start-up error page');

    expect(found).toEqual([]);
  });
}
