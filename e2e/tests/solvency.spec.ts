// Proof of solvency end to end (issue 24): two investors deposit, interest accrues, the operator
// takes a snapshot; each dashboard verifies the investor's inclusion in the browser, the downloaded
// proof passes `npm run verify-proof`, and the public page shows the header's liabilities against
// reserves this test reads from the chain at the snapshot block. Then the cold address, declared
// awaiting its proof of control, proves it with the local cold key's offline signature through the
// operator command line, and the public page counts what it held at the snapshot's block.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Browser } from '@playwright/test';
import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import { apiMessages as M } from '@app/contracts';
import { TOKENS } from '@app/web3';
import { expectAccessibleInBothThemes, seriousViolations } from '../support/axe';
import { accrueUntil, addDays, apyFromFirstOpenDay, asOf, operatorPost } from '../support/calendar';
import { localOperator, operatorCli, signInConsole, totpOf } from '../support/operators';
import { deposit, dismissNotices, openPool } from '../support/pool';
import { repoRoot } from '../support/paths';
import { baseURL, ports } from '../stack.config';

const run = promisify(execFile);
const rpcURL = `http://127.0.0.1:${ports.chain}`;

type Snapshot = {
  header: { snapshotId: number; blockNumber: number; currencies: string[]; sums: string[]; root: string };
  signer: string;
  addresses: { address: string; role: string; message: string; signature: string | null }[];
  reserves: { address: string; currency: string; balance: string }[];
};

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(rpcURL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: T }).result;
}

/** The balance the chain itself reports at a block: ETH, or a token's balanceOf by raw eth_call. */
async function onChain(address: string, currency: string, block: number): Promise<bigint> {
  const tag = `0x${block.toString(16)}`;
  if (currency === 'ETH') return BigInt(await rpc<string>('eth_getBalance', [address, tag]));
  const token = TOKENS[1][currency as 'USDT'];
  if (!token) return 0n;
  const data = `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}`;
  return BigInt(await rpc<string>('eth_call', [{ to: token.address, data }, tag]));
}

async function investor(browser: Browser, usd: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const { panel, login } = await openPool(page, 'stable');
  await deposit(panel, 'USDT', usd);
  await expect(page.getByTestId('deposit-progress')).toContainText('Credited', { timeout: 30_000 });
  await dismissNotices(page);
  return { page, login, context };
}

test.describe.configure({ mode: 'serial' });

