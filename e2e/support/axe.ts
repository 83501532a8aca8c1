import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe-core's serious and critical violations on the page as it is, described with where they are. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    // The site has no iframes: axe runs in the page itself, without the extra blank page the
    // frame-by-frame mode opens for every scan (which made a scan several times slower here).
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The page as it is, in the light theme and then in the dark one. The theme choice is
 * "system", so switching the emulated OS scheme re-themes the page without loading it again.
 */
export async function expectAccessibleInBothThemes(page: Page) {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    found.push(...(await seriousViolations(page)).map((v) => `${theme}: ${v}`));
  }
  expect(found).toEqual([]);
}
