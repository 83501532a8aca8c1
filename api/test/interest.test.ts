import { HOT_WALLET_GAS } from '@app/chain';
import { projectEarnings } from '@app/web3';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { call } from './helpers';
import { devWallet, sendEth, sendToken, userWithWallet } from './deposit-helpers';
import { ETH, USDT, addDays, expectLedgerBalanced, independentEarned, moneyStack, operator, today } from './money-helpers';

/** Interest against the real API and anvil: deposits credited by the job, then 30 days accrued by the operator command. */
const stack = moneyStack();

describe('daily compounding interest', () => {
  it('deposit 1 ETH and 100 USDT, accrue 30 days: earned equals an independent bigint computation', async () => {
    const day0 = today();
    expect(await operator(stack.t.app, 'apy', 'set', 'coin', '0.08', '--from', day0)).toMatchObject({ code: 0 });
    expect(await operator(stack.t.app, 'apy', 'set', 'stable', '0.05', '--from', day0)).toMatchObject({ code: 0 });
    const alice = await userWithWallet(stack.t.app, devWallet(stack.chain.rpcUrl, 3));
    const eth = await sendEth(alice.wallet, LOCAL_POOL_ADDRESSES.coin, ETH);
    const usdt = await sendToken(alice.wallet, 'USDT', LOCAL_POOL_ADDRESSES.stable, 100n * USDT);
    for (const [pool, currency, amount, transaction] of [['coin', 'ETH', ETH, eth], ['stable', 'USDT', 100n * USDT, usdt]] as const) {
      const r = await call(stack.t.app, 'POST', '/api/v1/dashboard/deposit', { token: alice.token, body: { pool, currency, amount: String(amount), transaction } });
      expect(r.status).toBe(200);
    }
    await stack.t.app.services.depositJob.tick();
    await expectLedgerBalanced(stack.t.app);

    const until = addDays(day0, 29); // day0 … day0 + 29: 30 days
    const run = await operator(stack.t.app, 'accrue', '--until', until);
    expect(run).toMatchObject({ code: 0 });
    await expectLedgerBalanced(stack.t.app);

    const coin = await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: alice.token });
    const stable = await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/stable?currency=USDT', { token: alice.token });
    // Deposited during day0, which it was not held for whole: it earns from day0 + 1, 29 days.
    const earnedEth = independentEarned(ETH, 8n, 100n, 29);
    const earnedUsdt = independentEarned(100n * USDT, 5n, 100n, 29);
    expect(coin.body.earned).toEqual({ ETH: String(earnedEth) });
    expect(coin.body.deposited).toEqual({ ETH: String(ETH + earnedEth) });
    expect(stable.body.earned).toEqual({ USDT: String(earnedUsdt) });
    // The browser's projection (shared) says the same, to the base unit.
    expect(projectEarnings(ETH, '0.08', 29)).toBe(earnedEth);
    expect(projectEarnings(100n * USDT, '0.05', 29)).toBe(earnedUsdt);

    // A second accrue of the same days changes nothing.
    const again = await operator(stack.t.app, 'accrue', '--until', until);
    expect(again.code).toBe(0);
    const coin2 = await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: alice.token });
    expect(coin2.body.earned).toEqual(coin.body.earned);
    // The APY of accrued days cannot be changed any more.
    const past = await operator(stack.t.app, 'apy', 'set', 'coin', '0.5', '--from', day0);
    expect(past.code).toBe(2);
    expect(past.out).toMatch(/accrued up to/);
  });

  it('reconciles the reserves: the books against the chain, per pool address and currency, public too', async () => {
    const run = await operator(stack.t.app, 'reconcile');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/difference\(s\) reported; nothing was changed/);
    const stable = await call(stack.t.app, 'GET', '/api/v1/pools/stable/reserves');
    expect(stable.status).toBe(200);
    expect(stable.body.items).toContainEqual({ currency: 'USDT', address: LOCAL_POOL_ADDRESSES.stable, onChain: String(100n * USDT), books: String(100n * USDT), difference: '0' });
    const coin = await call(stack.t.app, 'GET', '/api/v1/pools/coin/reserves');
    // The hot wallet's gas money is on chain but not owed to anyone: reported as a difference.
    expect(coin.body.items).toContainEqual({ currency: 'ETH', address: LOCAL_POOL_ADDRESSES.coin, onChain: String(ETH + HOT_WALLET_GAS), books: String(ETH), difference: String(HOT_WALLET_GAS) });
    expect((await call(stack.t.app, 'GET', '/api/v1/pools/gold/reserves')).status).toBe(400);
  });

  it('refuses a wrong date or APY with a message', async () => {
    expect(await operator(stack.t.app, 'accrue', '--until', '2026-02-30')).toMatchObject({ code: 2, out: expect.stringMatching(/wrong --until date '2026-02-30'/) });
    expect(await operator(stack.t.app, 'accrue')).toMatchObject({ code: 2, out: 'missing --until date' });
    expect(await operator(stack.t.app, 'apy', 'set', 'coin', '5%')).toMatchObject({ code: 2, out: expect.stringMatching(/wrong APY/) });
    expect(await operator(stack.t.app, 'apy', 'set', 'gold', '0.1')).toMatchObject({ code: 2, out: expect.stringMatching(/wrong pool/) });
  });
});
