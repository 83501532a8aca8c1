import { eq } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { apiMessages as M } from '@app/contracts';
import { LOCAL_FLOAT, LOCAL_TREASURY, mine } from '@app/chain';
import { localKeys } from '@app/signer';
import { withdrawals } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { reconcile } from '../src/ledger';
import { createTreasuryJob } from '../src/payouts/treasury';
import { httpSigner } from '../src/payouts';
import { startTestSigner } from './signer-helpers';
import { runOperator } from '../src/operator/cli';
import { call, lastMail } from './helpers';
import { providerFor, sendToken, tokenContract, userWithWallet } from './deposit-helpers';
import { USDT, addDays, expectLedgerBalanced, independentEarned, moneyStack, operator, runCommand, testOperator, today } from './money-helpers';

/**
 * Money owed is money on chain (issue 21): the interest the books credit is funded from the
 * treasury (yield) address, on a fresh anvil where the stable pool's address holds only this
 * investor's deposit, so nobody else's principal can pay it.
 */
jest.setTimeout(120_000);
const stack = moneyStack({ PAYOUT_CONFIRMATIONS: '2', PAYOUT_REBROADCAST_SECONDS: '1' });

const usdtOf = async (address: string) => (await tokenContract(new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl)), 'USDT').getFunction('balanceOf')(address)) as bigint;

