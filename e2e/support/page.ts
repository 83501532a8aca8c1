import { expect, type Locator, type Page } from '@playwright/test';

declare global {
  interface Window {
    __e2eDocument?: string;
  }
}

/** The page's one h1: the remote's page title, or the shell's own on its error pages. */
export const heading = (page: Page): Locator => page.getByRole('heading', { level: 1 });

/** The mounted remote, once its parcel has rendered (no loading placeholder left). */
export async function expectRemoteReady(page: Page, text: string | RegExp): Promise<void> {
  await expect(heading(page)).toHaveText(text);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/**
 * Tags the current document; a full page load starts a new document without the tag, so
 * `expectSameDocument` tells client-side navigation from a reload.
 */
export async function markDocument(page: Page): Promise<string> {
  const id = `doc-${Math.random().toString(36).slice(2)}`;
  await page.evaluate((value) => {
    window.__e2eDocument = value;
  }, id);
  return id;
}

export async function expectSameDocument(page: Page, id: string): Promise<void> {
  expect(await page.evaluate(() => window.__e2eDocument ?? null), 'the page was reloaded instead of navigating client-side').toBe(id);
}

/** Presses Tab until `target` has focus, as a keyboard user would; fails if it never does. */
export async function tabTo(page: Page, target: Locator, maxPresses = 40): Promise<number> {
  for (let presses = 1; presses <= maxPresses; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return presses;
  }
  throw new Error(`${target.toString()} not reached with ${maxPresses} presses of Tab`);
}

/** What has focus, described for assertions: its accessible role-ish tag and text. */
export function focusedElement(page: Page): Locator {
  return page.locator('*:focus');
}

/** After the first visit has been idle: the service worker is installed and active. */
export async function serviceWorkerActive(page: Page) {
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), { timeout: 30_000 })
    .toBe('activated');
}
