import { defineConfig } from '@playwright/test';
import site from './playwright.config';

// The site on PostgreSQL with two API replicas behind the shell's proxy (replicas-setup.ts), for
// the tests in replicas/: run after the main run by `npm run test:e2e`, or alone with
// `npm run test:e2e -- --replicas`.
export default defineConfig({
  ...site,
  testDir: './replicas',
  outputDir: process.env.E2E_PORT_OFFSET ? `test-results-replicas-${process.env.E2E_PORT_OFFSET}` : 'test-results-replicas',
  globalSetup: './replicas-setup.ts',
  workers: 1,
  projects: [{ name: 'replicas' }],
});
