import { eq, sql } from 'drizzle-orm';
import { mine } from '@app/chain';
import { users } from '../src/db/schema';
import { rows } from '../src/db/rows';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { mailMoney } from '../src/mail';
import { call, lastMail } from './helpers';
import { devWallet, sendEth, userWithWallet } from './deposit-helpers';
import { ETH, expectLedgerBalanced, moneyStack, operator } from './money-helpers';

/**
 * Issue 27, finding 11: mail when money moves, in the user's language, read from the mail catcher:
 * a deposit credited, a withdrawal paid (with its explorer link), returned (with the reason) or
 * held, each once however often its job runs, and each switchable off in the settings.
 * (A paid referral claim: api/test/referral.test.ts.)
 */
jest.setTimeout(120_000);
const stack = moneyStack({ PAYOUT_CONFIRMATIONS: '1' });
const app = () => stack.t.app;

async function payAll() {
  for (let i = 0; i < 8; i++) {
    const r = await app().services.payouts.run();
    if (!r.signed && !r.broadcast && !r.waiting) return;
    await mine(stack.chain.rpcUrl, 1);
  }
}
const kinds = async (email: string, kind: string) => (await stack.t.mail.mailsTo(email)).filter((m) => m.headers?.['x-mail-kind'] === kind);
const withdraw = (token: string, amount: bigint) => call(app(), 'POST', '/api/v1/dashboard/withdraw', { token, body: { pool: 'coin', currency: 'ETH', amount: String(amount) } });
const prefs = (token: string, body?: Record<string, unknown>) => call(app(), body ? 'PUT' : 'GET', '/api/v1/settings/mail', { token, ...(body ? { body } : {}) });

let u: Awaited<ReturnType<typeof userWithWallet>>;
async function depositEth(amount: bigint) {
  const transaction = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, amount);
  const r = await call(app(), 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(amount), transaction } });
  expect(r.status).toBe(200);
  // Twice: a job that runs again (or on a second replica) credits and mails nothing more.
  await app().services.depositJob.tick();
  await app().services.depositJob.tick();
  return transaction;
}