test('two investors deposit, interest accrues, a snapshot is taken: each dashboard verifies inclusion, the downloaded proof passes verify-proof, and the public page shows the header against the chain', async ({ browser, request }) => {
  test.setTimeout(300_000);
  await apyFromFirstOpenDay(request, 'stable', '0.05');
  const first = await investor(browser, '100');
  const second = await investor(browser, '250');
  await accrueUntil(request, addDays(await asOf(first.login), 2));

  const taken = await operatorPost(request, 'solvency/snapshot', {});
  expect(taken.status(), await taken.text()).toBe(200);
  const { id } = (await taken.json()) as { id: number };
  const signer = ((await (await request.get('/api/v1/solvency/signer')).json()) as { address: string }).address;

  for (const { page } of [first, second]) {
    await page.goto('/cabinet/dashboard');
    // The check sits below the figures and renders when its place comes near (not in the first load).
    await page.getByTestId('deferred-solvency-check').scrollIntoViewIfNeeded();
    const result = page.getByTestId('solvency-check-result');
    await expect(result).toHaveText(/^Your balances are included in snapshot #\d+ \(block \d+\), verified in this browser$/, { timeout: 30_000 });
    // The latest snapshot: ours, or a daily one the stack's job took after it.
    const shown = Number(/#(\d+)/.exec((await result.textContent()) ?? '')![1]);
    expect(shown).toBeGreaterThanOrEqual(id);
    const snap = (await (await request.get(`/api/v1/solvency/${shown}`)).json()) as Snapshot;
    await expect(result).toHaveText(`Your balances are included in snapshot #${shown} (block ${snap.header.blockNumber}), verified in this browser`);
    await expect(page.getByTestId('solvency-check')).toHaveAttribute('data-ok', 'true');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('solvency-download').click()]);
    const file = join(mkdtempSync(join(tmpdir(), 'proof-')), download.suggestedFilename());
    await download.saveAs(file);
    const checked = await run(process.execPath, [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), join(repoRoot, 'shared/solvency/cli.ts'), file, '--signer', signer], { cwd: repoRoot });
    expect(checked.stdout).toContain(`verified: included in snapshot #${shown} (block ${snap.header.blockNumber})`);
    expect(checked.stdout).not.toContain('FAIL');
  }

  // The public page, with no session: its figures are the latest header's, its reserves the chain's at that block.
  const visitor = await browser.newContext({ baseURL });
  const page = await visitor.newPage();
  await page.goto('/solvency');
  await expect(page.getByRole('heading', { name: 'Proof of solvency', level: 1 })).toBeVisible();
  await expect(page.getByTestId('solvency-latest-id')).toBeVisible({ timeout: 30_000 });
  const latest = ((await (await request.get('/api/v1/solvency')).json()) as { items: Snapshot[] }).items[0]!;
  await expect(page.getByTestId('solvency-latest-id')).toHaveText(`Snapshot #${latest.header.snapshotId} at block ${latest.header.blockNumber}`);
  await expect(page.getByTestId('solvency-root').first()).toHaveText(latest.header.root);
  await expect(page.getByTestId('solvency-signer').first()).toHaveText(signer);
  const rows = page.getByTestId('solvency-figures').first().getByTestId('solvency-row');
  await expect(rows).toHaveCount(latest.header.currencies.length);
  for (const [i, currency] of latest.header.currencies.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute('data-currency', currency);
    await expect(row).toHaveAttribute('data-liabilities', latest.header.sums[i]!);
    let held = 0n;
    // Only the addresses that have proven control count (the cold address awaits its proof).
    for (const a of latest.addresses.filter((x) => x.signature !== null)) held += await onChain(a.address, currency, latest.header.blockNumber);
    await expect(row).toHaveAttribute('data-reserves', String(held));
    // Reserves ÷ liabilities, as this test computes it from the chain: percent to two places, cut.
    const liabilities = BigInt(latest.header.sums[i]!);
    const basis = (held * 10_000n) / liabilities;
    const percent = `${(basis / 100n).toLocaleString('en-US')}.${String(basis % 100n).padStart(2, '0')}`.replace(/\.?0+$/, '');
    await expect(row.getByTestId('solvency-ratio')).toHaveText(`${percent}\u00a0%`);
  }
  expect(await seriousViolations(page)).toEqual([]);
  // At 390 px, in English and Russian, in the dark theme too: no sideways scrolling, nothing axe calls serious.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, heading] of [['/solvency', 'Proof of solvency'], ['/ru/solvency', 'Доказательство платёжеспособности']] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.getByTestId('solvency-latest-id')).toBeVisible({ timeout: 30_000 });
    const overflow = await page.evaluate(() => {
      const wide = [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => `${e.tagName}.${e.className}`);
      return { by: document.documentElement.scrollWidth - document.documentElement.clientWidth, wide: wide.slice(0, 5) };
    });
    expect(overflow.by, `no sideways scrolling at 390 px on ${path}: ${overflow.wide.join(' ')}`).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/solvency');
  await expect(page.getByTestId('solvency-latest-id')).toBeVisible({ timeout: 30_000 });
  expect(await seriousViolations(page)).toEqual([]);
  await visitor.close();
  await first.context.close();
  await second.context.close();
});

/** The local cold key: m/44'/60'/0'/0/106 of the public test mnemonic; the local chain funds its address at start, and no server holds it. */
const coldKey = () => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase('test test test test test test test test test test test junk'), "m/44'/60'/0'/0/106");

