import { join } from 'node:path';

export const e2eRoot = join(__dirname, '..');
export const repoRoot = join(e2eRoot, '..');
export const dataDir = join(e2eRoot, process.env.E2E_PORT_OFFSET ? `.e2e-data-${process.env.E2E_PORT_OFFSET}` : '.e2e-data');
export const remotesDir = join(dataDir, 'remotes');
/** The brand folders the stack under test serves (BRANDS_DIR): the shipped ones and the tests' own. */
export const brandsDir = join(dataDir, 'brands');
/** What the stack's processes logged (global-setup.ts). */
export const stackLog = join(dataDir, 'stack.log');
/** Built by scripts/e2e.mjs: mf-cabinet with the label 'Canary build'. */
export const canaryDir = join(e2eRoot, '.builds/mf-cabinet');
/** The query that marks the one page where a test breaks the CSP on purpose. */
export const CSP_PROBE = 'csp-probe';
