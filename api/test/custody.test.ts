import { eq } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { mine, rpc } from '@app/chain';
import type { Db } from '../src/db/client';
import { operatorAudit, withdrawals } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { call } from './helpers';
import { providerFor, sendEth, sendToken, tokenContract, userWithWallet } from './deposit-helpers';
import { ETH, USDT, expectLedgerBalanced, moneyStack, operator, operatorHeaders, testOperator } from './money-helpers';
import { startTestSigner, type TestSigner } from './signer-helpers';

/**
 * Custody (issue 26): the API holds no payout key; the real signer (signer/src, on its loopback
 * port) signs each payout against the ledger's record, read by itself, or refuses. A refusal is
 * recorded on the withdrawal, audited, alerted and listed to the operator, and the payout is never
 * paid. Against anvil, with caps of the test's own.
 */
jest.setTimeout(120_000);
const CAPS = { ETH: { perTransaction: ETH, perDay: (3n * ETH) / 2n }, USDT: { perTransaction: 100n * USDT, perDay: 150n * USDT } };
const env: Record<string, string> = { PAYOUT_CONFIRMATIONS: '1', PAYOUT_REBROADCAST_SECONDS: '1' };
const holder: { db?: Db } = {};
let signer: TestSigner;
beforeAll(async () => {
  signer = await startTestSigner(() => holder.db!, { caps: CAPS });
  env.SIGNER_URL = signer.url;
});
const stack = moneyStack(env);
beforeAll(() => {
  holder.db = stack.t.app.services.db;
});
afterAll(async () => signer?.close());

type Json = Record<string, unknown>;
const db = () => stack.t.app.services.db;
const balanceOf = async (address: string) => BigInt(await rpc<string>(stack.chain.rpcUrl, 'eth_getBalance', [address, 'latest']));
const usdtOf = async (address: string) => (await tokenContract(new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl)), 'USDT').getFunction('balanceOf')(address)) as bigint;
const rowOf = async (id: unknown) => (await db().select().from(withdrawals).where(eq(withdrawals.id, id as number)))[0]!;
const withdraw = async (token: string, body: Json) => {
  const r = await call(stack.t.app, 'POST', '/api/v1/dashboard/withdraw', { token, body });
  expect(r.status).toBe(200);
  return r.body.id as number;
};
async function payAll() {
  for (let i = 0; i < 6; i++) {
    await stack.t.app.services.payouts.run();
    await mine(stack.chain.rpcUrl, 1);
  }
}

/** A new investor with `eth` in the coin pool and `usdt` in the stable pool. */
async function investor(eth: bigint, usdt: bigint) {
  const wallet = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
  await stack.chain.fund(wallet.address, { eth: '10', tokens: { USDT: '1000' } });
  const u = await userWithWallet(stack.t.app, wallet);
  const deposits: [string, string, bigint, string][] = [];
  if (eth) deposits.push(['coin', 'ETH', eth, await sendEth(wallet, LOCAL_POOL_ADDRESSES.coin, eth)]);
  if (usdt) deposits.push(['stable', 'USDT', usdt, await sendToken(wallet, 'USDT', LOCAL_POOL_ADDRESSES.stable, usdt)]);
  for (const [pool, currency, amount, transaction] of deposits) {
    expect((await call(stack.t.app, 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool, currency, amount: String(amount), transaction } })).status).toBe(200);
  }
  await stack.t.app.services.depositJob.tick();
  return { ...u, wallet };
}

/** What the operator is shown of a refused payout: the alert, the withdrawals listing and the audit log. */
async function expectShownToOperator(id: number, reason: string) {
  const alerts = await operator(stack.t.app, 'alerts');
  expect(alerts.out).toContain(`payout-refused:${id}`);
  const listed = await call(stack.t.app, 'GET', '/api/v1/operator/withdrawals?status=requested', { headers: operatorHeaders(await testOperator(stack.t.app), 'GET') });
  expect((listed.body.items as Json[]).find((w) => w.id === id)).toMatchObject({ status: 'requested', signerRefusal: reason, signerRefusedAt: expect.any(String) });
  const audited = await db().select().from(operatorAudit).where(eq(operatorAudit.target, String(id)));
  expect(audited.filter((a) => a.action === 'withdrawal.signer-refused').map((a) => [a.actor, a.after])).toEqual([['signer', { reason }]]);
  // The signer's own log has the refusal too, once: a refused payout is not asked for again.
  expect(signer.log().filter((e) => e.event === 'refused' && e.detail.withdrawalId === id).map((e) => e.detail.reason)).toEqual([reason]);
}

