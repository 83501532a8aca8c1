import { eq, sql } from 'drizzle-orm';
import { Transaction, Wallet } from 'ethers';
import { apiMessages as M, apiMessagesRu as Ru, formatMessage } from '@app/contracts';
import { decimalsOf } from '@app/web3';
import { LOCAL_FLOAT, mine, rpc } from '@app/chain';
import { localKeys } from '@app/signer';
import { buildServer } from '../src/app';
import { systemSettings, users, withdrawals } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { GAS_CAP } from '../src/payouts/chain-tx';
import { reconcile } from '../src/ledger';
import { call, lastMail } from './helpers';
import { devWallet, providerFor, sendEth, sendToken, tokenContract, userWithWallet } from './deposit-helpers';
import { ETH, USDT, expectLedgerBalanced, moneyStack, operator } from './money-helpers';

/**
 * Withdrawals paid on chain by the payout job, against a real anvil. Jobs run only when a test runs
 * them; automine is switched off where a test needs a payout to wait in the mempool.
 */
jest.setTimeout(120_000);
const stack = moneyStack({ PAYOUT_CONFIRMATIONS: '2', PAYOUT_REBROADCAST_SECONDS: '1' });
type Json = Record<string, unknown>;

const payouts = (app = stack.t.app) => app.services.payouts.run();
/** Runs the payout job and mines until nothing is left in flight. */
async function payAll(app = stack.t.app) {
  for (let i = 0; i < 8; i++) {
    const r = await payouts(app);
    if (!r.signed && !r.broadcast && !r.waiting) return;
    await mine(stack.chain.rpcUrl, 1);
  }
}
const balanceOf = async (address: string) => BigInt(await rpc<string>(stack.chain.rpcUrl, 'eth_getBalance', [address, 'latest']));
const usdtOf = async (address: string) => (await tokenContract(devWallet(stack.chain.rpcUrl, 0), 'USDT').getFunction('balanceOf')(address)) as bigint;
const withdraw = (token: string, body: Json) => call(stack.t.app, 'POST', '/api/v1/dashboard/withdraw', { token, body });
const list = async (token: string) => (await call(stack.t.app, 'GET', '/api/v1/dashboard/withdrawals', { token })).body.items as Json[];

/** An investor with a dev wallet (by index), or a new wallet funded for the test (null). */
async function investor(index: number | null, eth: bigint, usdt: bigint) {
  let wallet = index === null ? null : devWallet(stack.chain.rpcUrl, index);
  if (!wallet) {
    wallet = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
    await stack.chain.fund(wallet.address, { eth: '10', tokens: { USDT: '1000' } });
  }
  const u = await userWithWallet(stack.t.app, wallet);
  const deposits: [string, string, bigint, string][] = [];
  if (eth) deposits.push(['coin', 'ETH', eth, await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, eth)]);
  if (usdt) deposits.push(['stable', 'USDT', usdt, await sendToken(u.wallet, 'USDT', LOCAL_POOL_ADDRESSES.stable, usdt)]);
  return credited(u, deposits);
}

/** A new wallet with gas and `tokens` (whole units) and an account that deposits them all into the coin pool. */
async function freshInvestor(tokens: Partial<Record<'WAVES', bigint>>) {
  const wallet = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
  await stack.chain.fund(wallet.address, { eth: '1', tokens: Object.fromEntries(Object.entries(tokens).map(([c, whole]) => [c, String(whole)])) });
  const u = await userWithWallet(stack.t.app, wallet);
  const deposits: [string, string, bigint, string][] = [];
  for (const [currency, whole] of Object.entries(tokens) as ['WAVES', bigint][]) {
    const amount = whole * 10n ** BigInt(decimalsOf(currency, 1)!);
    deposits.push(['coin', currency, amount, await sendToken(wallet, currency, LOCAL_POOL_ADDRESSES.coin, amount)]);
  }
  return credited(u, deposits);
}

async function credited<U extends { token: string }>(u: U, deposits: [string, string, bigint, string][]) {
  for (const [pool, currency, amount, transaction] of deposits) {
    const r = await call(stack.t.app, 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool, currency, amount: String(amount), transaction } });
    expect(r.status).toBe(200);
  }
  await stack.t.app.services.depositJob.tick();
  await expectLedgerBalanced(stack.t.app);
  return u;
}

