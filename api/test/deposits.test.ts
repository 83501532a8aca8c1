import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { eq, sql } from 'drizzle-orm';
import { apiMessages as M, formatMessage } from '@app/contracts';
import { DEV_ACCOUNTS, mine, revertTo, snapshot, startChain, type LocalChain } from '@app/chain';
import { buildServer } from '../src/app';
import { deposits } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { createDepositJob } from '../src/deposits/job';
import { call, register, siweSign, startTestApp, testConfig, type TestApp } from './helpers';
import { deployStrayToken, devWallet, sendEth, sendToken, userWithWallet } from './deposit-helpers';

/**
 * Deposits against a real anvil (one per file). N = 3 confirmations; the job's interval is off and
 * tests run its ticks themselves, so nothing is credited behind their back.
 */
const N = 3;
let chain: LocalChain;
let t: TestApp;
let alice: Awaited<ReturnType<typeof userWithWallet>>;
let bob: Awaited<ReturnType<typeof userWithWallet>>;
const ETH = 10n ** 18n;
const USDT = 10n ** 6n;

beforeAll(async () => {
  chain = await startChain({ port: 0, quiet: true });
  t = await startTestApp({ RPC_URL: chain.rpcUrl, DEPOSIT_CONFIRMATIONS: String(N), DEPOSIT_JOB_INTERVAL_MS: '0' });
  alice = await userWithWallet(t.app, devWallet(chain.rpcUrl, 1));
  bob = await userWithWallet(t.app, devWallet(chain.rpcUrl, 2));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

type Json = Record<string, unknown>;
const deposit = (token: string, body: Json) => call(t.app, 'POST', '/api/v1/dashboard/deposit', { token, body });
const tick = () => t.app.services.depositJob.tick();
const rowsOf = (hash: string) => t.app.services.db.select().from(deposits).where(eq(deposits.txHash, hash.toLowerCase()));
const statusOf = async (token: string, id: number) =>
  ((await call(t.app, 'GET', `/api/v1/dashboard/deposits?id=${id}`, { token })).body.items as Json[])[0] as Json;
const POOL = LOCAL_POOL_ADDRESSES;

describe('pools state from the operator configuration', () => {
  it('answers receiving addresses per pool and currency and USD estimates from the price source', async () => {
    const coin = await call(t.app, 'GET', '/api/v1/dashboard/pools/coin', { token: alice.token });
    expect(coin.status).toBe(200);
    expect(coin.body.addresses).toEqual({ ETH: POOL.coin, BNB: POOL.coin, SOL: POOL.coin, WAVES: POOL.coin });
    expect(coin.body.estimate).toEqual({ ETH: '3000.00000000', BNB: '600.00000000', SOL: '150.00000000', WAVES: '1.25000000' });
    expect(coin.body.deposited).toEqual({ ETH: '0', BNB: '0', SOL: '0', WAVES: '0' });
    const stable = await call(t.app, 'GET', '/api/v1/dashboard/pools/stable', { token: alice.token });
    expect(Object.keys(stable.body.addresses as object)).toEqual(['USDT', 'USDC', 'BUSD']);
    const dex = await call(t.app, 'GET', '/api/v1/dashboard/pools/dex?currency=WAVES', { token: alice.token });
    expect(dex.body.addresses).toEqual({ WAVES: POOL.dex });
    // Distinct per pool, and none of them a depositing dev account.
    const all = Object.values(POOL);
    expect(new Set(all).size).toBe(3);
    for (const a of DEV_ACCOUNTS) expect(all).not.toContain(a.address.toLowerCase());
  });

  it('a price the operator changes is what the estimate shows, exactly', async () => {
    const { setPrices } = await import('../src/pricing/prices');
    await setPrices(t.app.services.db, 'local', { SOL: '151.12345678' });
    const coin = await call(t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=SOL', { token: alice.token });
    expect(coin.body.estimate).toEqual({ SOL: '151.12345678' });
    await setPrices(t.app.services.db, 'local', { SOL: '150' });
  });
});

describe('POST /dashboard/deposit refuses, each with its own message', () => {
  it('a transfer to the wrong address (ETH and a token)', async () => {
    const hash = await sendEth(alice.wallet, POOL.dex, ETH);
    const r = await deposit(alice.token, { pool: 'coin', amount: String(ETH), currency: 'ETH', transaction: hash });
    expect([r.status, r.body.code, r.body.message]).toEqual([400, 'WRONG_RECIPIENT', formatMessage(M.depositWrongRecipient, { currency: 'ETH' })]);
    const usdt = await sendToken(alice.wallet, 'USDT', Wallet.createRandom().address, 5n * USDT);
    const r2 = await deposit(alice.token, { pool: 'stable', amount: String(5n * USDT), currency: 'USDT', transaction: usdt });
    expect([r2.status, r2.body.code]).toEqual([400, 'WRONG_RECIPIENT']);
    expect(await rowsOf(hash)).toEqual([]);
  });

  it('a failed (reverted) transaction', async () => {
    // More USDT than the wallet holds, with a fixed gas limit so it is mined and reverts.
    const hash = await sendToken(alice.wallet, 'USDT', POOL.stable, 10n ** 30n, 200_000n);
    const r = await deposit(alice.token, { pool: 'stable', amount: '1', currency: 'USDT', transaction: hash });
    expect([r.status, r.body.code, r.body.message]).toEqual([400, 'TX_FAILED', M.depositTxFailed]);
  });

  it('a token not in the allowlist, even with the symbol USDT and sent to the pool', async () => {
    const stray = await deployStrayToken(alice.wallet);
    const tx = await stray.getFunction('transfer')(POOL.stable, 7n * USDT);
    await tx.wait();
    const r = await deposit(alice.token, { pool: 'stable', amount: String(7n * USDT), currency: 'USDT', transaction: tx.hash });
    expect([r.status, r.body.code, r.body.message]).toEqual([400, 'TOKEN_NOT_ALLOWED', M.depositTokenNotAllowed]);
  });

  it("someone else's transaction", async () => {
    const hash = await sendEth(alice.wallet, POOL.coin, ETH / 10n);
    const r = await deposit(bob.token, { pool: 'coin', amount: String(ETH / 10n), currency: 'ETH', transaction: hash });
    expect([r.status, r.body.code, r.body.message]).toEqual([400, 'NOT_YOUR_WALLET', M.depositNotYourWallet]);
    const usdt = await sendToken(alice.wallet, 'USDT', POOL.stable, USDT);
    const r2 = await deposit(bob.token, { pool: 'stable', amount: String(USDT), currency: 'USDT', transaction: usdt });
    expect([r2.status, r2.body.code]).toEqual([400, 'NOT_YOUR_WALLET']);
  });

  it('a user without a linked wallet, an unknown hash, another network, a currency the pool does not take, the wrong token', async () => {
    const carol = await register(t.app);
    const hash = await sendEth(alice.wallet, POOL.coin, 1000n);
    const base = { pool: 'coin', amount: '1000', currency: 'ETH', transaction: hash };
    expect((await deposit(carol.token, base)).body).toMatchObject({ code: 'NO_LINKED_WALLET', message: M.depositNoWallet });
    const unknown = await deposit(alice.token, { ...base, transaction: `0x${randomBytes(32).toString('hex')}` });
    expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([404, 'TX_NOT_FOUND', M.depositNotFound]);
    expect((await deposit(alice.token, { ...base, chainId: 56 })).body).toMatchObject({ code: 'WRONG_NETWORK', message: M.depositWrongNetwork });
    const pc = await deposit(alice.token, { ...base, pool: 'stable' });
    expect(pc.body).toMatchObject({ code: 'POOL_CURRENCY', message: formatMessage(M.depositPoolCurrency, { currency: 'ETH' }) });
    const usdc = await sendToken(alice.wallet, 'USDC', POOL.stable, USDT);
    const wc = await deposit(alice.token, { pool: 'stable', amount: String(USDT), currency: 'USDT', transaction: usdc });
    expect(wc.body).toMatchObject({ code: 'WRONG_CURRENCY', message: formatMessage(M.depositWrongCurrency, { currency: 'USDT' }) });
    // In Russian too.
    const ru = await call(t.app, 'POST', '/api/v1/dashboard/deposit', { token: carol.token, body: base, headers: { 'accept-language': 'ru' } });
    expect(ru.body.message).toBe('Привяжите кошелёк к аккаунту, прежде чем делать депозит');
  });
});

describe('recording and crediting', () => {
  it('an amount claimed above the chain’s is recorded as the chain’s', async () => {
    const hash = await sendToken(alice.wallet, 'USDT', POOL.dex, 3n * USDT);
    const r = await deposit(alice.token, { pool: 'dex', amount: String(1000n * USDT), currency: 'USDT', transaction: hash });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(M.depositAmountCorrected);
    expect(r.body.deposit).toMatchObject({ amount: String(3n * USDT), status: 'pending', currency: 'USDT', pool: 'dex' });
    const [row] = await rowsOf(hash);
    expect([row?.amount, row?.claimedAmount]).toEqual([String(3n * USDT), String(1000n * USDT)]);
  });

  it('the same hash twice, and many times at once, counts once whoever submits it', async () => {
    const hash = await sendEth(alice.wallet, POOL.coin, ETH / 4n);
    const body = { pool: 'coin', amount: String(ETH / 4n), currency: 'ETH', transaction: hash };
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => deposit(alice.token, i % 2 ? body : { ...body, transaction: hash.toUpperCase().replace('0X', '0x') })),
      deposit(bob.token, body),
    ]);
    const codes = answers.map((a) => a.status).sort();
    expect(codes).toEqual([200, ...Array(11).fill(409), 400].sort());
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'DEPOSIT_DUPLICATE' && a.body.message === M.depositDuplicate)).toBe(true);
    expect(await rowsOf(hash)).toHaveLength(1);
    const again = await deposit(alice.token, body);
    expect([again.status, again.body.code]).toEqual([409, 'DEPOSIT_DUPLICATE']);
  });

  it('too few confirmations: pending with n of N until the Nth block, then credited once', async () => {
    const hash = await sendEth(alice.wallet, POOL.coin, 2n * ETH);
    const r = await deposit(alice.token, { pool: 'coin', amount: String(2n * ETH), currency: 'ETH', transaction: hash });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: M.depositRecorded, status: 'pending', deposit: { status: 'pending', confirmations: 1, confirmationsRequired: N, amount: String(2n * ETH), logIndex: -1 } });
    const id = (r.body.deposit as Json).id as number;
    await tick();
    expect(await statusOf(alice.token, id)).toMatchObject({ status: 'pending', confirmations: 1 });
    await mine(chain.rpcUrl, 1);
    await tick();
    expect(await statusOf(alice.token, id)).toMatchObject({ status: 'pending', confirmations: 2 });
    const pool = await call(t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: alice.token });
    // The ¼ ETH of the previous test has its N blocks by now and was credited on the way.
    expect(pool.body).toMatchObject({ deposited: { ETH: String(ETH / 4n) }, pending: { ETH: String(2n * ETH) } });
    await mine(chain.rpcUrl, 1);
    await tick();
    const done = await statusOf(alice.token, id);
    expect(done).toMatchObject({ status: 'credited', confirmations: N, reason: null });
    expect(done.creditedAt).toEqual(expect.any(String));
  });

  it('a reorg: the transaction vanishes before N confirmations and is never credited', async () => {
    const snap = await snapshot(chain.rpcUrl);
    const hash = await sendEth(bob.wallet, POOL.coin, 5n * ETH);
    const r = await deposit(bob.token, { pool: 'coin', amount: String(5n * ETH), currency: 'ETH', transaction: hash });
    expect(r.status).toBe(200);
    const id = (r.body.deposit as Json).id as number;
    await revertTo(chain.rpcUrl, snap);
    await mine(chain.rpcUrl, N + 2);
    await tick();
    expect(await statusOf(bob.token, id)).toMatchObject({ status: 'pending', confirmations: 0, blockNumber: null });
    // After the grace period it is refused, with its reason.
    const settings = t.app.services.config.deposits;
    const grace = settings.dropAfterSeconds;
    settings.dropAfterSeconds = 0;
    try {
      await tick();
    } finally {
      settings.dropAfterSeconds = grace;
    }
    expect(await statusOf(bob.token, id)).toMatchObject({ status: 'refused', reason: M.depositReorged });
    const pool = await call(t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: bob.token });
    expect(pool.body).toMatchObject({ deposited: { ETH: '0' }, pending: { ETH: '0' } });
  });

  it('correct ETH and USDT deposits are credited exactly once; balances and withdrawals follow', async () => {
    const dave = await userWithWallet(t.app, devWallet(chain.rpcUrl, 3));
    const eth = await sendEth(dave.wallet, POOL.coin, 3n * ETH);
    const usdt = await sendToken(dave.wallet, 'USDT', POOL.stable, 250n * USDT);
    const withdrawBefore = await call(t.app, 'POST', '/api/v1/dashboard/withdraw', { token: dave.token, body: { pool: 'stable', amount: '1', currency: 'USDT' } });
    expect([withdrawBefore.status, withdrawBefore.body.message]).toEqual([400, M.notReplenished]);
    const a = await deposit(dave.token, { pool: 'coin', amount: String(3n * ETH), currency: 'ETH', transaction: eth, chainId: 1 });
    const b = await deposit(dave.token, { pool: 'stable', amount: String(250n * USDT), currency: 'USDT', transaction: usdt });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.deposit).toMatchObject({ logIndex: 0, from: dave.wallet.address.toLowerCase(), to: POOL.stable });
    await mine(chain.rpcUrl, N);
    // Two job instances at once (as two replicas would), then more ticks: one credit each.
    const log = t.app.log;
    const other = createDepositJob(t.app.services.db, t.app.services.chain, t.app.services.config.deposits, log);
    const results = await Promise.all([tick(), other.tick(), tick()]);
    await tick();
    const credited = await t.app.services.db.execute(sql`select count(*)::int as n from deposits where tx_hash in (${eth.toLowerCase()}, ${usdt.toLowerCase()}) and status = 'credited'`);
    expect((credited as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(2);
    expect(results.reduce((s, x) => s + x.credited, 0)).toBeGreaterThanOrEqual(2);
    const list = await call(t.app, 'GET', '/api/v1/dashboard/deposits', { token: dave.token });
    expect((list.body.items as Json[]).map((d) => [d.currency, d.status, d.amount])).toEqual([
      ['USDT', 'credited', String(250n * USDT)],
      ['ETH', 'credited', String(3n * ETH)],
    ]);
    expect(list.body.confirmationsRequired).toBe(N);

    const coin = await call(t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: dave.token });
    expect(coin.body).toMatchObject({ deposited: { ETH: String(3n * ETH) }, pending: { ETH: '0' } });
    // Withdraw: never more than the credited balance, even asked for twice at once.
    const body = { pool: 'stable', amount: String(200n * USDT), currency: 'USDT' };
    const both = await Promise.all([1, 2].map(() => call(t.app, 'POST', '/api/v1/dashboard/withdraw', { token: dave.token, body })));
    expect(both.map((x) => x.status).sort()).toEqual([200, 400]);
    const rest = await call(t.app, 'POST', '/api/v1/dashboard/withdraw', { token: dave.token, body: { ...body, amount: String(50n * USDT) } });
    expect(rest.body).toMatchObject({ message: M.withdrawalSent, status: 'requested' });
    const stable = await call(t.app, 'GET', '/api/v1/dashboard/pools/stable?currency=USDT', { token: dave.token });
    expect(stable.body).toMatchObject({ deposited: { USDT: '0' } });
    const noCoin = await call(t.app, 'POST', '/api/v1/dashboard/withdraw', { token: dave.token, body: { pool: 'dex', amount: '1', currency: 'ETH' } });
    expect(noCoin.body.message).toBe(M.notReplenished);

    const today = new Date().toISOString().slice(0, 10);
    const balance = await call(t.app, 'GET', `/api/v1/balance?from=${today}&to=${today}`, { token: dave.token });
    expect(balance.body.items).toEqual([
      { date: today, pool: 'coin', currency: 'ETH', amount: String(3n * ETH), withdrawn: '0', balance: String(3n * ETH) },
      { date: today, pool: 'stable', currency: 'USDT', amount: String(250n * USDT), withdrawn: String(250n * USDT), balance: '0' },
    ]);
    const none = await call(t.app, 'GET', '/api/v1/balance?to=2000-01-01', { token: dave.token });
    expect(none.body.items).toEqual([]);
  });

  it('a pending deposit survives an API restart and is credited by the job the new process starts', async () => {
    const erin = await userWithWallet(t.app, devWallet(chain.rpcUrl, 4));
    const config = testConfig({ RPC_URL: chain.rpcUrl, DEPOSIT_CONFIRMATIONS: String(N), DEPOSIT_JOB_INTERVAL_MS: '0' });
    const first = await buildServer(config, { database: t.db.database, logger: false });
    const hash = await sendEth(erin.wallet, POOL.coin, ETH);
    const r = await call(first, 'POST', '/api/v1/dashboard/deposit', { token: erin.token, body: { pool: 'coin', amount: String(ETH), currency: 'ETH', transaction: hash } });
    expect(r.body).toMatchObject({ status: 'pending', deposit: { confirmations: 1 } });
    await first.close();
    await mine(chain.rpcUrl, N);
    const second = await buildServer({ ...config, deposits: { ...config.deposits, jobIntervalMs: 50 } }, { database: t.db.database, logger: false });
    await second.ready();
    try {
      const deadline = Date.now() + 10_000;
      let row = (await rowsOf(hash))[0];
      while (row?.status !== 'credited' && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 50));
        row = (await rowsOf(hash))[0];
      }
      expect(row?.status).toBe('credited');
    } finally {
      await second.close();
    }
  });
});

