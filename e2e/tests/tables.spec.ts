import { expect, test } from '../support/fixtures';
import { expectRemoteReady } from '../support/page';
import { routes } from '../support/routes';
import { deposit, dismissNotices, openPool, sentHash } from '../support/pool';

// Issue 27, finding 7: tables never clip. On every cabinet page at 390, 1280 and 1920 px the page
// does not scroll sideways, and every table cell's content fits its box, unless the table sits in a
// scroll container (which then scrolls, with its cue).

type Clipped = { page: string; width: number; cell: string };

test('finding 7: no cabinet page scrolls sideways, and no table cell is clipped, at 390, 1280 and 1920 px', async ({ page }) => {
  test.setTimeout(240_000);
  // An account with figures in its tables: a credited deposit and a paid withdrawal, with their hashes.
  const { panel } = await openPool(page, 'coin');
  await deposit(panel, 'ETH', '30');
  await sentHash(page);
  await expect(page.getByTestId('deposit-progress')).toContainText('Credited', { timeout: 30_000 });
  await dismissNotices(page);
  await page.getByRole('tab', { name: 'Withdraw' }).click();
  const withdraw = page.getByRole('tabpanel', { name: 'Withdraw' });
  await withdraw.getByLabel('Amount in ETH').fill('0.002');
  await withdraw.getByRole('button', { name: 'Request withdrawal' }).click();
  await withdraw.getByRole('button', { name: 'Confirm withdrawal' }).click();
  await expect(page.getByTestId('withdrawal-row').first().getByTestId('withdrawal-status')).toHaveText('Paid', { timeout: 30_000 });
  const found: (Clipped | string)[] = [];
  for (const width of [390, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    for (const r of routes.filter((x) => x.layout === 'inner' && x.path === x.settlesAt)) {
      await page.goto(r.path);
      await expectRemoteReady(page, r.heading.en);
      await page.waitForLoadState('networkidle');
      const result = await page.evaluate(() => {
        const doc = document.documentElement;
        const sideways = doc.scrollWidth > doc.clientWidth + 1;
        const scrolls = (el: Element | null): boolean => {
          for (let e = el; e && e !== document.body; e = e.parentElement) {
            const overflowX = getComputedStyle(e).overflowX;
            if (overflowX === 'auto' || overflowX === 'scroll') return true;
          }
          return false;
        };
        const clipped: string[] = [];
        for (const cell of document.querySelectorAll<HTMLElement>('main td, main th')) {
          // Hidden headers of a table stacked into cards are not shown: nothing to clip.
          if (cell.offsetParent === null || cell.getBoundingClientRect().width <= 1) continue;
          const over = cell.scrollWidth > cell.clientWidth + 1;
          if (over && !scrolls(cell.closest('table')?.parentElement ?? null)) clipped.push(`${cell.tagName.toLowerCase()}: ${cell.innerText.slice(0, 40)}`);
        }
        return { sideways, clipped };
      });
      if (result.sideways) found.push(`${r.path} at ${width} px scrolls sideways`);
      for (const cell of result.clipped) found.push({ page: r.path, width, cell });
    }
  }
  expect(found).toEqual([]);
});
