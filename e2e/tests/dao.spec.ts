// The DAO against the real API and chain: a member with a position votes with an EIP-712
// signature from the wallet; the tally moves by their power at the snapshot, not by later deposits.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Wallet } from 'ethers';
import { operatorApiURL } from '../stack.config';
import { localOperator, totpOf } from '../support/operators';
import { PASSWORD, signedUpAndConfirmed } from '../support/accounts';
import { seriousViolations } from '../support/axe';
import { repoRoot } from '../support/paths';
import { TestWallet } from '../support/testWallet';

/**
 * The operator creates a proposal as in production: `npm run operator -- dao proposal create …`,
 * sent to this stack's operator API as the stack's operator alice. Answers the proposal's id, and
 * the quorum the server set by the rule with the value locked it is a share of (US dollars).
 */
async function operatorCreatesProposal(p: { title: string; body: string; choices: string[]; start: Date; end: Date; snapshot: Date }) {
  const alice = localOperator('alice');
  const args = ['run', '--silent', 'operator', '--', 'dao', 'proposal', 'create', '--title', p.title, '--body', p.body, '--choices', p.choices.join(','), '--start', p.start.toISOString(), '--end', p.end.toISOString(), '--snapshot', p.snapshot.toISOString()];
  const { stdout } = await promisify(execFile)('npm', args, { cwd: repoRoot, env: { ...process.env, OPERATOR_API_URL: operatorApiURL, OPERATOR_KEY: `${alice.name}.${alice.key}`, OPERATOR_TOTP: totpOf(alice) } });
  const made = /^proposal (\d+) created: .*, quorum \$([\d.]+) \((\d+) bps of \$([\d.]+) locked at the snapshot\)$/m.exec(stdout);
  expect(made, stdout).not.toBeNull();
  return { id: made![1]!, quorum: made![2]!, bps: made![3]!, locked: made![4]! };
}

const notifications = (page: Page) => page.getByRole('region', { name: /Notifications|Уведомления/ });

/** Dollars as the page shows them (the spec's "$ " prefix with a no-break space, cents cut to two), from an exact non-negative decimal string. */
const shown = (usd: string) => {
  const [whole = '0', fraction = ''] = usd.split('.');
  return `$\u00a0${BigInt(whole).toLocaleString('en-US')}.${(fraction + '00').slice(0, 2)}`;
};

async function token(request: APIRequestContext, login: string): Promise<string> {
  const r = await request.post('/api/v1/login', { data: { login, password: PASSWORD } });
  expect(r.status()).toBe(200);
  return ((await r.json()) as { token: string }).token;
}

/** Sends ETH to the coin pool from the wallet and has the API verify and credit it (1 confirmation locally). */
async function depositEth(request: APIRequestContext, bearer: string, wallet: TestWallet, wei: bigint): Promise<void> {
  const headers = { Authorization: `Bearer ${bearer}` };
  const pool = (await (await request.get('/api/v1/dashboard/pools/coin?currency=ETH', { headers })).json()) as { addresses: Record<string, string> };
  const signer = new Wallet((wallet as unknown as { signer: Wallet }).signer.privateKey, wallet.chain);
  const sent = await signer.sendTransaction({ to: pool.addresses.ETH, value: wei });
  await sent.wait(1);
  const r = await request.post('/api/v1/dashboard/deposit', { headers, data: { pool: 'coin', currency: 'ETH', amount: wei.toString(), transaction: sent.hash } });
  expect(r.status(), await r.text()).toBe(200);
  await expect
    .poll(async () => {
      const list = (await (await request.get('/api/v1/dashboard/deposits', { headers })).json()) as { items: Array<{ transaction?: string; txHash?: string; status: string }> };
      return list.items.find((d) => (d.transaction ?? d.txHash) === sent.hash)?.status;
    }, { timeout: 30_000 })
    .toBe('credited');
}

