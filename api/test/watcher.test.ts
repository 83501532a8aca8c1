import { eq } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { blockNumber, mine, revertTo, rpc, snapshot } from '@app/chain';
import { buildServer } from '../src/app';
import { deposits, watcherCursor } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { call } from './helpers';
import { devWallet, providerFor, sendEth, sendToken, userWithWallet } from './deposit-helpers';
import { ETH, USDT, expectLedgerBalanced, moneyStack, operator } from './money-helpers';

/** The chain watcher against a real anvil: transfers nobody reported, unknown senders, reorgs, restarts. */
jest.setTimeout(120_000);
const stack = moneyStack({ DEPOSIT_CONFIRMATIONS: '2', DEPOSIT_DROP_AFTER_SECONDS: '0' });

/** Runs the watcher until it has read up to the head. */
async function watch(app = stack.t.app) {
  const totals = { deposits: 0, unclaimed: 0, rewound: [] as number[] };
  for (let i = 0; i < 50; i++) {
    const r = await app.services.watcher.run();
    totals.deposits += r.deposits;
    totals.unclaimed += r.unclaimed;
    if (r.rewoundTo !== null) totals.rewound.push(r.rewoundTo);
    if (r.to >= r.head) break;
  }
  return totals;
}
const rowsOf = (hash: string) => stack.t.app.services.db.select().from(deposits).where(eq(deposits.txHash, hash.toLowerCase()));

describe('the chain watcher', () => {
  it('credits a transfer sent from a linked wallet straight to the pool address, with no browser', async () => {
    const u = await userWithWallet(stack.t.app, devWallet(stack.chain.rpcUrl, 1));
    const eth = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, 3n * ETH);
    const usdt = await sendToken(u.wallet, 'USDT', LOCAL_POOL_ADDRESSES.dex, 25n * USDT);
    expect((await watch()).deposits).toBe(2);
    await mine(stack.chain.rpcUrl, 1);
    await stack.t.app.services.depositJob.tick();
    expect((await rowsOf(eth))[0]).toMatchObject({ status: 'credited', amount: String(3n * ETH), logIndex: -1, pool: 'coin' });
    expect((await rowsOf(usdt))[0]).toMatchObject({ status: 'credited', amount: String(25n * USDT), logIndex: 0, pool: 'dex' });
    const coin = await call(stack.t.app, 'GET', '/api/v1/dashboard/pools/coin?currency=ETH', { token: u.token });
    expect(coin.body.deposited).toEqual({ ETH: String(3n * ETH) });
    // The browser reports it late: the same row, not a second credit.
    const late = await call(stack.t.app, 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'dex', currency: 'USDT', amount: String(25n * USDT), transaction: usdt } });
    expect(late.status).toBe(200);
    expect(await rowsOf(usdt)).toHaveLength(1);
    await expectLedgerBalanced(stack.t.app);
    // Another process (a restart) resumes from the cursor in the database: nothing doubles.
    const second = await buildServer(stack.t.app.services.config, { database: stack.t.db.database, logger: false });
    try {
      expect(await watch(second)).toMatchObject({ deposits: 0, unclaimed: 0 });
    } finally {
      await second.close();
    }
  });

  it('keeps a transfer from an unknown wallet as unclaimed; the operator assigns it', async () => {
    const stranger = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
    await stack.chain.fund(stranger.address, { eth: '5' });
    const hash = await sendEth(stranger, LOCAL_POOL_ADDRESSES.coin, ETH);
    expect((await watch()).unclaimed).toBe(1);
    const listed = await operator(stack.t.app, 'unclaimed', 'list', '--json');
    const { items } = JSON.parse(listed.out) as { items: { id: number; transaction: string }[] };
    const transfer = items.find((i) => i.transaction === hash.toLowerCase());
    expect(transfer).toBeDefined();
    const id = String(transfer!.id);
    const owner = await userWithWallet(stack.t.app, devWallet(stack.chain.rpcUrl, 2));
    expect(await operator(stack.t.app, 'unclaimed', 'assign', id, owner.email, 'coin')).toMatchObject({ code: 0 });
    expect(await operator(stack.t.app, 'unclaimed', 'assign', id, owner.email, 'coin')).toMatchObject({ code: 2, out: expect.stringMatching(/already/) });
    await mine(stack.chain.rpcUrl, 1);
    await stack.t.app.services.depositJob.tick();
    expect((await rowsOf(hash))[0]).toMatchObject({ status: 'credited', userId: owner.id });
    await expectLedgerBalanced(stack.t.app);
  });

  it('a reorg drops a pending deposit: never credited, and the watcher rewinds', async () => {
    const u = await userWithWallet(stack.t.app, devWallet(stack.chain.rpcUrl, 3));
    await watch();
    const snap = await snapshot(stack.chain.rpcUrl);
    const hash = await sendEth(u.wallet, LOCAL_POOL_ADDRESSES.coin, 2n * ETH);
    expect((await watch()).deposits).toBe(1);
    const [pending] = await rowsOf(hash);
    expect(pending).toMatchObject({ status: 'pending' });
    // The block with the transfer is replaced by others at the same heights.
    await revertTo(stack.chain.rpcUrl, snap);
    await rpc(stack.chain.rpcUrl, 'evm_setAutomine', [true]);
    await mine(stack.chain.rpcUrl, 3);
    const r = await watch();
    expect(r.rewound.length).toBe(1);
    const head = await blockNumber(stack.chain.rpcUrl);
    const [c] = await stack.t.app.services.db.select().from(watcherCursor);
    const atHead = await rpc<{ hash: string }>(stack.chain.rpcUrl, 'eth_getBlockByNumber', [`0x${head.toString(16)}`, false]);
    expect(c).toMatchObject({ blockNumber: head, blockHash: atHead.hash });
    await stack.t.app.services.depositJob.tick();
    await stack.t.app.services.depositJob.tick();
    const [after] = await rowsOf(hash);
    expect(after!.status).not.toBe('credited');
    expect(after).toMatchObject({ status: 'refused', reason: 'REORGED' });
    await expectLedgerBalanced(stack.t.app);
  });
});
