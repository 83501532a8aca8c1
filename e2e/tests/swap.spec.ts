import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/fixtures';
import { brandURL, canaryCabinetPort } from '../stack.config';
import type { RuntimeManifest } from '../support/build-modules';
import { expectRemoteReady, heading } from '../support/page';
import { remotesDir } from '../support/paths';
import { routes } from '../support/routes';

const manifestFile = join(remotesDir, 'swap.json');
const dashboard = routes.find((r) => r.path === '/cabinet/dashboard')!.heading.en;
let original: string | undefined;

test.afterEach(() => {
  if (original !== undefined) writeFileSync(manifestFile, original);
});

test('pointing a remote at a second build in the runtime manifest changes the page, shell untouched', async ({ page, signIn }) => {
  await signIn('swap.test');
  await page.goto(`${brandURL('swap.test')}/cabinet/dashboard`);
  await expectRemoteReady(page, dashboard);
  await expect(heading(page)).not.toContainText('Canary build');

  original = readFileSync(manifestFile, 'utf8');
  const manifest = JSON.parse(original) as RuntimeManifest;
  const cabinet = manifest.remotes.find((r) => r.name === 'mf_cabinet')!;
  cabinet.entry = `http://localhost:${canaryCabinetPort}/mf-manifest.json`;
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));

  await page.reload();
  await expectRemoteReady(page, `${dashboard} Canary build`);

  // Other remotes of the brand stay the regular ones.
  await page.getByTestId('sidebar').getByRole('link', { name: 'Settings' }).click();
  await expectRemoteReady(page, routes.find((r) => r.path === '/cabinet/settings')!.heading.en);
});
