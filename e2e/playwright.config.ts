import { defineConfig } from '@playwright/test';
import { baseURL, brandURL } from './stack.config';

export default defineConfig({
  testDir: './tests',
  // Runs on other port offsets keep their traces apart.
  outputDir: process.env.E2E_PORT_OFFSET ? `test-results-${process.env.E2E_PORT_OFFSET}` : 'test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
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