describe('withdrawals paid on chain', () => {
  it('a payout lands on chain: the wallet rises by exactly the amount, the withdrawal is paid with its hash', async () => {
    const u = await investor(4, 2n * ETH, 0n);
    const quote = await call(stack.t.app, 'GET', `/api/v1/dashboard/withdraw/quote?pool=coin&currency=ETH&amount=${ETH / 2n}`, { token: u.token });
    expect(quote.body).toEqual({ fee: '0', receive: String(ETH / 2n), approvalRequired: false });
    const before = await balanceOf(u.wallet.address);
    const r = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 2n) });
    expect(r.body).toMatchObject({ message: M.withdrawalSent, status: 'requested' });
    // Reserved at once: the position shows the rest.
    expect((await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token })).body.deposited).toEqual({ ETH: String((3n * ETH) / 2n) });
    await expectLedgerBalanced(stack.t.app);
    await payAll();
    const [w] = await list(u.token);
    expect(w).toMatchObject({ status: 'paid', amount: String(ETH / 2n), fee: '0', receive: String(ETH / 2n), transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await balanceOf(u.wallet.address)).toBe(before + ETH / 2n);
    const receipt = await providerFor(stack.chain.rpcUrl).getTransactionReceipt(w!.transaction as string);
    expect(receipt?.status).toBe(1);
    await expectLedgerBalanced(stack.t.app);
  });

  it('a fee set by the operator is shown before the request and kept by the house; the token lands exactly', async () => {
    const u = await investor(5, 0n, 100n * USDT);
    expect(await operator(stack.t.app, 'payouts', 'set', 'USDT', '--fee', String(USDT))).toMatchObject({ code: 0 });
    const quote = await call(stack.t.app, 'GET', `/api/v1/dashboard/withdraw/quote?pool=stable&currency=USDT&amount=${40n * USDT}`, { token: u.token });
    expect(quote.body).toEqual({ fee: String(USDT), receive: String(39n * USDT), approvalRequired: false });
    const tooSmall = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(USDT) });
    expect([tooSmall.status, tooSmall.body.code]).toEqual([400, 'FEE_TOO_HIGH']);
    const before = await usdtOf(u.wallet.address);
    await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(40n * USDT) });
    await payAll();
    expect(await usdtOf(u.wallet.address)).toBe(before + 39n * USDT);
    const check = await expectLedgerBalanced(stack.t.app);
    expect(check.currencies.find((c) => c.currency === 'USDT')?.house).toBe(String(USDT));
    await operator(stack.t.app, 'payouts', 'set', 'USDT', '--fee', '0');
  });

  it('above the threshold a withdrawal waits for the operator: approved ones are paid, rejected ones return to the balance', async () => {
    const u = await investor(6, 3n * ETH, 0n);
    await stack.t.app.services.db.update(users).set({ lang: 'ru' }).where(eq(users.id, u.id));
    await operator(stack.t.app, 'payouts', 'set', 'ETH', '--threshold', String(ETH));
    const big = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(2n * ETH) });
    expect(big.body).toMatchObject({ status: 'awaiting_approval', message: M.withdrawalAwaitingApproval });
    await payAll();
    expect((await list(u.token))[0]).toMatchObject({ status: 'awaiting_approval' });
    const other = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String((3n * ETH) / 2n) });
    expect(other.status).toBe(400); // 2 ETH of 3 are reserved
    expect(await operator(stack.t.app, 'withdrawals', 'reject', String(big.body.id), '--reason', 'checks')).toMatchObject({ code: 0 });
    expect((await list(u.token))[0]).toMatchObject({ status: 'returned', reason: M.withdrawalRejected });
    // The user reads it in Russian, the language of the account.
    const mail = await lastMail(stack.t.app, u.email, 'withdrawal-returned');
    expect(mail).toMatchObject({ lang: 'ru', subject: expect.stringContaining('вывод средств возвращён') });
    expect(mail!.text).toContain('Ваш вывод 2.0 ETH из пула coin не выплачен: оператор отклонил его.');
    expect((await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token })).body.deposited).toEqual({ ETH: String(3n * ETH) });
    const again = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(2n * ETH) });
    expect(await operator(stack.t.app, 'withdrawals', 'approve', String(again.body.id))).toMatchObject({ code: 0 });
    expect(await operator(stack.t.app, 'withdrawals', 'approve', String(again.body.id))).toMatchObject({ code: 2, out: expect.stringMatching(/not awaiting approval/) });
    expect(await operator(stack.t.app, 'withdrawals', 'approve', 'x1')).toMatchObject({ code: 2, out: "wrong id 'x1': expected a positive whole number" });
    await payAll();
    expect((await list(u.token))[0]).toMatchObject({ status: 'paid' });
    await operator(stack.t.app, 'payouts', 'set', 'ETH', '--threshold', 'none');
    await expectLedgerBalanced(stack.t.app);
  });

  it('20 parallel withdrawals of a whole balance: one succeeds', async () => {
    const u = await investor(7, ETH, 0n);
    const answers = await Promise.all(Array.from({ length: 20 }, () => withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH) })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.body.code === 'AMOUNT_TOO_LARGE')).toHaveLength(19);
    expect(await list(u.token)).toHaveLength(1);
    await expectLedgerBalanced(stack.t.app);
    await payAll();
  });

  it('a restart between broadcast and confirmation pays once; a dropped payout is sent again with the same nonce', async () => {
    const u = await investor(8, 2n * ETH, 0n);
    const before = await balanceOf(u.wallet.address);
    await rpc(stack.chain.rpcUrl, 'evm_setAutomine', [false]);
    try {
      await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 4n) });
      await payouts(); // signed, stored, broadcast; not mined
      const [row] = await stack.t.app.services.db.select().from(withdrawals).where(eq(withdrawals.userId, u.id));
      expect(row).toMatchObject({ status: 'sending', nonce: expect.any(Number) });
      // The node forgets it (dropped from the mempool).
      await rpc(stack.chain.rpcUrl, 'anvil_dropTransaction', [row!.txHash]);
      // A second process on the same database (the first one "crashed" after the broadcast).
      const second = await buildServer(stack.t.app.services.config, { database: stack.t.db.database, logger: false });
      try {
        await new Promise((r) => setTimeout(r, 1100));
        await payouts(second); // re-sends the stored bytes: same nonce, same hash
        await mine(stack.chain.rpcUrl, 1);
        await payouts(second);
        await mine(stack.chain.rpcUrl, 1);
        await payouts(second);
        await payouts(stack.t.app); // the first process, back: nothing more to do
      } finally {
        await second.close();
      }
      const [paid] = await stack.t.app.services.db.select().from(withdrawals).where(eq(withdrawals.userId, u.id));
      expect(paid).toMatchObject({ status: 'paid', txHash: row!.txHash, nonce: row!.nonce });
      expect(await balanceOf(u.wallet.address)).toBe(before + ETH / 4n);
    } finally {
      await rpc(stack.chain.rpcUrl, 'evm_setAutomine', [true]);
    }
    await expectLedgerBalanced(stack.t.app);
  });

  it('finding 6 (money owed): a payout the paying address cannot fund waits for funds, shown to user and operator, never returned; paid once funded', async () => {
    const u = await investor(9, 0n, 50n * USDT);
    // The float's tokens leave it (by hand, with its key as the operator would): it cannot pay.
    const hot = new Wallet(localKeys().float, providerFor(stack.chain.rpcUrl));
    expect(hot.address.toLowerCase()).toBe(LOCAL_FLOAT);
    const all = await usdtOf(hot.address);
    const away = Wallet.createRandom().address;
    await (await tokenContract(hot, 'USDT').getFunction('transfer')(away, all)).wait();
    const r = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(10n * USDT) });
    for (let i = 0; i < 3; i++) await payouts();
    const [w] = await list(u.token);
    expect(w).toMatchObject({ id: r.body.id, status: 'waiting_funds', reason: M.withdrawalWaitingFunds, transaction: null });
    const [row] = await stack.t.app.services.db.select().from(withdrawals).where(eq(withdrawals.id, r.body.id as number));
    expect(row).toMatchObject({ nonce: null, signedTx: null }); // no nonce held: nothing queues behind it
    const alerts = await operator(stack.t.app, 'alerts');
    expect(alerts).toMatchObject({ code: 1, out: expect.stringContaining(`payout-waiting-funds:${r.body.id}`) });
    expect((await operator(stack.t.app, 'withdrawals', 'list', '--status', 'waiting_funds')).out).toContain('waiting_funds');
    // Funded again: paid, exactly once, and the alert is resolved.
    const before = await usdtOf(u.wallet.address);
    await stack.chain.fund(hot.address, { tokens: { USDT: String(all / USDT) } });
    await payAll();
    expect((await list(u.token))[0]).toMatchObject({ status: 'paid' });
    expect(await usdtOf(u.wallet.address)).toBe(before + 10n * USDT);
    expect((await operator(stack.t.app, 'alerts')).out).not.toContain(`payout-waiting-funds:${r.body.id}`);
    expect(await lastMail(stack.t.app, u.email, 'withdrawal-returned')).toBeUndefined();
    await expectLedgerBalanced(stack.t.app);
  });

  it('finding 6: the float short of ETH holds no nonce; later payouts of other currencies go on; a stuck signed payout is cancelled at its nonce and returned', async () => {
    const u = await investor(0, 2n * ETH, 20n * USDT);
    const coinHot = LOCAL_FLOAT;
    const full = await balanceOf(coinHot);
    // Gas money for a token transfer, not half an ether.
    await rpc(stack.chain.rpcUrl, 'anvil_setBalance', [coinHot, `0x${(ETH / 10n).toString(16)}`]);
    const eth = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 2n) });
    const usdt = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(5n * USDT) });
    await payAll();
    const byId = async (id: unknown) => (await stack.t.app.services.db.select().from(withdrawals).where(eq(withdrawals.id, id as number)))[0]!;
    expect(await byId(eth.body.id)).toMatchObject({ status: 'waiting_funds', nonce: null });
    expect(await byId(usdt.body.id)).toMatchObject({ status: 'paid' }); // not queued behind it
    // The operator releases it: unsigned, it is returned at once.
    expect(await operator(stack.t.app, 'withdrawals', 'cancel', String(eth.body.id))).toMatchObject({ code: 0, out: `withdrawal ${eth.body.id}: returned` });
    expect(await byId(eth.body.id)).toMatchObject({ status: 'returned', reason: 'PAYOUT_CANCELLED' });
    expect(await operator(stack.t.app, 'withdrawals', 'cancel', String(eth.body.id))).toMatchObject({ code: 2, out: expect.stringMatching(/is returned/) });
    await rpc(stack.chain.rpcUrl, 'anvil_setBalance', [coinHot, `0x${full.toString(16)}`]);

    // Signed and broadcast, never mined (the node keeps it out of blocks): after the operator's
    // limit, a zero-value self-transfer at its nonce replaces it, and once that is final it is returned.
    const walletBefore = await balanceOf(u.wallet.address);
    await rpc(stack.chain.rpcUrl, 'evm_setAutomine', [false]);
    const impatient = await buildServer({ ...stack.t.app.services.config, money: { ...stack.t.app.services.config.money, cancelAfterSeconds: 1 } }, { database: stack.t.db.database, logger: false });
    try {
      const stuck = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 4n) });
      await payouts(impatient);
      const signed = await byId(stuck.body.id);
      expect(signed).toMatchObject({ status: 'sending', nonce: expect.any(Number) });
      await rpc(stack.chain.rpcUrl, 'anvil_dropTransaction', [signed.txHash]);
      await new Promise((r) => setTimeout(r, 1100));
      await payouts(impatient); // cancel signed
      const cancelling = await byId(stuck.body.id);
      expect(cancelling).toMatchObject({ status: 'cancelling', nonce: signed.nonce, cancelHash: expect.stringMatching(/^0x/) });
      expect((await list(u.token))[0]).toMatchObject({ status: 'cancelling' });
      await payouts(impatient); // cancel broadcast
      const cancelTx = Transaction.from(cancelling.cancelTx!);
      expect([cancelTx.nonce, cancelTx.to?.toLowerCase(), cancelTx.value]).toEqual([signed.nonce, coinHot, 0n]);
      await mine(stack.chain.rpcUrl, 2);
      await payouts(impatient);
      expect(await byId(stuck.body.id)).toMatchObject({ status: 'returned', reason: 'PAYOUT_CANCELLED', recheckUntil: expect.any(Date) });
      expect(await stack.t.app.services.payouts.run()).toMatchObject({ returned: 0 }); // twice: nothing more
    } finally {
      await impatient.close();
      await rpc(stack.chain.rpcUrl, 'evm_setAutomine', [true]);
    }
    expect(await balanceOf(u.wallet.address)).toBe(walletBefore);
    expect((await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token })).body.deposited).toEqual({ ETH: String(2n * ETH) });
    expect((await operator(stack.t.app, 'alerts')).out).toContain('payout-cancelled');
    await expectLedgerBalanced(stack.t.app);
  });

  it('finding 5: a recipient that runs code on receipt (a smart account) is paid, with gas estimated above 21,000 and under the cap', async () => {
    const u = await investor(1, 2n * ETH, 0n);
    // Code that writes a storage slot when paid: more than 21,000 gas, as an EIP-7702 account may need.
    await rpc(stack.chain.rpcUrl, 'anvil_setCode', [u.wallet.address, '0x600160005500']);
    const before = await balanceOf(u.wallet.address);
    const r = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 2n) });
    await payAll();
    const [w] = await list(u.token);
    expect(w).toMatchObject({ status: 'paid' });
    expect(await balanceOf(u.wallet.address)).toBe(before + ETH / 2n);
    const [row] = await stack.t.app.services.db.select().from(withdrawals).where(eq(withdrawals.id, r.body.id as number));
    const gasLimit = Transaction.from(row!.signedTx!).gasLimit;
    expect(gasLimit > 21_000n + 20_000n && gasLimit <= GAS_CAP).toBe(true);
    await rpc(stack.chain.rpcUrl, 'anvil_setCode', [u.wallet.address, '0x']);
    await expectLedgerBalanced(stack.t.app);
  });

  it('finding 5: a recipient that reverts is refused twice, then not retried: returned, shown to the user and the operator, no gas spent', async () => {
    const u = await investor(2, 2n * ETH, 0n);
    await rpc(stack.chain.rpcUrl, 'anvil_setCode', [u.wallet.address, '0x60006000fd']); // REVERT on any call
    const hotBefore = await balanceOf(LOCAL_FLOAT);
    const r = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 2n) });
    await payouts();
    expect((await list(u.token))[0]).toMatchObject({ status: 'requested' });
    await new Promise((res) => setTimeout(res, 1100)); // tried again after a pause
    await payouts();
    expect((await list(u.token))[0]).toMatchObject({ status: 'returned', reason: M.withdrawalReturnedRecipientReverts });
    const [row] = await stack.t.app.services.db.select().from(withdrawals).where(eq(withdrawals.id, r.body.id as number));
    expect(row).toMatchObject({ reverts: 2, nonce: null });
    await new Promise((res) => setTimeout(res, 1100));
    await payAll(); // not retried
    expect(await balanceOf(LOCAL_FLOAT)).toBe(hotBefore); // the house paid no gas
    expect((await operator(stack.t.app, 'alerts')).out).toContain(`payout-recipient-reverts:${r.body.id}`);
    const mails = (await stack.t.mail.mailsTo(u.email)).filter((m) => m.headers?.['x-mail-kind'] === 'withdrawal-returned');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Your withdrawal of 0.5 ETH from the coin pool was not paid: your wallet refused the transfer twice.');
    expect((await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token })).body.deposited).toEqual({ ETH: String(2n * ETH) });
    await rpc(stack.chain.rpcUrl, 'anvil_setCode', [u.wallet.address, '0x']);
    await expectLedgerBalanced(stack.t.app);
  });

  it("finding 7: a node whose nonce count runs ahead of its blocks does not make a payout 'dropped': it is paid once", async () => {
    const u = await investor(3, 2n * ETH, 0n);
    const before = await balanceOf(u.wallet.address);
    const hot = LOCAL_FLOAT;
    await rpc(stack.chain.rpcUrl, 'evm_setAutomine', [false]);
    try {
      const r = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 4n) });
      await payouts(); // signed and broadcast, not mined
      const [row] = await stack.t.app.services.db.select().from(withdrawals).where(eq(withdrawals.id, r.body.id as number));
      // The node answers a count past our nonce, with no block to show for it.
      await rpc(stack.chain.rpcUrl, 'anvil_setNonce', [hot, `0x${(row!.nonce! + 1).toString(16)}`]);
      await mine(stack.chain.rpcUrl, 3);
      await new Promise((res) => setTimeout(res, 1100));
      await payouts();
      await payouts();
      expect((await list(u.token))[0]).toMatchObject({ status: 'sending' });
      expect((await operator(stack.t.app, 'alerts')).out).toContain(`payout-nonce-unexplained:${r.body.id}`);
      // The other node's view: the count is ours again, and the signed payout mines.
      await rpc(stack.chain.rpcUrl, 'anvil_setNonce', [hot, `0x${row!.nonce!.toString(16)}`]);
      await new Promise((res) => setTimeout(res, 1100));
      await payouts(); // sent again
      await mine(stack.chain.rpcUrl, 1);
      await payAll();
    } finally {
      await rpc(stack.chain.rpcUrl, 'evm_setAutomine', [true]);
    }
    expect((await list(u.token))[0]).toMatchObject({ status: 'paid' });
    expect(await balanceOf(u.wallet.address)).toBe(before + ETH / 4n);
    expect((await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token })).body.deposited).toEqual({ ETH: String((7n * ETH) / 4n) });
    await expectLedgerBalanced(stack.t.app);
  });

  it('finding 7: a payout whose nonce another final transaction used is returned, and its hash re-checked: mined after a reorg, the operator is alerted', async () => {
    const u = await investor(null, 2n * ETH, 0n);
    const hot = new Wallet(localKeys().float, providerFor(stack.chain.rpcUrl));
    expect(hot.address.toLowerCase()).toBe(LOCAL_FLOAT);
    await rpc(stack.chain.rpcUrl, 'evm_setAutomine', [false]);
    let id = 0;
    try {
      const r = await withdraw(u.token, { pool: 'coin', currency: 'ETH', amount: String(ETH / 4n) });
      id = r.body.id as number;
      await payouts();
      const [row] = await stack.t.app.services.db.select().from(withdrawals).where(eq(withdrawals.id, id));
      await rpc(stack.chain.rpcUrl, 'anvil_dropTransaction', [row!.txHash]);
      const snap = await rpc<string>(stack.chain.rpcUrl, 'evm_snapshot', []);
      // Someone with the key uses the nonce (a hand-made transfer): mined, then final.
      const gasPrice = BigInt(await rpc<string>(stack.chain.rpcUrl, 'eth_gasPrice', []));
      const other = await hot.signTransaction({ type: 2, chainId: 1, nonce: row!.nonce!, to: hot.address, value: 0n, gasLimit: 21_000n, maxFeePerGas: gasPrice * 3n, maxPriorityFeePerGas: gasPrice });
      await rpc(stack.chain.rpcUrl, 'eth_sendRawTransaction', [other]);
      await mine(stack.chain.rpcUrl, 1);
      await payouts();
      expect((await list(u.token))[0]).toMatchObject({ status: 'sending' }); // one confirmation of two: not final yet
      await mine(stack.chain.rpcUrl, 1);
      await payouts();
      expect((await list(u.token))[0]).toMatchObject({ status: 'returned', reason: M.withdrawalReturnedDropped });
      // A reorg takes the other transaction away, and the returned payout mines after all.
      await rpc(stack.chain.rpcUrl, 'evm_revert', [snap]);
      await rpc(stack.chain.rpcUrl, 'eth_sendRawTransaction', [row!.signedTx]);
      await mine(stack.chain.rpcUrl, 1);
      await payouts();
    } finally {
      await rpc(stack.chain.rpcUrl, 'evm_setAutomine', [true]);
    }
    expect((await operator(stack.t.app, 'alerts')).out).toContain(`payout-mined-after-return:${id}`);
  });

  it('finding 8: the public reserves answer after a pool paid a token withdrawal (its gas is below zero on the books), with one reconciliation for concurrent callers', async () => {
    const listed = await Promise.all(['coin', 'stable'].map((p) => call(stack.t.app, 'GET', `/api/v1/pools/${p}/reserves`)));
    expect(listed.map((a) => a.status)).toEqual([200, 200]);
    // The float pays for every pool: its ETH row is listed under the pool that first paid from it.
    const gasRow = listed.flatMap((a) => a.body.items as Json[]).find((i) => i.currency === 'ETH' && i.address === LOCAL_FLOAT);
    expect(BigInt(gasRow!.books as string) < 0n).toBe(true); // the payouts and their gas, paid from money the books never held
    // Single flight: twenty callers of a cold pool cause the node reads of one reconciliation.
    const chain = stack.t.app.services.chain;
    const real = chain.call.bind(chain);
    let reads = 0;
    chain.call = (<T,>(m: string, p: unknown[]) => {
      reads++;
      return real<T>(m, p);
    }) as typeof chain.call;
    try {
      await reconcile(stack.t.app.services.db, chain, 1, 'dex');
      const one = reads;
      reads = 0;
      const answers = await Promise.all(Array.from({ length: 20 }, () => call(stack.t.app, 'GET', '/api/v1/pools/dex/reserves')));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect([one > 0, reads]).toEqual([true, one]);
    } finally {
      chain.call = real;
    }
  });

});

