import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { seriousViolations } from '../support/axe';
import { expectRemoteReady } from '../support/page';
import { routes } from '../support/routes';

// Issue 25: the main pages as committed screenshots (Debian's Chromium, `npm run test:e2e --
// tests/screenshots.spec.ts --update-snapshots` to renew them after a deliberate change), at a
// phone's, a laptop's and a wide screen's width, in both themes and in Russian, each also passing
// axe. Figures that live (amounts, times, the account's e-mail) are masked; animations are off.
// A modest set: every shot is a full page load on a shared machine.
const WIDTHS = [390, 1280, 1920] as const;
const THEMES = ['light', 'dark'] as const;
const PAGES = [
  { name: 'sign-in', path: '/sign-in', heading: routes.find((r) => r.path === '/sign-in')!.heading.en, signedIn: false },
  { name: 'ru-sign-up', path: '/ru/sign-up', heading: routes.find((r) => r.path === '/sign-up')!.heading.ru, signedIn: false },
  { name: 'dashboard', path: '/cabinet/dashboard', heading: routes.find((r) => r.path === '/cabinet/dashboard')!.heading.en, signedIn: true },
] as const;

/** What changes from run to run on a page: masked in the shot. */
const live = (page: Page) => [
  page.locator('.num'),
  page.locator('time'),
  page.locator('.sidebar__greeting'),
  page.locator('.header__greeting'),
  page.locator('[data-testid="wallet-address"]'),
  page.locator('.chart__canvas'),
  page.locator('.skeleton'),
];

for (const p of PAGES) {
  for (const theme of THEMES) {
    test(`issue 25: ${p.name} in the ${theme} theme at 390, 1280 and 1920 px matches its screenshots and passes axe`, async ({ page, signIn }) => {
      test.setTimeout(120_000);
      if (p.signedIn) await signIn();
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(p.path);
        await expectRemoteReady(page, p.heading);
        // Nothing still loading: the shot is of the finished page.
        await expect(page.locator('.skeleton, .remote-loading')).toHaveCount(0);
        await expect(page).toHaveScreenshot(`${p.name}-${theme}-${width}.png`, { animations: 'disabled', caret: 'hide', mask: live(page), fullPage: false, maxDiffPixelRatio: 0.01 });
        expect(await seriousViolations(page)).toEqual([]);
      }
    });
  }
}