describe('beyond one process (issue 23, goal 5)', () => {
  it('goal 5: a deposit right after the wallet was linked on another replica is recorded (the wallet is read from the database, not this replica\'s session cache)', async () => {
    // A second replica on the same database.
    const other = await buildServer(testConfig({ RPC_URL: chain.rpcUrl, DEPOSIT_CONFIRMATIONS: String(N), DEPOSIT_JOB_INTERVAL_MS: '0' }), { database: t.db.database, logger: false });
    try {
      const wallet = devWallet(chain.rpcUrl, 5);
      const hash = await sendEth(wallet, POOL.coin, ETH / 100n);
      const fay = await register(t.app);
      const id = (fay.user as { id: string }).id;
      // This replica has just authenticated the session (and keeps its user, without a wallet, for a moment)…
      expect((await call(t.app, 'GET', '/api/v1/profile', { token: fay.token })).status).toBe(200);
      // …when the wallet is linked through the other replica.
      const linked = await call(other, 'POST', '/api/v1/connect-mm', { token: fay.token, body: { id, metaMaskAddress: wallet.address, ...(await siweSign(other, wallet)) } });
      expect(linked.status).toBe(200);
      const r = await deposit(fay.token, { pool: 'coin', amount: String(ETH / 100n), currency: 'ETH', transaction: hash });
      expect([r.status, r.body.deposit]).toEqual([200, expect.objectContaining({ from: wallet.address.toLowerCase(), to: POOL.coin, amount: String(ETH / 100n) })]);
    } finally {
      await other.close();
    }
  });
});