describe('issue 26: the signer signs only what the ledger recorded; a refusal is shown and never paid', () => {
  it("issue 26: the signer refuses a destination that is not the account's linked wallet; the payout is never paid, and the next one is", async () => {
    const u = await investor(2n * ETH, 0n);
    const id = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 2n) });
    // A compromised API rewrites where the payout goes.
    const attacker = Wallet.createRandom().address.toLowerCase();
    await db().update(withdrawals).set({ toAddress: attacker }).where(eq(withdrawals.id, id));
    const walletBefore = await balanceOf(u.wallet.address);
    await payAll();
    const reason = `${attacker} is not the account's linked wallet nor a declared address`;
    expect(await rowOf(id)).toMatchObject({ status: 'requested', signerRefusal: reason, nonce: null, signedTx: null, txHash: null, paidAt: null });
    expect([await balanceOf(attacker), await balanceOf(u.wallet.address)]).toEqual([0n, walletBefore]);
    await expectShownToOperator(id, reason);
    await payAll();
    expect((await rowOf(id)).status).toBe('requested');
    // The operator cancels it: the amount is back in the position.
    expect(await operator(stack.t.app, 'withdrawals', 'cancel', String(id))).toMatchObject({ code: 0 });
    expect((await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token })).body.deposited).toEqual({ ETH: String(2n * ETH) });
    // The nonce the refused payout held was given back: the next payout from the float is not stuck behind it.
    const next = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 4n) });
    await payAll();
    expect(await rowOf(next)).toMatchObject({ status: 'paid' });
    expect(await balanceOf(u.wallet.address)).toBe(walletBefore + ETH / 4n);
    await expectLedgerBalanced(stack.t.app);
  });

  it('issue 26: the signer refuses an amount over its per-transaction cap, and one that passes the day\'s cap; neither is paid', async () => {
    const u = await investor(0n, 300n * USDT);
    const before = await usdtOf(u.wallet.address);
    const over = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(120n * USDT) });
    await payAll();
    const perTx = `${120n * USDT} USDT is over the per-transaction cap of ${100n * USDT}`;
    expect(await rowOf(over)).toMatchObject({ status: 'requested', signerRefusal: perTx, paidAt: null });
    await expectShownToOperator(over, perTx);
    // 100 of the day's 150 are paid; 60 more would make 160.
    const ok = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(100n * USDT) });
    await payAll();
    expect((await rowOf(ok)).status).toBe('paid');
    const tooMuch = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(60n * USDT) });
    await payAll();
    const perDay = `USDT paid today would pass the daily cap of ${150n * USDT}`;
    expect(await rowOf(tooMuch)).toMatchObject({ status: 'requested', signerRefusal: perDay, paidAt: null });
    await expectShownToOperator(tooMuch, perDay);
    expect(await usdtOf(u.wallet.address)).toBe(before + 100n * USDT);
    await expectLedgerBalanced(stack.t.app);
  });

  it('issue 26: the signer refuses a request whose ledger record does not match (a compromised API asks for more than recorded); it is never paid', async () => {
    const u = await investor(ETH, 0n);
    const id = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 10n) });
    const client = stack.t.app.services.signer!;
    const real = client.sign.bind(client);
    client.sign = (what, tx) => real(what, { ...tx, value: tx.value * 2n });
    const walletBefore = await balanceOf(u.wallet.address);
    try {
      await payAll();
    } finally {
      client.sign = real;
    }
    const reason = `payout ${id} pays ${ETH / 10n}, not ${ETH / 5n}`;
    expect(await rowOf(id)).toMatchObject({ status: 'requested', signerRefusal: reason, signedTx: null, paidAt: null });
    await expectShownToOperator(id, reason);
    await payAll();
    expect((await rowOf(id)).status).toBe('requested');
    expect(await balanceOf(u.wallet.address)).toBe(walletBefore);
    await expectLedgerBalanced(stack.t.app);
  });
});
