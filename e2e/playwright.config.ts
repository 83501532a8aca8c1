import { defineConfig } from '@playwright/test';
import { baseURL, brandURL } from './stack.config';

const ACCRUAL_SPECS = /\/(cabinet|cabinet-screenshots|referral|dao|solvency|operator-console)\.spec\.ts$/;

export default defineConfig({
  testDir: './tests',
  // Runs on other port offsets keep their traces apart.
  outputDir: process.env.E2E_PORT_OFFSET ? `test-results-${process.env.E2E_PORT_OFFSET}` : 'test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 2,
  // A retry would hide a flaky test: every test passes the first time or the run fails.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  projects: [
    // The specs that accrue interest, or read figures that an accrual would move, share one accrual
    // calendar (the stack's): they run one at a time, each computing its days from the calendar it finds.
    { name: 'accrual', testMatch: ACCRUAL_SPECS, workers: 1 },
    { name: 'site', testIgnore: ACCRUAL_SPECS },
  ],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's Chromium: browsers cannot be downloaded here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // White-label hosts of the tests all resolve to this machine.
        '--host-resolver-rules=MAP *.test 127.0.0.1',
        // As if served over HTTPS, as brands are in production: the service worker runs there too.
        `--unsafely-treat-insecure-origin-as-secure=${brandURL('redeploy.test')}`,
      ],
    },
  },
});