describe('issue 21: withdrawals the house can afford, and approval on what an account takes out', () => {
  const db = () => stack.t.app.services.db;
  const ru = { 'accept-language': 'ru' };
  const rowsOf = (userId: string) => db().select().from(withdrawals).where(eq(withdrawals.userId, userId)).orderBy(withdrawals.id);
  const position = async (token: string, pool: string, currency: string) =>
    ((await call(stack.t.app, 'GET', `/api/v1/dashboard/pools/${pool}?currency=${currency}`, { token })).body.deposited as Json)[currency];
  const rules = async (token: string) => (await call(stack.t.app, 'GET', '/api/v1/dashboard/withdraw/rules', { token })).body;
  /** Moves a user's withdrawals back in time, as if they had been requested `hours` earlier. */
  const age = (userId: string, hours: number) =>
    db().execute(sql`update withdrawals set created_at = created_at - make_interval(hours => ${hours}::int) where user_id = ${userId}`);

  it("finding 2: a withdrawal below the currency's minimum is refused and nothing is booked", async () => {
    const u = await investor(null, 0n, 100n * USDT);
    const minimumWhole = 5n;
    const minimum = minimumWhole * USDT;
    expect(await operator(stack.t.app, 'payouts', 'set', 'USDT', '--minimum', String(minimum))).toMatchObject({ code: 0 });
    // The browser reads the minimum it shows from the server.
    expect((await rules(u.token)).currencies).toContainEqual({ currency: 'USDT', minimum: String(minimum), fee: '0' });
    const expected = formatMessage(M.withdrawalBelowMinimum, { currency: 'USDT', minimum: `${minimumWhole} USDT` });
    // The review's case: one base unit, then just under the minimum.
    for (const amount of [1n, minimum - 1n]) {
      const r = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(amount) });
      expect([r.status, r.body.code, r.body.message, r.body.fields]).toEqual([400, 'BELOW_MINIMUM', expected, { amount: expected }]);
    }
    const inRussian = await call(stack.t.app, 'POST', '/api/v1/dashboard/withdraw', { token: u.token, headers: ru, body: { pool: 'stable', currency: 'USDT', amount: '1' } });
    expect(inRussian.body.message).toBe(formatMessage(Ru.withdrawalBelowMinimum, { currency: 'USDT', minimum: `${minimumWhole} USDT` }));
    expect(await rowsOf(u.id)).toEqual([]);
    expect(await position(u.token, 'stable', 'USDT')).toBe(String(100n * USDT));
    await expectLedgerBalanced(stack.t.app);
    // The minimum itself is paid.
    const ok = await withdraw(u.token, { pool: 'stable', currency: 'USDT', amount: String(minimum) });
    expect(ok.body).toMatchObject({ status: 'requested' });
    expect(await position(u.token, 'stable', 'USDT')).toBe(String(100n * USDT - minimum));
    await payAll();
    await operator(stack.t.app, 'payouts', 'set', 'USDT', '--minimum', String(USDT));
  });

  it('finding 2: a currency with no rule refuses withdrawals until the operator gives it a minimum', async () => {
    const u = await investor(null, 0n, 50n * USDT);
    // A deployment whose operator never ruled on USDT.
    const [stored] = await db().select().from(systemSettings).where(eq(systemSettings.key, 'payouts'));
    const { USDT: _ruled, ...others } = stored!.value as Record<string, unknown>;
    await db().update(systemSettings).set({ value: others }).where(eq(systemSettings.key, 'payouts'));
    const closed = formatMessage(M.withdrawalsClosed, { currency: 'USDT' });
    const body = { pool: 'stable', currency: 'USDT', amount: String(10n * USDT) };
    const refused = await withdraw(u.token, body);
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([400, 'WITHDRAWALS_CLOSED', closed]);
    expect((await rules(u.token)).currencies as Json[]).not.toContainEqual(expect.objectContaining({ currency: 'USDT' }));
    // A fee alone does not open it: only a minimum does.
    expect(await operator(stack.t.app, 'payouts', 'set', 'USDT', '--fee', '0')).toMatchObject({ code: 0, out: expect.stringContaining('minimum none (closed)') });
    const stillClosed = await call(stack.t.app, 'POST', '/api/v1/dashboard/withdraw', { token: u.token, headers: ru, body });
    expect([stillClosed.status, stillClosed.body.message]).toEqual([400, formatMessage(Ru.withdrawalsClosed, { currency: 'USDT' })]);
    expect(await rowsOf(u.id)).toEqual([]);
    expect(await position(u.token, 'stable', 'USDT')).toBe(String(50n * USDT));
    await expectLedgerBalanced(stack.t.app);
    expect(await operator(stack.t.app, 'payouts', 'set', 'USDT', '--minimum', String(USDT))).toMatchObject({ code: 0 });
    expect((await withdraw(u.token, body)).body).toMatchObject({ status: 'requested' });
    expect(await position(u.token, 'stable', 'USDT')).toBe(String(40n * USDT));
    await payAll();
  });

  it('finding 2: withdrawal requests are limited per account per hour and per day', async () => {
    const u = await investor(null, ETH, 0n);
    const before = await rules(u.token);
    const perHour = 2;
    const perDay = 3;
    expect(await operator(stack.t.app, 'payouts', 'limits', '--per-hour', String(perHour), '--per-day', String(perDay))).toMatchObject({ code: 0 });
    expect(await rules(u.token)).toMatchObject({ perHour, perDay });
    const part = ETH / 100n;
    const body = { pool: 'coin', currency: 'ETH', amount: String(part) };
    // More at once than the hour allows: exactly the hour's number are booked.
    const burst = await Promise.all(Array.from({ length: perHour + 3 }, () => withdraw(u.token, body)));
    const hourly = formatMessage(M.withdrawalsPerHour, { max: perHour });
    expect(burst.filter((r) => r.status === 200)).toHaveLength(perHour);
    expect(burst.filter((r) => r.status === 429).map((r) => [r.body.code, r.body.message])).toEqual(Array(3).fill(['WITHDRAWALS_PER_HOUR', hourly]));
    expect(await rowsOf(u.id)).toHaveLength(perHour);
    expect(await position(u.token, 'coin', 'ETH')).toBe(String(ETH - BigInt(perHour) * part));
    // An hour later the hour is free again, and the day's count is what stops the account.
    await age(u.id, 2);
    expect((await withdraw(u.token, body)).status).toBe(200);
    const daily = await call(stack.t.app, 'POST', '/api/v1/dashboard/withdraw', { token: u.token, headers: ru, body });
    expect([daily.status, daily.body.code, daily.body.message]).toEqual([429, 'WITHDRAWALS_PER_DAY', formatMessage(Ru.withdrawalsPerDay, { max: perDay })]);
    expect(await rowsOf(u.id)).toHaveLength(perDay);
    expect(await position(u.token, 'coin', 'ETH')).toBe(String(ETH - BigInt(perDay) * part));
    await expectLedgerBalanced(stack.t.app);
    // A day later the account may ask again.
    await age(u.id, 24);
    expect((await withdraw(u.token, body)).status).toBe(200);
    await operator(stack.t.app, 'payouts', 'limits', '--per-hour', String(before.perHour), '--per-day', String(before.perDay));
    await payAll();
  });

  describe('approval', () => {
    const waves = 10n ** BigInt(decimalsOf('WAVES', 1)!);
    const million = 1_000_000n * waves;
    const threshold = 2_500_000n * waves;
    beforeAll(async () => {
      await operator(stack.t.app, 'payouts', 'set', 'WAVES', '--threshold', String(threshold));
    });
    afterAll(async () => {
      await operator(stack.t.app, 'payouts', 'set', 'WAVES', '--threshold', 'none');
    });
    /** What a request should become, given what the window already holds: the rule, computed here. */
    const expectedStatus = (already: bigint, amount: bigint) => (already + amount > threshold ? 'awaiting_approval' : 'requested');

    it("finding 3: the approval threshold applies to the rolling sum of an account's withdrawals", async () => {
      const u = await freshInvestor({ WAVES: 4_000_000n });
      const body = { pool: 'coin', currency: 'WAVES', amount: String(million) };
      // The review's case: three requests of a million at once, each under the threshold.
      const three = await Promise.all([1, 2, 3].map(() => withdraw(u.token, body)));
      expect(three.map((r) => r.status)).toEqual([200, 200, 200]);
      const expected = [0n, million, 2n * million].map((already) => expectedStatus(already, million));
      expect(expected.filter((x) => x === 'awaiting_approval')).toHaveLength(1);
      expect((await rowsOf(u.id)).map((w) => w.status).sort()).toEqual([...expected].sort());
      // The quote says so before the next request.
      const quote = await call(stack.t.app, 'GET', `/api/v1/dashboard/withdraw/quote?pool=coin&currency=WAVES&amount=${waves}`, { token: u.token });
      expect(quote.body).toMatchObject({ approvalRequired: expectedStatus(3n * million, waves) === 'awaiting_approval' });
      await payAll();
      // A rolling window: what left more than a window ago no longer counts.
      await age(u.id, 25);
      const later = await withdraw(u.token, body);
      expect(later.body).toMatchObject({ status: expectedStatus(0n, million) });
      await expectLedgerBalanced(stack.t.app);
      await payAll();
    });

    it('finding 3: the threshold also sums what one address receives, whichever account asks', async () => {
      const a = await freshInvestor({ WAVES: 2_000_000n });
      const b = await freshInvestor({ WAVES: 1_000_000n });
      const first = await withdraw(a.token, { pool: 'coin', currency: 'WAVES', amount: String(2n * million) });
      expect(first.body).toMatchObject({ status: expectedStatus(0n, 2n * million) });
      // A's wallet moves to B (unlinked from A, then linked to B).
      await db().update(users).set({ walletAddress: null }).where(eq(users.id, a.id));
      await db().update(users).set({ walletAddress: a.wallet.address }).where(eq(users.id, b.id));
      const second = await withdraw(b.token, { pool: 'coin', currency: 'WAVES', amount: String(million) });
      expect(second.body).toMatchObject({ status: expectedStatus(2n * million, million) });
      expect(second.body.status).toBe('awaiting_approval');
      await expectLedgerBalanced(stack.t.app);
    });
  });

  it('a withdrawal of "0" is answered "It\'s required field!", in English and Russian, and books nothing', async () => {
    const u = await investor(null, ETH / 10n, 0n);
    const zero = { pool: 'coin', currency: 'ETH', amount: '0' };
    const en = await withdraw(u.token, zero);
    expect([en.status, en.body.fields]).toEqual([400, { amount: M.required }]);
    const inRussian = await call(stack.t.app, 'POST', '/api/v1/dashboard/withdraw', { token: u.token, headers: ru, body: zero });
    expect([inRussian.status, inRussian.body.fields]).toEqual([400, { amount: Ru.required }]);
    expect(await rowsOf(u.id)).toEqual([]);
    expect(await position(u.token, 'coin', 'ETH')).toBe(String(ETH / 10n));
  });
});