describe('mail when money moves', () => {
  it("finding 11: a credited deposit is mailed once, in the user's language", async () => {
    u = await userWithWallet(app(), devWallet(stack.chain.rpcUrl, 3));
    await app().services.db.update(users).set({ lang: 'ru' }).where(eq(users.id, u.id));
    await depositEth(2n * ETH);
    const mail = await lastMail(app(), u.email, 'deposit-credited');
    expect(mail).toMatchObject({ lang: 'ru', subject: expect.stringContaining('депозит зачислен') });
    expect(mail!.text).toContain('Ваш депозит 2.0 ETH в пул coin зачислен');
    expect(mail!.text).toContain('/ru/cabinet/settings');
    expect(await kinds(u.email, 'deposit-credited')).toHaveLength(1);
    // The same event queued again (a job that crashed after the commit and ran again) is still one mail.
    const [d] = await rows<{ id: number }>(app().services.db, sql`select id from deposits where user_id = ${u.id}`);
    await mailMoney(app().services.db, app().services.returnNotice, { userId: u.id, kind: 'deposit-credited', event: `deposit-credited:${d!.id}`, amount: 2n * ETH, currency: 'ETH', pool: 'coin', page: '/cabinet/dashboard' });
    await lastMail(app(), u.email);
    expect(await kinds(u.email, 'deposit-credited')).toHaveLength(1);
    await expectLedgerBalanced(app());
  });

  it('finding 11: a paid withdrawal is mailed once, with what arrived and its transaction on the explorer', async () => {
    await app().services.db.update(users).set({ lang: 'en' }).where(eq(users.id, u.id));
    const fee = 1_000_000_000n;
    expect(await operator(app(), 'payouts', 'set', 'ETH', '--fee', String(fee))).toMatchObject({ code: 0 });
    expect((await withdraw(u.token, ETH / 4n)).status).toBe(200);
    await payAll();
    await payAll();
    const [w] = (await call(app(), 'GET', '/api/v1/dashboard/withdrawals', { token: u.token })).body.items as { status: string; transaction: string }[];
    expect(w!.status).toBe('paid');
    const mail = await lastMail(app(), u.email, 'withdrawal-paid');
    // 0.25 ETH less the fee of 10^9 wei: 0.249999999 ETH.
    expect(mail!.text).toContain('Your withdrawal of 0.249999999 ETH from the coin pool is paid to your wallet.');
    expect(mail!.text).toContain(`https://etherscan.io/tx/${w!.transaction}`);
    expect(await kinds(u.email, 'withdrawal-paid')).toHaveLength(1);
    await operator(app(), 'payouts', 'set', 'ETH', '--fee', '0');
  });

  it('finding 11: a returned withdrawal is mailed with its reason in words; switched off, it is not', async () => {
    expect(await operator(app(), 'payouts', 'set', 'ETH', '--threshold', String(ETH / 10n))).toMatchObject({ code: 0 });
    const first = await withdraw(u.token, ETH / 5n);
    expect(first.body).toMatchObject({ status: 'awaiting_approval' });
    expect(await operator(app(), 'withdrawals', 'reject', String(first.body.id), '--reason', 'checks')).toMatchObject({ code: 0 });
    const mail = await lastMail(app(), u.email, 'withdrawal-returned');
    expect(mail!.text).toContain('Your withdrawal of 0.2 ETH from the coin pool was not paid: the operator declined it.');

    expect((await prefs(u.token, { withdrawalReturned: false })).body).toEqual({ depositCredited: true, withdrawalPaid: true, withdrawalReturned: false, claimPaid: true, withdrawalHeld: true });
    const second = await withdraw(u.token, ETH / 5n);
    expect(await operator(app(), 'withdrawals', 'reject', String(second.body.id), '--reason', 'checks')).toMatchObject({ code: 0 });
    await lastMail(app(), u.email);
    expect(await kinds(u.email, 'withdrawal-returned')).toHaveLength(1);
    await operator(app(), 'payouts', 'set', 'ETH', '--threshold', 'none');
  });

  it('finding 11: a withdrawal held after a change of a credential is mailed with the end of the hold', async () => {
    const until = new Date(Date.now() + 24 * 3600_000);
    await app().services.db.update(users).set({ withdrawalsHeldUntil: until }).where(eq(users.id, u.id));
    app().services.sessions.forgetUser(u.id);
    const r = await withdraw(u.token, ETH / 10n);
    expect(r.status).toBe(200);
    const mail = await lastMail(app(), u.email, 'withdrawal-held');
    const utc = `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    expect(mail!.subject).toContain(utc);
    expect(mail!.text).toContain(`Your withdrawal of 0.1 ETH from the coin pool is requested.`);
    expect(mail!.text).toContain(`it waits until ${utc} before it is sent`);
  });

  it('finding 11: the settings switch each mail about money; a switched-off deposit mail is not sent; bad input is a 400', async () => {
    const v = await userWithWallet(app(), devWallet(stack.chain.rpcUrl, 4));
    expect((await prefs(v.token)).body).toEqual({ depositCredited: true, withdrawalPaid: true, withdrawalReturned: true, claimPaid: true, withdrawalHeld: true });
    const bad = await prefs(v.token, { depositCredited: 'no' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields as object)).toEqual(['depositCredited']);
    expect((await prefs(v.token, { depositCredited: false })).body).toMatchObject({ depositCredited: false, withdrawalPaid: true });
    expect((await prefs(v.token)).body).toMatchObject({ depositCredited: false });
    u = v;
    await depositEth(ETH);
    await lastMail(app(), v.email);
    expect(await kinds(v.email, 'deposit-credited')).toHaveLength(0);
  });
});
