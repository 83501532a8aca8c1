import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { baseURL, brandURL } from '../stack.config';
import { seriousViolations } from '../support/axe';
import { expectRemoteReady } from '../support/page';
import { routes } from '../support/routes';

// Issue 25: the main pages as committed screenshots (Debian's Chromium, `npm run test:e2e --
// tests/screenshots.spec.ts --update-snapshots` to renew them after a deliberate change), at a
// phone's, a laptop's and a wide screen's width, in both themes and in Russian, each also passing
// axe. Animations are off and the caret hidden. A modest set, of pages whose every pixel is the same
// from run to run: the cabinet's pages carry the day's date, the pools' live rates and the account's
// e-mail, and masking those would leave little of them to compare (their layout is covered by the
// sidebar, theme and a11y specs).
const WIDTHS = [390, 1280, 1920] as const;
const THEMES = ['light', 'dark'] as const;
const remoteReady = (heading: string) => (page: Page) => expectRemoteReady(page, heading);
const legalReady = (page: Page) => expect(page.locator('main h1')).toBeVisible();
const PAGES = [
  { name: 'sign-in', url: `${baseURL}/sign-in`, ready: remoteReady(routes.find((r) => r.path === '/sign-in')!.heading.en) },
  { name: 'ru-sign-up', url: `${baseURL}/ru/sign-up`, ready: remoteReady(routes.find((r) => r.path === '/sign-up')!.heading.ru) },
  // Two brands of their own look: one of the app's pages and one of the server's legal pages.
  { name: 'aurora-sign-in', url: `${brandURL('aurora.test')}/sign-in`, ready: remoteReady(routes.find((r) => r.path === '/sign-in')!.heading.en) },
  { name: 'ember-ru-terms', url: `${brandURL('ember.test')}/ru/terms`, ready: legalReady },
] as const;

for (const p of PAGES) {
  for (const theme of THEMES) {
    test(`issue 25: ${p.name} in the ${theme} theme at 390, 1280 and 1920 px matches its screenshots and passes axe`, async ({ browser }) => {
      test.setTimeout(120_000);
      // The theme as the system's (the legal pages have no script to read a stored choice).
      const context = await browser.newContext({ colorScheme: theme });
      const page = await context.newPage();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(p.url);
        await p.ready(page);
        // Nothing still loading: the shot is of the finished page.
        await expect(page.locator('.skeleton, .remote-loading')).toHaveCount(0);
        await expect(page).toHaveScreenshot(`${p.name}-${theme}-${width}.png`, { animations: 'disabled', caret: 'hide', fullPage: false, maxDiffPixelRatio: 0.01 });
        expect(await seriousViolations(page)).toEqual([]);
      }
      await context.close();
    });
  }
}
