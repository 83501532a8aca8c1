import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { baseURL } from '../stack.config';
import { signedUpAndConfirmed, uniqueEmail } from '../support/accounts';
import { seriousViolations } from '../support/axe';
import { expectRemoteReady } from '../support/page';
import { remoteText, routes, type Locale } from '../support/routes';

// Issue 25: the cabinet's pages as committed screenshots, as screenshots.spec.ts does for the public
// ones (`npm run test:e2e -- tests/cabinet-screenshots.spec.ts --update-snapshots` renews them), at
// 390, 1280 and 1920 px in both themes, and under /ru at 1280 px, each also passing axe.
// What would differ from run to run is either fixed or masked:
// - the account is a new one with a name of its own and no money moved, so every figure of its own
//   is zero or empty;
// - the browser's clock is fixed, for what the page dates itself;
// - masked: the e-mail and invite code (new each run), dates and times the server sends, addresses
//   and hashes, the invite link (it names the run's port), and the figures of the whole book that other tests move (TVL, total voting power,
//   quorum in dollars, proposals).
// It runs with the accrual specs (playwright.config.ts), before them: the pools' rates are the seeded ones.
const WIDTHS = [390, 1280, 1920] as const;
const THEMES = ['light', 'dark'] as const;
const CLOCK = new Date('2026-11-25T12:00:00Z');
const NAME = 'Alex Morgan';

const heading = (path: string) => (l: Locale) => routes.find((r) => r.path === path)!.heading[l];
const PAGES: { name: string; path: string; heading: (l: Locale) => string }[] = [
  { name: 'dashboard', path: '/cabinet/dashboard', heading: heading('/cabinet/dashboard') },
  { name: 'pool', path: '/cabinet/pools/coin', heading: heading('/cabinet/pools/coin') },
  { name: 'referral', path: '/cabinet/refferal', heading: heading('/cabinet/refferal') },
  { name: 'affiliates', path: '/cabinet/affiliates', heading: heading('/cabinet/affiliates') },
  { name: 'dao', path: '/cabinet/dao', heading: heading('/cabinet/dao') },
  { name: 'settings', path: '/cabinet/settings', heading: heading('/cabinet/settings') },
  { name: 'solvency', path: '/solvency', heading: (l) => remoteText('mf-pools', l, 'solvency.title') },
];

const VARIABLE = [
  '[data-testid="tvl"]',
  '[data-testid="figure-tvl"] dd',
  '[data-testid="total-power"]',
  '[data-testid="dao-quorum-usd"]',
  '[data-testid="proposal"]',
  // The proof's block: the first snapshot's, taken as the stack starts, while other tests may already send transactions.
  '[data-testid="solvency-latest-id"]',
  '[data-testid="solvency-block"]',
  '[data-testid="referral-id"]',
  '[data-testid="referral-qr"]',
  // The invite link carries the host and port of the run.
  '#referral-link',
].join(', ');

function masks(page: Page, login: string) {
  return [
    page.getByText(login),
    page.locator('input[type="email"]'),
    page.locator('#main').getByText(/\d{4}-\d{2}-\d{2}/),
    page.locator('#main').getByText(/0x[0-9a-fA-F]{4}/),
    page.locator(VARIABLE),
  ];
}

/** A context signed in as `login`, in a theme, with the browser's clock fixed. */
async function signedIn(browser: Browser, login: string, password: string, colorScheme: 'light' | 'dark'): Promise<BrowserContext> {
  const context = await browser.newContext({ colorScheme });
  const response = await context.request.post(`${baseURL}/api/v1/login`, { data: { login, password } });
  expect(response.status(), await response.text()).toBe(200);
  // The refresh cookie the API set is in the context now; the shell restores a session from it on load.
  const cookies = await context.cookies(baseURL);
  if (!cookies.some((c) => c.name === 'refresh_token')) {
    const header = response.headersArray().find((h) => h.name.toLowerCase() === 'set-cookie' && h.value.startsWith('refresh_token='))!.value;
    const value = header.slice('refresh_token='.length, header.indexOf(';'));
    await context.addCookies([{ name: 'refresh_token', value, domain: 'localhost', path: '/api', httpOnly: true, sameSite: 'Strict' }]);
  }
  await context.addCookies([{ name: 'signed_in', value: '1', domain: 'localhost', path: '/', sameSite: 'Strict' }]);
  return context;
}

async function shoot(page: Page, login: string, path: string, title: string, file: string) {
  await page.goto(`${baseURL}${path}`);
  await expectRemoteReady(page, title);
  // Nothing still loading on the screen: the shot is of the finished page. (The dashboard's sections
  // further down stay placeholders until scrolled near: they are not in the shot.)
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          [...document.querySelectorAll('.skeleton, .remote-loading, [aria-busy="true"]')].filter((e) => {
            const box = e.getBoundingClientRect();
            return box.width > 0 && box.bottom > 0 && box.top < window.innerHeight;
          }).length,
      ),
    )
    .toBe(0);
  await page.waitForLoadState('networkidle');
  await expect(page).toHaveScreenshot(file, { animations: 'disabled', caret: 'hide', fullPage: false, maxDiffPixelRatio: 0.01, mask: masks(page, login) });
  expect(await seriousViolations(page)).toEqual([]);
}

test.describe.configure({ mode: 'serial' });

let account: { login: string; password: string };
test.beforeAll(async ({ request }) => {
  account = await signedUpAndConfirmed(request, uniqueEmail('shots'));
  // A name of its own, so the greeting and the sidebar show the same words every run (not the e-mail).
  const signedIn = await request.post('/api/v1/login', { data: account });
  expect(signedIn.status()).toBe(200);
  const { token } = (await signedIn.json()) as { token: string };
  const named = await request.put('/api/v1/user/update', { headers: { Authorization: `Bearer ${token}` }, data: { name: NAME } });
  expect(named.status(), await named.text()).toBe(200);
  // The first snapshot is taken by a job once the stack has started: the solvency page's shots are of it, not of the page before it.
  await expect
    .poll(async () => ((await (await request.get('/api/v1/solvency')).json()) as { items: unknown[] }).items.length, { timeout: 60_000 })
    .toBeGreaterThan(0);
});

for (const theme of THEMES) {
  test.describe(`the ${theme} theme`, () => {
    let context: BrowserContext;
    let page: Page;
    test.beforeAll(async ({ browser }) => {
      context = await signedIn(browser, account.login, account.password, theme);
      page = await context.newPage();
      await page.clock.setFixedTime(CLOCK);
    });
    test.afterAll(async () => context.close());

    for (const p of PAGES) {
      test(`issue 25: the cabinet's ${p.name} page in the ${theme} theme at 390, 1280 and 1920 px matches its screenshots and passes axe`, async () => {
        test.setTimeout(120_000);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          await shoot(page, account.login, p.path, p.heading('en'), `cabinet-${p.name}-${theme}-${width}.png`);
        }
      });
    }
  });
}

test.describe('Russian', () => {
  let context: BrowserContext;
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    context = await signedIn(browser, account.login, account.password, 'light');
    page = await context.newPage();
    await page.clock.setFixedTime(CLOCK);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
  test.afterAll(async () => context.close());

  for (const p of PAGES) {
    test(`issue 25: the cabinet's ${p.name} page under /ru at 1280 px matches its screenshot and passes axe`, async () => {
      await shoot(page, account.login, `/ru${p.path}`, p.heading('ru'), `cabinet-ru-${p.name}-1280.png`);
    });
  }
});