test('the cold address proves control with its offline signature through the command line; the public page then counts what it held at the block', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const taken = await operatorPost(request, 'solvency/snapshot', {});
  expect(taken.status(), await taken.text()).toBe(200);
  const { id } = (await taken.json()) as { id: number };
  const before = (await (await request.get(`/api/v1/solvency/${id}`)).json()) as Snapshot;
  const declared = before.addresses.find((a) => a.role === 'cold')!;
  expect(declared.signature).toBeNull();
  expect(before.reserves.some((r) => r.address === declared.address)).toBe(false);
  const cold = coldKey();
  expect(cold.address).toBe(declared.address);
  const block = before.header.blockNumber;

  const visitor = await browser.newContext({ baseURL });
  const page = await visitor.newPage();
  const figures = page.locator(`[data-testid="solvency-figures"][data-snapshot="${id}"]`);
  const coldEntry = page.locator(`[data-testid="solvency-declared"][data-snapshot="${id}"][data-address="${cold.address}"]`);
  await page.goto('/solvency');
  await expect(figures.getByTestId('solvency-row').first()).toBeAttached({ timeout: 30_000 });
  await expect(coldEntry).toHaveAttribute('data-proven', 'false');

  const attested = operatorCli('alice', 'solvency', 'attest', String(id), cold.address, await cold.signMessage(declared.message));
  expect(attested.status, attested.out).toBe(0);
  expect(attested.out).toContain(`has proven control in snapshot #${id}`);

  await page.reload();
  await expect(figures.getByTestId('solvency-row').first()).toBeAttached({ timeout: 30_000 });
  await expect(coldEntry).toHaveAttribute('data-proven', 'true');
  const after = (await (await request.get(`/api/v1/solvency/${id}`)).json()) as Snapshot;
  expect(after.header).toEqual(before.header);
  for (const [i, currency] of after.header.currencies.entries()) {
    const coldHeld = await onChain(cold.address, currency, block);
    let held = 0n;
    for (const a of after.addresses.filter((x) => x.signature !== null)) held += await onChain(a.address, currency, block);
    const row = figures.getByTestId('solvency-row').nth(i);
    await expect(row).toHaveAttribute('data-currency', currency);
    await expect(row).toHaveAttribute('data-reserves', String(held));
    // What was counted before, plus exactly what cold held at the block.
    const was = before.reserves.filter((r) => r.currency === currency).reduce((sum, r) => sum + BigInt(r.balance), 0n);
    expect(held).toBe(was + coldHeld);
  }
  expect(await seriousViolations(page)).toEqual([]);
  await visitor.close();
});

test('the operator console: the cold address awaits its proof on the overview; a wrong signature is refused, the cold key\'s is recorded (keyboard, 390 px, axe in both themes)', async ({ page, request }) => {
  test.setTimeout(180_000);
  const taken = await operatorPost(request, 'solvency/snapshot', {});
  expect(taken.status(), await taken.text()).toBe(200);
  const carol = localOperator('carol');
  await page.setViewportSize({ width: 390, height: 844 });
  await signInConsole(page, carol);
  const section = page.getByTestId('solvency-proofs');
  // The latest snapshot: ours, or a daily one the stack's job took after it; either awaits cold's proof.
  const shown = section.getByTestId('proof-snapshot');
  await expect(shown).toBeVisible({ timeout: 30_000 });
  const id = Number(await shown.getAttribute('data-snapshot'));
  expect(id).toBeGreaterThanOrEqual(((await taken.json()) as { id: number }).id);
  const snap = (await (await request.get(`/api/v1/solvency/${id}`)).json()) as Snapshot;
  const declared = snap.addresses.find((a) => a.role === 'cold')!;
  const cold = coldKey();
  const row = section.locator('[data-testid="proof-address"][data-role="cold"]');
  await expect(row).toHaveAttribute('data-proven', 'false');
  await expect(row).toContainText(cold.address);

  // By keyboard: the row's button opens the form with the exact message to sign.
  await row.getByRole('button', { name: 'Submit its proof' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel("Message for the address's key to sign")).toHaveValue(declared.message);
  await expect(page.getByTestId('proof-address-chosen')).toHaveText(cold.address);
  const sideways = () =>
    page.evaluate(() => {
      const wide = [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => `${e.tagName}.${e.className}`);
      return `${document.documentElement.scrollWidth - document.documentElement.clientWidth} ${wide.slice(0, 5).join(' ')}`;
    });
  await expect.poll(sideways).toMatch(/^-?0 $|^-\d+ $/);
  await expectAccessibleInBothThemes(page);
  const signature = page.getByLabel('Signature', { exact: true });
  const code = page.getByLabel('Code from your authenticator app', { exact: true });

  // Another key's signature of the right message: refused, said plainly, nothing counted.
  await signature.fill(await Wallet.createRandom().signMessage(declared.message));
  await code.fill(totpOf(carol));
  await code.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: M.solvencyAttestWrongSigner })).toBeVisible();
  await expect(row).toHaveAttribute('data-proven', 'false');

  await signature.fill(await cold.signMessage(declared.message));
  await code.fill(totpOf(carol));
  await code.press('Enter');
  await expect(page.getByTestId('action-done')).toHaveText(`The cold address has proven control in snapshot #${id}: its balances now count in the reserves.`);
  await expect(row).toHaveAttribute('data-proven', 'true');
  const after = (await (await request.get(`/api/v1/solvency/${id}`)).json()) as Snapshot;
  for (const currency of after.header.currencies) {
    const counted = after.reserves.find((r) => r.address === cold.address && r.currency === currency);
    expect(counted?.balance).toBe(String(await onChain(cold.address, currency, after.header.blockNumber)));
  }
  await expectAccessibleInBothThemes(page);
});