describe('money owed is money on chain', () => {
  it('a withdrawal of the whole balance after 30 accrued days is paid: the interest comes from the treasury, and meanwhile the payout waits for funds', async () => {
    const { app } = stack.t;
    const day0 = today();
    expect(await operator(app, 'apy', 'set', 'stable', '0.05', '--from', day0)).toMatchObject({ code: 0 });
    const wallet = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
    await stack.chain.fund(wallet.address, { eth: '1', tokens: { USDT: '1000' } });
    const u = await userWithWallet(app, wallet);
    // Payouts leave from the float (issue 26): this one starts without tokens, as if payouts had emptied it.
    const float = new Wallet(localKeys().float, providerFor(stack.chain.rpcUrl));
    await (await tokenContract(float, 'USDT').getFunction('transfer')(Wallet.createRandom().address, await usdtOf(LOCAL_FLOAT))).wait();
    const principal = 1000n * USDT;
    const tx = await sendToken(wallet, 'USDT', LOCAL_POOL_ADDRESSES.stable, principal);
    expect((await call(app, 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'stable', currency: 'USDT', amount: String(principal), transaction: tx } })).status).toBe(200);
    await app.services.depositJob.tick();
    expect(await usdtOf(LOCAL_POOL_ADDRESSES.stable)).toBe(principal); // nobody else's money is there

    // The deposit's own day, held in part, earns nothing: 30 whole days held are day0 + 1 to day0 + 30.
    expect(await operator(app, 'accrue', '--until', addDays(day0, 30))).toMatchObject({ code: 0 });
    const earned = independentEarned(principal, 5n, 100n, 30);
    const total = principal + earned;
    expect((await call(app, 'GET', '/api/v1/dashboard/pools/stable?currency=USDT', { token: u.token })).body.deposited).toEqual({ USDT: String(total) });

    // The books owe more than the address holds: the reconciliation says so, and without a
    // treasury the operator is alerted.
    const short = (await reconcile(app.services.db, app.services.chain, 1, 'stable')).find((r) => r.currency === 'USDT')!;
    expect(short).toMatchObject({ liabilities: String(total), onChain: String(principal), covered: false });
    const noTreasury = createTreasuryJob(app.services.db, app.services.chain, null, { chainId: 1, confirmations: 2, rebroadcastSeconds: 1, stuckAfterSeconds: 1800 }, app.log);
    expect(await noTreasury.run()).toMatchObject({ short: 1, funded: 0 });
    expect((await operator(app, 'alerts')).out).toContain('reserves-short:stable:USDT');

    // The whole balance: accepted, and until funded it waits (never "failed on the chain").
    const r = await call(app, 'POST', '/api/v1/dashboard/withdraw', { token: u.token, body: { pool: 'stable', currency: 'USDT', amount: String(total) } });
    expect(r.status).toBe(200);
    expect(await app.services.payouts.run()).toMatchObject({ waitingFunds: 1, signed: 0, returned: 0 });
    const listed = (await call(app, 'GET', '/api/v1/dashboard/withdrawals', { token: u.token })).body.items as Record<string, unknown>[];
    expect(listed[0]).toMatchObject({ status: 'waiting_funds', reason: M.withdrawalWaitingFunds });
    expect((await operator(app, 'withdrawals', 'list', '--status', 'waiting_funds')).out).toContain(String(total));

    // The treasury's key is the signer's (issue 26): one whose treasury cap is below the interest
    // refuses, the refusal is alerted, nothing is funded and no nonce is spent.
    const strict = await startTestSigner(() => app.services.db, { treasuryCaps: { USDT: { perTransaction: earned - 1n, perDay: earned * 10n } } });
    try {
      const refused = createTreasuryJob(app.services.db, app.services.chain, httpSigner(strict.url), { chainId: 1, confirmations: 2, rebroadcastSeconds: 1, stuckAfterSeconds: 1800 }, app.log);
      expect(await refused.run()).toMatchObject({ short: 1, funded: 0 });
      expect(strict.log().map((e) => [e.event, e.detail.kind])).toEqual([['refused', 'treasury']]);
      expect(strict.alerts).toEqual([`${earned} USDT is over the treasury's per-transaction cap of ${earned - 1n}`]);
      expect((await operator(app, 'alerts')).out).toContain('treasury-refused:stable:USDT');
    } finally {
      await strict.close();
    }

    // The treasury moves exactly what is owed beyond what the address holds: the interest.
    const treasuryBefore = await usdtOf(LOCAL_TREASURY);
    expect(await operator(app, 'treasury')).toMatchObject({ code: 0 });
    expect(await operator(app, 'treasury')).toMatchObject({ code: 0 }); // twice: one transfer
    await mine(stack.chain.rpcUrl, 2);
    await app.services.treasury.run(); // booked once final
    expect(await usdtOf(LOCAL_TREASURY)).toBe(treasuryBefore - earned);
    expect(await usdtOf(LOCAL_POOL_ADDRESSES.stable)).toBe(total);
    // Signed by the signer, once, to the pool's deposit address; the refusal's alert is resolved.
    const funded = stack.t.signer!.log().filter((e) => e.detail.kind === 'treasury');
    expect(funded.map((e) => [e.event, e.detail.currency, e.detail.amount, e.detail.to])).toEqual([['signed', 'USDT', String(earned), LOCAL_POOL_ADDRESSES.stable]]);
    expect((await operator(app, 'alerts')).out).not.toContain('treasury-refused:stable:USDT');

    // The operators refill the float from the pool's deposit address (one asks, another approves); the signer sends it.
    expect(await operator(app, 'custody', 'refill', 'stable', 'USDT', String(total))).toMatchObject({ code: 0 });
    expect(await runCommand(app, runOperator, ['custody', 'approve', '1'], await testOperator(app, 'bob'))).toMatchObject({ code: 0 });
    await app.services.sweeps.run();
    await mine(stack.chain.rpcUrl, 2);
    await app.services.sweeps.run();
    expect(await usdtOf(LOCAL_FLOAT)).toBe(total);

    const before = await usdtOf(wallet.address);
    for (let i = 0; i < 6; i++) {
      await app.services.payouts.run();
      await mine(stack.chain.rpcUrl, 1);
    }
    const [w] = await app.services.db.select().from(withdrawals).where(eq(withdrawals.id, r.body.id as number));
    expect(w).toMatchObject({ status: 'paid' });
    expect(await usdtOf(wallet.address)).toBe(before + total);
    expect(await lastMail(app, u.email, 'withdrawal-returned')).toBeUndefined();
    const after = (await reconcile(app.services.db, app.services.chain, 1, 'stable')).find((x) => x.currency === 'USDT')!;
    expect(after).toMatchObject({ onChain: '0', books: '0', difference: '0', liabilities: '0', covered: true });
    await app.services.treasury.run();
    expect((await operator(app, 'alerts')).out).not.toContain('reserves-short:stable:USDT');
    await expectLedgerBalanced(app);
  });
});
