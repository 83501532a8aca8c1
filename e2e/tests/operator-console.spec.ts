// Issue 26, the operator console: two named operators in two browsers. Alice signs in with her
// password and TOTP and approves a small withdrawal, which is paid on chain; a large one needs
// alice and bob; alice's second approval is refused, as is her approval of her own withdrawal; a
// user without the operator role gets no console route and makes no operator call; the audit log
// shows each step with its actor, and its chain verifies. A money settings change proposed by
// alice is refused to her and applied by bob, and so is a referral programme version (bob in
// Russian, at 390 px). Then every console screen in both languages and themes at 390 px, with axe.
import { authenticator } from 'otplib';
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { parseUnits } from '@app/web3';
import { expectAccessibleInBothThemes } from '../support/axe';
import { freshSignInCode, localOperator, operatorCli, operatorHeaders, operatorPost, signInConsole, totpOf, type LocalOperator } from '../support/operators';
import { deposit, dismissNotices, fund, openPool, sentHash } from '../support/pool';
import { TestWallet } from '../support/testWallet';
import { operatorApiURL, ports } from '../stack.config';

const ETH = (text: string) => parseUnits(text, 18);
/**
 * This file's ETH rule: approval above 0.6 ETH in the window, two operators above 1 ETH. Other
 * files withdraw at most 0.5 ETH per account, so the rule changes nothing for them while it holds.
 */
const RULE = { approvalThreshold: ETH('0.6'), dualApprovalThreshold: ETH('1') };
const SMALL = '0.7';
const LARGE = '1.2';

type QueueItem = { id: number; userId: string; to: string; amount: string; fee: string; receive: string; status: string; transaction: string | null; approvals: number; approvalsNeeded: number };

/** The queue as the operator API lists it (through its own port, as the command line reads it). */
async function queue(page: Page, query: string): Promise<QueueItem[]> {
  const res = await page.request.get(`${operatorApiURL}/api/v1/operator/withdrawals?${query}`, { headers: operatorHeaders(localOperator('bob'), false) });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { items: QueueItem[] }).items;
}

/** The withdrawal of `amount` ETH to `wallet` awaiting approval, once it is listed. */
async function awaiting(page: Page, wallet: string, amount: string): Promise<QueueItem> {
  let found: QueueItem | undefined;
  await expect
    .poll(async () => {
      found = (await queue(page, 'status=awaiting_approval&currency=ETH')).find((w) => w.to.toLowerCase() === wallet.toLowerCase() && w.amount === String(ETH(amount)));
      return found?.id;
    })
    .toBeTruthy();
  return found!;
}

/** Wei as ETH with every digit and no trailing zeros (the test's own arithmetic): 1300000000000000000n → "1.3". */
const ethText = (wei: bigint) => {
  const fraction = String(wei % 10n ** 18n).padStart(18, '0').replace(/0+$/, '');
  return `${wei / 10n ** 18n}${fraction ? `.${fraction}` : ''}`;
};

/**
 * Requests a withdrawal of `amount` ETH from a position of `position` ETH on the pool page; the
 * quote says an operator approves it. Done once the request is listed and the position shows
 * what is left (the form starts afresh with the new position).
 */
async function requestWithdrawal(page: Page, amount: string, position: bigint): Promise<bigint> {
  await dismissNotices(page);
  await page.getByRole('tab', { name: 'Withdraw' }).click();
  const withdraw = page.getByRole('tabpanel', { name: 'Withdraw' });
  await expect(withdraw.getByText(`In this pool: ${ethText(position)} ETH`)).toBeVisible();
  const rows = page.getByTestId('withdrawal-row');
  const before = await rows.count();
  await withdraw.getByLabel('Amount in ETH').fill(amount);
  await expect(withdraw.getByLabel('Amount in ETH')).toHaveValue(amount);
  await withdraw.getByRole('button', { name: 'Request withdrawal' }).click();
  await expect(withdraw.getByTestId('withdraw-quote').getByTestId('quote-next')).toHaveText(/an operator approves it/);
  await withdraw.getByRole('button', { name: 'Confirm withdrawal' }).click();
  await expect(rows).toHaveCount(before + 1, { timeout: 15_000 });
  const left = position - ETH(amount);
  await expect(withdraw.getByText(`In this pool: ${ethText(left)} ETH`)).toBeVisible();
  return left;
}