test('a member votes with the wallet; the tally moves by the power at the snapshot; a second vote replaces the first; refusals', async ({ page }) => {
  // Two deposits confirmed on chain, two proposals made by the operator's command line, many pages.
  test.setTimeout(150_000);
  const wallet = TestWallet.random(page);
  await wallet.install();
  await wallet.chain.send('anvil_setBalance', [wallet.address, `0x${(10n * 10n ** 18n).toString(16)}`]);
  const { login } = await signedUpAndConfirmed(page.request);
  await page.goto('/cabinet/dao');
  await page.getByRole('banner').getByRole('button', { name: 'Connect wallet' }).click();
  await expect(notifications(page).getByText('Metamask is successfully linked to the account!')).toBeVisible();

  const bearer = await token(page.request, login);
  const before = 10n ** 16n; // 0.01 ETH
  await depositEth(page.request, bearer, wallet, before);
  const now = Date.now();
  const { id, ...quorum } = await operatorCreatesProposal({ title: `Raise the coin pool APY ${now}`, body: '## Why\n\nMore **yield**. <img src=x onerror="window.__xss=1">', choices: ['For', 'Against'], start: new Date(now), end: new Date(now + 600_000), snapshot: new Date(now) });
  // The quorum follows the rule (the API test checks its arithmetic): the seed's share of the value locked, rounded up to the cent.
  expect(quorum.bps).toBe('2000');
  const cents = (usd: string) => {
    const [whole = '0', fraction = ''] = usd.split('.');
    return BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
  };
  expect(cents(quorum.quorum)).toBe((cents(quorum.locked) * 2000n + 9999n) / 10000n);
  // After the snapshot: must not count for this proposal.
  await depositEth(page.request, bearer, wallet, 5n * 10n ** 16n);

  // The expected power, computed here: wei × the ETH price the pools use ÷ 10^18.
  const price = ((await (await page.request.get('/api/v1/dashboard/pools/coin?currency=ETH', { headers: { Authorization: `Bearer ${bearer}` } })).json()) as { estimate: Record<string, string> }).estimate.ETH!;
  const [pw, pf = ''] = price.split('.');
  const priceUnits = BigInt(pw!) * 10n ** 8n + BigInt((pf + '00000000').slice(0, 8));
  const powerUnits = (before * priceUnits) / 10n ** 18n;
  const usdText = (units: bigint) => `${units / 10n ** 8n}.${(units % 10n ** 8n).toString().padStart(8, '0')}`;
  const power = usdText(powerUnits);
  // Staked now: both deposits (no interest accrued yet), valued the same way.
  const staked = usdText(((before + 5n * 10n ** 16n) * priceUnits) / 10n ** 18n);

  await page.goto('/cabinet/dao');
  await page.getByRole('link', { name: `Raise the coin pool APY ${now}` }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Raise the coin pool APY ${now}`);
  await expect(page.getByRole('heading', { name: 'Why' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.getByTestId('my-power')).toHaveText(shown(power));
  await expect(page.getByTestId('total-power')).toHaveText('$\u00a00.00');
  // The page shows the quorum and how it was derived.
  await expect(page.getByTestId('quorum')).toHaveText(`${shown(quorum.quorum)} (not reached)`);
  await expect(page.getByTestId('quorum')).toBeVisible();
  await expect(page.getByTestId('quorum-rule')).toHaveText(`20\u00a0% of ${shown(quorum.locked)}, all the value in the pools at the snapshot`);
  await expect(page.getByTestId('quorum-rule')).toBeVisible();

  await page.getByLabel('For').check();
  await page.getByRole('button', { name: 'Sign and vote' }).click();
  await expect(notifications(page).getByText('Your vote is recorded')).toBeVisible();
  await expect(page.getByTestId('result-power-1')).toHaveText(shown(power));
  await expect(page.getByTestId('total-power')).toHaveText(shown(power));
  expect(wallet.calls).toContain('eth_signTypedData_v4');

  await page.getByLabel('Against').check();
  await page.getByRole('button', { name: 'Sign and change my vote' }).click();
  await expect(page.getByTestId('result-power-1')).toHaveText('$\u00a00.00');
  await expect(page.getByTestId('result-power-2')).toHaveText(shown(power));
  await page.reload();
  await expect(page.getByTestId('my-vote')).toContainText('Against');

  // The signed votes can be downloaded and checked by anyone.
  const votes = (await (await page.request.get(`/api/v1/dao/proposals/${id}/votes`)).json()) as { votes: Array<{ message: { choice: number; from: string } }> };
  expect(votes.votes.map((v) => [v.message.choice, v.message.from])).toEqual([[2, wallet.address]]);

  // Refused: a vote signed by another wallet, a bad choice, and a vote after the end.
  const other = Wallet.createRandom();
  const domain = { name: 'Invest Pools', version: '1', chainId: 1 };
  const types = { Vote: [{ name: 'from', type: 'address' }, { name: 'space', type: 'string' }, { name: 'timestamp', type: 'uint64' }, { name: 'proposal', type: 'string' }, { name: 'choice', type: 'uint32' }, { name: 'reason', type: 'string' }, { name: 'app', type: 'string' }, { name: 'metadata', type: 'string' }] };
  const message = (over: Record<string, unknown> = {}) => ({ from: wallet.address, space: 'localhost', timestamp: Math.floor(Date.now() / 1000), proposal: id, choice: 1, reason: '', app: 'invest-pools', metadata: '{}', ...over });
  const post = (pid: string, body: unknown) => page.request.post(`/api/v1/dao/proposals/${pid}/vote`, { headers: { Authorization: `Bearer ${bearer}` }, data: body });
  const forged = message();
  expect(((await (await post(id, { message: forged, signature: await other.signTypedData(domain, types, forged) })).json()) as { message: string }).message).toBe('The vote is not signed by the wallet linked to your account');
  const signer = new Wallet((wallet as unknown as { signer: Wallet }).signer.privateKey);
  const badChoice = message({ choice: 3 });
  expect(((await (await post(id, { message: badChoice, signature: await signer.signTypedData(domain, types, badChoice) })).json()) as { message: string }).message).toBe("This choice is not one of the proposal's choices");
  const ended = { id: (await operatorCreatesProposal({ title: `Closed ${now}`, body: 'Done.', choices: ['Yes', 'No'], start: new Date(now - 600_000), end: new Date(now - 1000), snapshot: new Date(now - 600_000) })).id };
  const late = message({ proposal: ended.id });
  expect(((await (await post(ended.id, { message: late, signature: await signer.signTypedData(domain, types, late) })).json()) as { message: string }).message).toBe('Voting on this proposal is closed');
  await expect(page.getByTestId('result-power-2')).toHaveText(shown(power));

  // The personal panel counts it.
  await page.goto('/cabinet/dao');
  await expect(page.getByTestId('proposals-voted')).toHaveText('1');
  await expect(page.getByTestId('staked')).toHaveText(shown(staked));
  await expect(page.getByTestId('voting-power')).toHaveText(shown(staked));
  await expect(page.getByTestId('rewards')).toHaveText('$\u00a00.00');
});

test('at 390 px the DAO pages fit and axe finds nothing serious, in English and Russian', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signedUpAndConfirmed(page.request);
  const now = Date.now();
  const { id } = await operatorCreatesProposal({ title: `A long proposal title that has to wrap on a phone ${now}`, body: '# Heading\n\n- one\n- two\n\n`code that is rather long and must not push the page sideways at all`', choices: ['For', 'Against'], start: new Date(now), end: new Date(now + 600_000), snapshot: new Date(now) });
  for (const path of ['/cabinet/dao', `/cabinet/dao/${id}`, '/ru/cabinet/dao', `/ru/cabinet/dao/${id}`]) {
    await page.goto(path);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `no sideways scrolling at 390 px on ${path}`).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
  }
});
