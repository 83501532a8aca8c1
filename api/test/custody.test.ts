import { eq, sql } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { HOT_WALLET_GAS, LOCAL_COLD, LOCAL_FLOAT, mine, rpc } from '@app/chain';
import type { Db } from '../src/db/client';
import { floatRefills, operatorAudit, sweeps, withdrawals } from '../src/db/schema';
import { reconcile } from '../src/ledger';
import { rows } from '../src/db/rows';
import { runOperator } from '../src/operator/cli';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { call } from './helpers';
import { providerFor, sendEth, sendToken, tokenContract, userWithWallet } from './deposit-helpers';
import { ETH, USDT, expectLedgerBalanced, moneyStack, operator, operatorHeaders, runCommand, testOperator } from './money-helpers';
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

/** Everything this file deposited, per pool address and currency: what the books hold there before any sweep. */
const deposited = new Map<string, bigint>();
const tally = (address: string, currency: string, amount: bigint) => deposited.set(`${address}:${currency}`, (deposited.get(`${address}:${currency}`) ?? 0n) + amount);

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
    tally(LOCAL_POOL_ADDRESSES[pool as 'coin' | 'stable'], currency, amount);
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
  expect(audited.filter((a) => a.action === 'withdrawal.signer-refused').map((a) => [a.actor, a.after])).toEqual([['signer', expect.objectContaining({ reason })]]);
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
    expect(await rowOf(over)).toMatchObject({ status: 'requested', signerRefusal: perTx, signerRetryAt: null, paidAt: null });
    await expectShownToOperator(over, perTx);
    // 100 of the day's 150 are paid; 60 more would make 160.
    const ok = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(100n * USDT) });
    await payAll();
    expect((await rowOf(ok)).status).toBe('paid');
    const tooMuch = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(60n * USDT) });
    await payAll();
    const perDay = `USDT paid today would pass the daily cap of ${150n * USDT}`;
    // The day's cap passes with the day: asked again from the next UTC midnight, not before.
    const midnight = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`).getTime() + 86_400_000;
    expect(await rowOf(tooMuch)).toMatchObject({ status: 'requested', signerRefusal: perDay, signerRetryAt: new Date(midnight), paidAt: null });
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

describe('issue 26: deposit addresses are swept to cold by the signer; the float is refilled with four eyes', () => {
  const coin = LOCAL_POOL_ADDRESSES.coin;
  const stable = LOCAL_POOL_ADDRESSES.stable;
  const usdtAt = usdtOf;
  const gasOf = async (hash: string) => {
    const r = await rpc<{ gasUsed: string; effectiveGasPrice: string }>(stack.chain.rpcUrl, 'eth_getTransactionReceipt', [hash]);
    return BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
  };
  const sweepAll = async () => {
    const r = await stack.t.app.services.sweeps.run();
    await mine(stack.chain.rpcUrl, 1);
    await stack.t.app.services.sweeps.run();
    return r;
  };

  it('issue 26: a sweep moves the deposit addresses\' booked funds to cold, once (two runs at once open one), and the reconciliation shows each address correctly', async () => {
    const before = { coinEth: await balanceOf(coin), stableUsdt: await usdtAt(stable), stableEth: await balanceOf(stable), coldEth: await balanceOf(LOCAL_COLD), coldUsdt: await usdtAt(LOCAL_COLD) };
    const eth = deposited.get(`${coin}:ETH`)!;
    const usdt = deposited.get(`${stable}:USDT`)!;
    // Two runs at once, as on two replicas: one transfer per address and currency.
    const [a, b] = await Promise.all([stack.t.app.services.sweeps.run(), stack.t.app.services.sweeps.run()]);
    expect(a.opened + b.opened).toBe(2);
    await mine(stack.chain.rpcUrl, 1);
    await stack.t.app.services.sweeps.run();
    const done = await db().select().from(sweeps).where(eq(sweeps.kind, 'sweep'));
    expect(done.map((s) => [s.fromAddress, s.toAddress, s.currency, BigInt(s.amount), s.status]).sort()).toEqual(
      [
        [coin, LOCAL_COLD, 'ETH', eth, 'done'],
        [stable, LOCAL_COLD, 'USDT', usdt, 'done'],
      ].sort(),
    );
    const gasCoin = await gasOf(done.find((s) => s.currency === 'ETH')!.txHash!);
    const gasStable = await gasOf(done.find((s) => s.currency === 'USDT')!.txHash!);
    // On chain: exactly the booked deposits moved; each deposit address paid its own gas.
    expect([await balanceOf(LOCAL_COLD), await usdtAt(LOCAL_COLD)]).toEqual([before.coldEth + eth, before.coldUsdt + usdt]);
    expect([await balanceOf(coin), await usdtAt(stable), await balanceOf(stable)]).toEqual([before.coinEth - eth - gasCoin, before.stableUsdt - usdt, before.stableEth - gasStable]);
    // A second sweep finds nothing booked to move.
    expect(await sweepAll()).toMatchObject({ opened: 0, refused: 0 });

    // The reconciliation: every address's chain balance against its books. The deposit addresses
    // keep only their start-up gas money off the books; cold holds on the books exactly what was swept.
    const rows = await reconcile(db(), stack.t.app.services.chain, 1);
    const row = (address: string, currency: string) => rows.find((r) => r.address === address && r.currency === currency)!;
    expect(row(coin, 'ETH')).toMatchObject({ onChain: String(await balanceOf(coin)), books: String(-gasCoin), difference: String(HOT_WALLET_GAS), covered: true });
    expect(row(stable, 'USDT')).toMatchObject({ onChain: '0', books: '0', difference: '0', covered: true });
    expect(row(LOCAL_COLD, 'ETH')).toMatchObject({ onChain: String(before.coldEth + eth), books: String(eth), difference: String(before.coldEth) });
    expect(row(LOCAL_COLD, 'USDT')).toMatchObject({ onChain: String(before.coldUsdt + usdt), books: String(usdt), difference: String(before.coldUsdt) });
    const float = row(LOCAL_FLOAT, 'ETH');
    expect(float.onChain).toBe(String(await balanceOf(LOCAL_FLOAT)));
    expect(BigInt(float.difference!)).toBe(BigInt(float.onChain!) - BigInt(float.books));
    // Swept money still covers what the pool owes: the treasury sends nothing back.
    expect(await stack.t.app.services.treasury.run()).toMatchObject({ funded: 0 });
    await expectLedgerBalanced(stack.t.app);
  });

  it('issue 26: the float is refilled from a deposit address only with four eyes: the asker cannot approve, a second operator can; the signer sends it and it is booked', async () => {
    await investor(ETH / 2n, 0n);
    const asker = await testOperator(stack.t.app, 'tess');
    const second = await testOperator(stack.t.app, 'bob');
    const amount = (2n * ETH) / 5n;
    const asked = await operator(stack.t.app, 'custody', 'refill', 'coin', 'ETH', String(amount));
    expect(asked.code).toBe(0);
    const [refill] = await db().select().from(floatRefills).orderBy(floatRefills.id);
    expect(refill).toMatchObject({ status: 'awaiting_approval', fromAddress: coin, amount: String(amount), requestedBy: asker.id });
    const own = await operator(stack.t.app, 'custody', 'approve', String(refill!.id));
    expect(own).toMatchObject({ code: 2, out: expect.stringContaining('A second operator approves a refill') });
    const approved = await runCommand(stack.t.app, runOperator, ['custody', 'approve', String(refill!.id)], second);
    expect(approved).toMatchObject({ code: 0, out: `refill ${refill!.id}: approved` });
    const floatBefore = await balanceOf(LOCAL_FLOAT);
    await sweepAll();
    const [sent] = await db().select().from(sweeps).where(eq(sweeps.refillId, refill!.id));
    expect(sent).toMatchObject({ kind: 'refill', toAddress: LOCAL_FLOAT, amount: String(amount), status: 'done' });
    expect(await balanceOf(LOCAL_FLOAT)).toBe(floatBefore + amount);
    expect((await db().select().from(floatRefills).where(eq(floatRefills.id, refill!.id)))[0]).toMatchObject({ status: 'done', approvedBy: second.id });
    // A compromised API marks a refill approved without a second operator: the signer refuses it.
    await operator(stack.t.app, 'custody', 'refill', 'coin', 'ETH', String(ETH / 20n));
    const [forged] = await db().select().from(floatRefills).where(eq(floatRefills.status, 'awaiting_approval'));
    await db().update(floatRefills).set({ status: 'approved' }).where(eq(floatRefills.id, forged!.id));
    const floatNow = await balanceOf(LOCAL_FLOAT);
    expect(await stack.t.app.services.sweeps.run()).toMatchObject({ refused: 1 });
    expect((await db().select().from(floatRefills).where(eq(floatRefills.id, forged!.id)))[0]).toMatchObject({ status: 'refused' });
    expect((await operator(stack.t.app, 'alerts')).out).toContain('sweep-refused:');
    expect(signer.log().some((e) => e.event === 'refused' && e.detail.refillId === forged!.id && e.detail.reason === `refill ${forged!.id} is not approved by a second operator`)).toBe(true);
    await mine(stack.chain.rpcUrl, 1);
    expect(await balanceOf(LOCAL_FLOAT)).toBe(floatNow);
    await expectLedgerBalanced(stack.t.app);
  });

  it('issue 26: a sweep cut off between taking its nonce and being signed (a crash, or the signer unreachable) is signed at that nonce by the next run, and booked once', async () => {
    await investor((3n * ETH) / 10n, 0n);
    const client = stack.t.app.services.signer!;
    const real = client.sign.bind(client);
    client.sign = () => Promise.reject(new Error('the process died here'));
    try {
      await expect(stack.t.app.services.sweeps.run()).rejects.toThrow('the process died here');
    } finally {
      client.sign = real;
    }
    // What the books hold at the address: everything deposited there, less what left it on chain (value and gas).
    let held = deposited.get(`${coin}:ETH`)!;
    for (const t of await db().select().from(sweeps).where(eq(sweeps.fromAddress, coin))) {
      if (t.status !== 'done') continue;
      const tx = await rpc<{ value: string }>(stack.chain.rpcUrl, 'eth_getTransactionByHash', [t.txHash]);
      held -= BigInt(tx.value) + (await gasOf(t.txHash!));
    }
    const [left] = await db().select().from(sweeps).where(eq(sweeps.status, 'signing'));
    expect(left).toMatchObject({ fromAddress: coin, currency: 'ETH', amount: String(held), signedTx: null });
    const coldBefore = await balanceOf(LOCAL_COLD);
    await sweepAll();
    await sweepAll();
    const [done] = await db().select().from(sweeps).where(eq(sweeps.id, left!.id));
    expect(done).toMatchObject({ status: 'done', nonce: left!.nonce });
    expect(await balanceOf(LOCAL_COLD)).toBe(coldBefore + held);
    const booked = await rows(db(), sql`select count(*)::int as n from ledger_transactions where reference = ${`custody:${left!.id}:moved`}`);
    expect(booked).toEqual([{ n: 1 }]);
    await expectLedgerBalanced(stack.t.app);
  });
});