/** Deposits about `usd` dollars of ETH from the page's wallet and waits until it is credited. */
async function depositEth(page: Page, usd: string) {
  await deposit(page.getByRole('tabpanel', { name: 'Deposit' }), 'ETH', usd);
  await sentHash(page);
  await expect(page.getByTestId('deposit-progress')).toContainText('Credited', { timeout: 30_000 });
}

/** Opens a withdrawal's decision in the queue and confirms it with the current code; answers the confirmation form. */
async function decide(page: Page, op: LocalOperator, id: number, kind: 'Approve' | 'Reject', reason?: string): Promise<Locator> {
  const row = page.locator(`[data-testid="operator-withdrawal"][data-id="${id}"]`);
  await row.getByRole('button', { name: `${kind} withdrawal ${id}` }).click();
  const form = page.locator('form.operator__confirm');
  if (reason) await form.getByLabel('Reason (the user is told)').fill(reason);
  await form.getByLabel('Code from your authenticator app').fill(authenticator.generate(op.totpSecret));
  await form.getByRole('button', { name: kind }).click();
  return form;
}

async function openQueue(page: Page) {
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Withdrawals' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Withdrawals');
  await expect(page.getByTestId('operator-withdrawal').first()).toBeVisible();
}

/** Separate browsers (contexts) opened as a test needs them; the test closes `contexts` at the end. */
function browsers(browser: Browser) {
  const contexts: BrowserContext[] = [];
  const open = async () => {
    const context = await browser.newContext();
    contexts.push(context);
    return context.newPage();
  };
  return { contexts, open };
}

test.describe.configure({ mode: 'serial' });

