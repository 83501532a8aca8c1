import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { freePort, rpc, startChain, type LocalChain } from '@app/chain';
import { deposits, jobLeases, watcherCursor, withdrawals } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { rows } from '../src/db/rows';
import { call, startTestApp, type TestApp } from './helpers';
import { devWallet, sendEth, userWithWallet } from './deposit-helpers';
import { ETH, expectLedgerBalanced } from './money-helpers';

/**
 * The RPC node goes down while a payout is in flight and a transfer waits for the watcher: the jobs
 * fail their runs and wait, nothing in the database moves or is marked failed, and once the node
 * is back (the same chain, restarted from its state file) they resume: paid once, credited once.
 */
jest.setTimeout(180_000);

let chain: LocalChain;
let t: TestApp;
let stateDir: string;
let port: number;
const start = () => startChain({ port, stateFile: path.join(stateDir, 'state.json'), quiet: true });

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), 'rpc-down-'));
  port = await freePort();
  chain = await start();
  t = await startTestApp({ RPC_URL: chain.rpcUrl, DEPOSIT_CONFIRMATIONS: '1', DEPOSIT_JOB_INTERVAL_MS: '0', PAYOUT_CONFIRMATIONS: '1', PAYOUT_REBROADCAST_SECONDS: '1' });
}, 90_000);
afterAll(async () => {
  await t?.close();
  await chain?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const balanceOf = async (address: string) => BigInt(await rpc<string>(chain.rpcUrl, 'eth_getBalance', [address, 'latest']));
const runJob = (name: string) => t.app.services.jobs.runNow(name);

/** What must not change while the node is down. */
async function state() {
  const db = t.app.services.db;
  return {
    withdrawals: await db.select().from(withdrawals).orderBy(withdrawals.id),
    deposits: await db.select().from(deposits).orderBy(deposits.id),
    cursor: await db.select().from(watcherCursor),
    ledger: await rows(db, sql`select key, balance::text from ledger_accounts order by key`),
    transactions: await rows(db, sql`select count(*)::int as n from ledger_transactions`),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const leaseOf = async (job: string) => (await t.app.services.db.select().from(jobLeases).where(eq(jobLeases.job, job)))[0];
const deposited = async (token: string) => (await call(t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token })).body.deposited;

describe('the RPC node down', () => {
  it('the jobs wait, lose and mark nothing, and resume when the node is back', async () => {
    const u = await userWithWallet(t.app, devWallet(chain.rpcUrl, 3));
    const reported = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, 2n * ETH);
    expect((await call(t.app, 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(2n * ETH), transaction: reported } })).status).toBe(200);
    await t.app.services.depositJob.tick();
    await runJob('watcher'); // the cursor reaches the head
    // A transfer nobody reported, for the watcher; then a payout broadcast but not mined (automine off).
    const unreported = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, ETH / 2n);
    const before = await balanceOf(u.wallet.address);
    await rpc(chain.rpcUrl, 'evm_setAutomine', [false]);
    expect((await call(t.app, 'POST', '/api/v1/dashboard/withdraw', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(ETH / 4n) } })).status).toBe(200);
    await runJob('payouts');
    const [sending] = await t.app.services.db.select().from(withdrawals).where(eq(withdrawals.userId, u.id));
    expect(sending).toMatchObject({ status: 'sending', nonce: expect.any(Number), broadcastAt: expect.any(Date) });
    await expectLedgerBalanced(t.app);

    // The node goes away (its mempool with it).
    const snapshot = await state();
    await chain.stop();
    for (let round = 0; round < 2; round++) {
      await expect(runJob('payouts')).rejects.toThrow();
      await expect(runJob('watcher')).rejects.toThrow();
      await t.app.services.depositJob.tick(); // logs and leaves rows pending
      await sleep(1100); // past the rebroadcast delay: the payout would be sent again if the node answered
    }
    expect(await state()).toEqual(snapshot);
    for (const job of ['payouts', 'watcher']) {
      // Each failed run is recorded and its lease released, so any replica retries at the next interval.
      const lease = await leaseOf(job);
      expect(lease?.lastError).toBeTruthy();
      expect(lease!.leaseUntil.getTime()).toBeLessThanOrEqual(Date.now());
    }
    // The API still answers, from the ledger.
    expect(await deposited(u.token)).toEqual({ ETH: String(2n * ETH - ETH / 4n) });
    await expectLedgerBalanced(t.app);

    // Back, from its state file: the jobs resume where they stopped.
    chain = await start();
    for (let i = 0; i < 10; i++) {
      await runJob('payouts');
      await runJob('watcher');
      await t.app.services.depositJob.tick();
      const [w] = await t.app.services.db.select().from(withdrawals).where(eq(withdrawals.userId, u.id));
      const found = await t.app.services.db.select().from(deposits).where(eq(deposits.txHash, unreported.toLowerCase()));
      if (w?.status === 'paid' && found[0]?.status === 'credited') break;
      await rpc(chain.rpcUrl, 'evm_mine', []);
      await sleep(1100);
    }
    const [paid] = await t.app.services.db.select().from(withdrawals).where(eq(withdrawals.userId, u.id));
    // Paid once, by the transaction stored before the node went down: same nonce, same hash.
    expect(paid).toMatchObject({ status: 'paid', txHash: sending!.txHash, nonce: sending!.nonce, reason: null });
    expect(await balanceOf(u.wallet.address)).toBe(before + ETH / 4n);
    const found = await t.app.services.db.select().from(deposits).where(eq(deposits.txHash, unreported.toLowerCase()));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ status: 'credited', amount: String(ETH / 2n) });
    expect(await deposited(u.token)).toEqual({ ETH: String(2n * ETH + ETH / 2n - ETH / 4n) });
    for (const job of ['payouts', 'watcher']) expect((await leaseOf(job))?.lastError).toBeNull();
    await expectLedgerBalanced(t.app);
  });
});