test('issue 26: two operators in two browsers: TOTP sign-in, a small withdrawal paid, a large one needs both, a second approval and one\'s own are refused, a non-operator gets no console, and the audit log shows every step', async ({ browser }) => {
  test.setTimeout(300_000);
  const alice = localOperator('alice');
  const bob = localOperator('bob');
  const { contexts, open } = browsers(browser);
  const set = await operatorPost(await (await open()).request, 'payouts', { currency: 'ETH', approvalThreshold: String(RULE.approvalThreshold), dualApprovalThreshold: String(RULE.dualApprovalThreshold) }, 'bob');
  expect(set.status(), await set.text()).toBe(200);
  try {
    // A user (no operator role) deposits 2 ETH and asks for a small and a large withdrawal.
    const user = await open();
    const { wallet, login } = await openPool(user, 'coin');
    // $6,000 at the local price of $3,000 an ETH.
    await depositEth(user, '6000');
    await requestWithdrawal(user, LARGE, await requestWithdrawal(user, SMALL, ETH('2')));
    const small = await awaiting(user, wallet.address, SMALL);
    const large = await awaiting(user, wallet.address, LARGE);
    expect([small.approvalsNeeded, large.approvalsNeeded]).toEqual([1, 2]);

    // Alice's own account, with a wallet of its own, asks for one too.
    const a = await open();
    const aliceWallet = TestWallet.random(a);
    await aliceWallet.install();
    await fund(aliceWallet);
    const site = await a.request.post('/api/v1/login', { data: { login: alice.email, password: alice.password } });
    expect(site.status(), await site.text()).toBe(200);
    await a.goto('/cabinet/pools/coin');
    await a.getByRole('banner').getByRole('button', { name: 'Connect wallet' }).click();
    await expect(a.getByRole('banner').getByTestId('linked-wallet')).toHaveAttribute('title', new RegExp(`^${aliceWallet.address}$`, 'i'), { timeout: 30_000 });
    await depositEth(a, '3000');
    await requestWithdrawal(a, SMALL, ETH('1'));
    const own = await awaiting(a, aliceWallet.address, SMALL);

    // Alice, in her browser: the console's sign-in with her password and TOTP.
    await signInConsole(a, alice);
    await openQueue(a);
    await decide(a, alice, small.id, 'Approve');
    await expect(a.getByTestId('action-done')).toHaveText(`Withdrawal ${small.id} is approved and queued for payout.`);

    await decide(a, alice, large.id, 'Approve');
    await expect(a.getByTestId('action-done')).toHaveText(`Your approval of withdrawal ${large.id} is recorded (1 of 2): another operator must approve it too.`);
    await expect(a.locator(`[data-testid="operator-withdrawal"][data-id="${large.id}"]`).getByTestId('approvals')).toHaveText('1 of 2');

    // Her second approval of the same request is refused, and so is her own withdrawal.
    const again = await decide(a, alice, large.id, 'Approve');
    await expect(again.getByRole('alert')).toHaveText('You have already approved this withdrawal: another operator must approve it');
    await again.getByRole('button', { name: 'Cancel' }).click();
    const mine = await decide(a, alice, own.id, 'Approve');
    await expect(mine.getByRole('alert')).toHaveText('Nobody approves their own withdrawal or one they requested for someone else');
    await mine.getByRole('button', { name: 'Cancel' }).click();

    // Bob, in another browser: the second approval of the large one, and the rejection of alice's.
    const b = await open();
    await signInConsole(b, bob);
    await openQueue(b);
    await decide(b, bob, large.id, 'Approve');
    await expect(b.getByTestId('action-done')).toHaveText(`Withdrawal ${large.id} is approved and queued for payout.`);
    await decide(b, bob, own.id, 'Reject', 'Operators do not approve their own');
    await expect(b.getByTestId('action-done')).toHaveText(`Withdrawal ${own.id} is rejected; its amount is back in the user's position.`);

    // Both approved ones are paid on chain to the user's wallet: what arrives is the amount less its fee.
    for (const [w, amount] of [
      [small, SMALL],
      [large, LARGE],
    ] as const) {
      let paid: QueueItem | undefined;
      await expect
        .poll(async () => {
          paid = (await queue(user, `status=paid&currency=ETH&user=${w.userId}`)).find((x) => x.id === w.id);
          return paid?.status;
        }, { timeout: 60_000 })
        .toBe('paid');
      expect(BigInt(paid!.amount)).toBe(ETH(amount));
      const tx = await wallet.chain.getTransaction(paid!.transaction!);
      expect(tx?.to?.toLowerCase()).toBe(wallet.address.toLowerCase());
      expect(tx?.value).toBe(ETH(amount) - BigInt(paid!.fee));
    }
    expect((await queue(user, `user=${own.userId}&currency=ETH`)).find((x) => x.id === own.id)?.status).toBe('returned');

    // The user has no console: the route is the 404 page, and nothing of the console is fetched or called.
    const requests: string[] = [];
    user.on('request', (r) => requests.push(r.url()));
    await user.goto('/operator/withdrawals');
    await expect(user.getByRole('heading', { level: 1 })).toHaveText('This page could not be found');
    await user.goto('/operator');
    await expect(user.getByRole('heading', { level: 1 })).toHaveText('This page could not be found');
    const operatorOrigin = `:${ports['mf-operator']}/`;
    expect(requests.filter((u) => u.includes(operatorOrigin) || u.includes('/operator-api/'))).toEqual([]);
    // The console's calls do not open to the user's own session either.
    const token = ((await (await user.request.post('/api/v1/refresh')).json()) as { token: string }).token;
    expect((await user.request.get('/operator-api/withdrawals', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);

    // Alice looks the user up (read-only): the account, its withdrawals; the lookup itself is audited.
    await a.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Users' }).click();
    await a.getByLabel('E-mail, wallet address or account id').fill(login);
    await a.getByRole('button', { name: 'Look up' }).click();
    const found = a.getByTestId('user-found');
    await expect(found.getByRole('region', { name: 'Account', exact: true })).toContainText(small.userId);
    await expect(found.locator('section[aria-labelledby="u-withdrawals"] tbody tr')).toHaveCount(2);

    // The audit log, in alice's console: each step with its actor.
    await a.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Audit log' }).click();
    await a.getByLabel('Action (e.g. withdrawal.approve)').fill('withdrawal.approve');
    await a.getByRole('button', { name: 'Apply filters' }).click();
    const row = (actor: string, target: number) => a.locator(`[data-testid="audit-row"][data-actor="operator:${actor}"][data-target="${target}"]`);
    await expect(row('alice', small.id)).toHaveCount(1);
    await expect(row('alice', large.id)).toHaveCount(1);
    await expect(row('bob', large.id)).toHaveCount(1);
    // The refused ones left no approval behind.
    await expect(row('alice', own.id)).toHaveCount(0);
    await a.getByLabel('Action (e.g. withdrawal.approve)').fill('');
    await a.getByLabel('Operator (e.g. operator:alice)').fill('operator:bob');
    await a.getByRole('button', { name: 'Apply filters' }).click();
    await expect(a.locator('[data-testid="audit-row"]:not([data-actor="operator:bob"])')).toHaveCount(0);
    await expect(a.locator(`[data-testid="audit-row"][data-action="withdrawal.reject"][data-target="${own.id}"]`)).toHaveCount(1);
    await expect(a.locator('[data-testid="audit-row"][data-action="operator.sign-in"]').first()).toBeVisible();
    const exported = a.getByRole('link', { name: 'Export as CSV' });
    expect(decodeURIComponent((await exported.getAttribute('href'))!)).toContain(`"operator:bob","withdrawal.reject","${own.id}"`);
    await a.getByLabel('Operator (e.g. operator:alice)').fill('operator:alice');
    await a.getByLabel('Action (e.g. withdrawal.approve)').fill('user.lookup');
    await a.getByRole('button', { name: 'Apply filters' }).click();
    await expect(a.locator(`[data-testid="audit-row"][data-target="user:${small.userId}"]`)).toHaveCount(1);

    await a.getByRole('button', { name: 'Verify the chain' }).click();
    await expect(a.getByTestId('audit-verify')).toHaveText(/^The chain holds: \d+ entries, none missing or altered\.$/);
    const verify = operatorCli('bob', 'audit', 'verify');
    expect(verify.status, verify.out).toBe(0);
    expect(verify.out).toMatch(/audit log: OK \(\d+ entries, chain intact\)/);
  } finally {
    const reset = await operatorPost(await contexts[0]!.request, 'payouts', { currency: 'ETH', approvalThreshold: null, dualApprovalThreshold: null }, 'bob');
    expect(reset.status(), await reset.text()).toBe(200);
    for (const c of contexts) await c.close();
  }
});

/** A day `n` days from today (UTC), as a date field takes it. */
const dayFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

test('issue 26: a money settings change in two browsers: alice proposes with a preview, her own approval is refused, bob approves and it is in force; a second approval is refused', async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = localOperator('alice');
  const bob = localOperator('bob');
  const { contexts, open } = browsers(browser);
  // A far day, so that no other test's accrual reaches it; a rate of the test's own.
  const day = dayFromNow(300);
  try {
    const a = await open();
    await signInConsole(a, alice, '/operator/money');
    await expect(a.getByRole('heading', { level: 1 })).toHaveText('Money settings');
    const propose = a.locator('form.operator__propose');
    await propose.getByLabel('What changes').selectOption({ label: "A pool's APY from a future day" });
    await propose.getByLabel('Pool').selectOption('dex');
    await propose.getByLabel('New APY, in %').fill('9.75');
    await propose.getByLabel('In force from').fill(day);
    await propose.getByRole('button', { name: 'Preview' }).click();
    // The preview: from the rate the schedule has on that day to the new one, and when.
    const preview = a.getByTestId('change-preview');
    await expect(preview.getByRole('listitem')).toHaveText(/^APY of dex: \d+(\.\d+)?\u00a0% → 9\.75\u00a0%$/);
    await expect(preview).toContainText(`In force from ${day}`);
    await expectAccessibleInBothThemes(a);
    const confirm = a.locator('form.operator__confirm');
    await confirm.getByLabel('Code from your authenticator app').fill(totpOf(alice));
    await confirm.getByRole('button', { name: 'Propose' }).click();
    const proposed = a.getByTestId('action-done');
    await expect(proposed).toHaveText(/^Change \d+ is proposed: another operator must approve it\.$/);
    const id = Number(/Change (\d+)/.exec((await proposed.textContent())!)![1]);

    /** Opens the change's decision in the pending list and confirms it with the operator's code. */
    const decide = async (page: Page, op: LocalOperator, kind: 'Approve' | 'Reject') => {
      await page.locator(`[data-testid="setting-change"][data-id="${id}"]`).getByRole('button', { name: `${kind} change ${id}` }).click();
      const form = page.locator('form.operator__confirm');
      await form.getByLabel('Code from your authenticator app').fill(totpOf(op));
      await form.getByRole('button', { name: kind }).click();
      return form;
    };
    // Alice cannot approve her own proposal.
    const own = await decide(a, alice, 'Approve');
    await expect(own.getByRole('alert')).toHaveText('A second operator approves a change of the money settings: not the one who proposed it');
    await own.getByRole('button', { name: 'Cancel' }).click();
    const schedule = async () => {
      const res = await a.request.get(`${operatorApiURL}/api/v1/operator/apy?pool=dex`, { headers: operatorHeaders(bob, false) });
      expect(res.status(), await res.text()).toBe(200);
      return ((await res.json()) as { items: { effectiveFrom: string; apy: string; setBy: string }[] }).items.find((e) => e.effectiveFrom === day);
    };
    expect(await schedule()).toBeUndefined();

    // Bob, in another browser, approves it: it is in the schedule from its day, set by him.
    const b = await open();
    await signInConsole(b, bob, '/operator/money');
    await expect(b.locator(`[data-testid="setting-change"][data-id="${id}"]`)).toContainText('alice');
    // The pending change as a phone shows it: no sideways scrolling, accessible in both themes.
    await b.setViewportSize({ width: 390, height: 844 });
    // Once the layout has followed the new width (the tables turn into cards on resize).
    await expect.poll(() => b.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await expectAccessibleInBothThemes(b);
    await decide(b, bob, 'Approve');
    await expect(b.getByTestId('action-done')).toHaveText(`Change ${id} is approved and in force (an APY or a referral version from its day).`);
    await expect(b.locator(`[data-testid="setting-change"][data-id="${id}"]`)).toHaveCount(0);
    await expect(b.locator(`[data-testid="setting-change-decided"][data-id="${id}"]`)).toHaveAttribute('data-status', 'applied');
    await expect(b.locator('[data-testid="apy-row"]', { hasText: day })).toContainText('9.75');
    const entry = await schedule();
    expect(entry?.setBy).toBe('operator:bob');
    // numeric(24,18) keeps trailing zeros: the same figure.
    expect(entry?.apy.replace(/0+$/, '')).toBe('0.0975');

    // A second approval is refused; the audit log has each step with its actor.
    const again = await operatorPost(b.request, `setting-changes/${id}/approve`, {}, 'bob');
    expect(again.status()).toBe(409);
    const audit = await b.request.get(`${operatorApiURL}/api/v1/operator/audit?target=setting-change:${id}`, { headers: operatorHeaders(bob, false) });
    const steps = ((await audit.json()) as { items: { actor: string; action: string }[] }).items.map((i) => [i.actor, i.action]).reverse();
    expect(steps).toEqual([
      ['operator:alice', 'settings.propose'],
      ['operator:bob', 'settings.approve'],
    ]);
  } finally {
    for (const c of contexts) await c.close();
  }
});

test('issue 26: a referral programme version at 390 px: alice proposes it from a far day with a preview, her own approval is refused, bob approves it in Russian', async ({ browser }) => {
  test.setTimeout(180_000);
  const alice = localOperator('alice');
  const bob = localOperator('bob');
  const { contexts, open } = browsers(browser);
  // A far day that no other test's accrual reaches; only the vesting period changes, so the programme's cap holds whatever the levels are.
  const day = dayFromNow(301);
  const programme = async (page: Page) => {
    const res = await page.request.get(`${operatorApiURL}/api/v1/operator/referral`, { headers: operatorHeaders(bob, false) });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { history: { effectiveFrom: string; vestingDays: number; setBy: string }[] }).history;
  };
  try {
    const a = await open();
    await a.setViewportSize({ width: 390, height: 844 });
    await signInConsole(a, alice, '/operator/money');
    // The version in force on that day: the history is newest first (by day, then as made).
    const before = (await programme(a)).find((v) => v.effectiveFrom <= day)!;
    const vesting = before.vestingDays === 21 ? 22 : 21;
    const propose = a.locator('form.operator__propose');
    await propose.getByLabel('What changes').selectOption({ label: 'A referral programme version from a future day' });
    await propose.getByLabel('In force from').fill(day);
    await propose.getByLabel('Vesting, days').fill(String(vesting));
    await expectAccessibleInBothThemes(a);
    await propose.getByRole('button', { name: 'Preview' }).click();
    const preview = a.getByTestId('change-preview');
    await expect(preview.getByRole('listitem')).toHaveText(`Vesting, days: ${before.vestingDays} → ${vesting}`);
    await expect(preview).toContainText(`In force from ${day}`);
    const confirm = a.locator('form.operator__confirm');
    await confirm.getByLabel('Code from your authenticator app').fill(totpOf(alice));
    await confirm.getByRole('button', { name: 'Propose' }).click();
    const proposed = a.getByTestId('action-done');
    await expect(proposed).toHaveText(/^Change \d+ is proposed: another operator must approve it\.$/);
    const id = Number(/Change (\d+)/.exec((await proposed.textContent())!)![1]);
    const row = (page: Page) => page.locator(`[data-testid="setting-change"][data-id="${id}"]`);
    await row(a).getByRole('button', { name: `Approve change ${id}` }).click();
    const own = a.locator('form.operator__confirm');
    await own.getByLabel('Code from your authenticator app').fill(totpOf(alice));
    await own.getByRole('button', { name: 'Approve' }).click();
    await expect(own.getByRole('alert')).toHaveText('A second operator approves a change of the money settings: not the one who proposed it');
    expect((await programme(a)).some((v) => v.effectiveFrom === day && v.vestingDays === vesting)).toBe(false);

    // Bob, in Russian on a phone: the pending version reads in his language, and his approval applies it.
    const b = await open();
    await b.setViewportSize({ width: 390, height: 844 });
    await signInConsole(b, bob, '/ru/operator/money');
    await expect(row(b)).toContainText(`Вестинг, дней: ${before.vestingDays} → ${vesting}`);
    await expect(row(b)).toContainText(`Действует с ${day}`);
    await expect.poll(() => b.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await expectAccessibleInBothThemes(b);
    await row(b).getByRole('button', { name: `Одобрить изменение ${id}` }).click();
    const form = b.locator('form.operator__confirm');
    await form.getByLabel('Код из приложения-аутентификатора').fill(totpOf(bob));
    await form.getByRole('button', { name: 'Одобрить' }).click();
    await expect(b.getByTestId('action-done')).toHaveText(`Изменение ${id} одобрено и действует (доходность или версия реферальной программы — со своего дня).`);
    const added = (await programme(b)).find((v) => v.effectiveFrom === day && v.vestingDays === vesting);
    expect(added?.setBy).toBe('operator:bob');
  } finally {
    for (const c of contexts) await c.close();
  }
});

const SCREENS = [
  { path: '/operator', en: 'Overview', ru: 'Обзор' },
  { path: '/operator/withdrawals', en: 'Withdrawals', ru: 'Выводы' },
  { path: '/operator/audit', en: 'Audit log', ru: 'Журнал аудита' },
  { path: '/operator/users', en: 'Users', ru: 'Пользователи' },
  { path: '/operator/unclaimed', en: 'Unclaimed transfers', ru: 'Невостребованные переводы' },
  { path: '/operator/dao', en: 'DAO proposals', ru: 'Предложения DAO' },
  { path: '/operator/money', en: 'Money settings', ru: 'Денежные настройки' },
] as const;

test('issue 26: every console screen, and its sign-in, in English and Russian, light and dark, at 390 px: no sideways scrolling, keyboard, axe', async ({ page }) => {
  test.setTimeout(240_000);
  const alice = localOperator('alice');
  await page.setViewportSize({ width: 390, height: 844 });
  const site = await page.request.post('/api/v1/login', { data: { login: alice.email, password: alice.password } });
  expect(site.status(), await site.text()).toBe(200);
  for (const locale of ['en', 'ru'] as const) {
    const prefix = locale === 'ru' ? '/ru' : '';
    await page.context().clearCookies({ name: 'lang' });
    await page.goto(`${prefix}/operator`);
    // The sign-in form: labelled, reachable by keyboard, accessible.
    const name = page.getByLabel(locale === 'en' ? 'Operator name' : 'Имя оператора');
    await expect(name).toBeVisible();
    await expectAccessibleInBothThemes(page);
    await name.focus();
    await name.fill(alice.name);
    await page.keyboard.press('Tab');
    await page.keyboard.type(alice.password);
    await page.keyboard.press('Tab');
    await page.keyboard.type(await freshSignInCode(alice));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('operator-name')).toContainText(alice.name);
    for (const screen of SCREENS) {
      // Client-side, as an operator moves between screens: the console's session is the page's.
      await page.getByRole('navigation', { name: locale === 'en' ? 'Operator console' : 'Консоль оператора' }).getByRole('link', { name: screen[locale], exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${prefix}${screen.path}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen[locale]);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(sideways, `${locale} ${screen.path}`).toBeLessThanOrEqual(0);
      await expectAccessibleInBothThemes(page);
    }
    await page.getByRole('button', { name: locale === 'en' ? 'Sign out of the console' : 'Выйти из консоли' }).click();
    await expect(page.getByLabel(locale === 'en' ? 'Operator name' : 'Имя оператора')).toBeVisible();
  }
});
