import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { Wallet, verifyMessage } from 'ethers';
import { blockNumber, mine, revertTo, rpc, snapshot } from '@app/chain';
import { buildServer } from '../src/app';
import { deposits, operatorAudit, unclaimedTransfers, watcherCursor } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { call, register } from './helpers';
import { devWallet, providerFor, sendEth, sendToken, userWithWallet } from './deposit-helpers';
import { ETH, USDT, expectLedgerBalanced, moneyStack, operator, operatorHeaders, testOperator } from './money-helpers';

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
const opKey = async () => operatorHeaders(await testOperator(stack.t.app));

/** The id `unclaimed list` shows for a transaction. */
async function unclaimedId(hash: string): Promise<string> {
  const listed = await operator(stack.t.app, 'unclaimed', 'list', '--json');
  const { items } = JSON.parse(listed.out) as { items: { id: number; transaction: string }[] };
  const transfer = items.find((i) => i.transaction === hash.toLowerCase());
  if (!transfer) throw new Error(`${hash} is not listed:\n${listed.out}`);
  return String(transfer.id);
}

/** The claim message `unclaimed message` prints, signed by `signer`: the assign command's flags. */
async function claimProof(id: string, account: string, pool: string, signer: { signMessage: (m: string) => Promise<string> }) {
  const printed = await operator(stack.t.app, 'unclaimed', 'message', id, account, pool);
  expect(printed.code).toBe(0);
  const message = printed.out.slice(printed.out.indexOf('\n\n') + 2);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'claim-')), 'message.txt');
  writeFileSync(file, `${message}\n`);
  return ['--message-file', file, '--signature', await signer.signMessage(message)];
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

  it('keeps a transfer from an unknown wallet as unclaimed; the operator assigns it with the sender\'s signed word', async () => {
    const stranger = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
    await stack.chain.fund(stranger.address, { eth: '5' });
    const hash = await sendEth(stranger, LOCAL_POOL_ADDRESSES.coin, ETH);
    expect((await watch()).unclaimed).toBe(1);
    const id = await unclaimedId(hash);
    const owner = await userWithWallet(stack.t.app, devWallet(stack.chain.rpcUrl, 2));
    const proof = await claimProof(id, owner.email, 'coin', stranger);
    expect(await operator(stack.t.app, 'unclaimed', 'assign', id, owner.email, 'coin', ...proof)).toMatchObject({ code: 0 });
    expect(await operator(stack.t.app, 'unclaimed', 'assign', id, owner.email, 'coin', ...proof)).toMatchObject({ code: 2, out: expect.stringMatching(/already/) });
    await mine(stack.chain.rpcUrl, 1);
    await stack.t.app.services.depositJob.tick();
    expect((await rowsOf(hash))[0]).toMatchObject({ status: 'credited', userId: owner.id });
    await expectLedgerBalanced(stack.t.app);
  });

  it('finding 12: an unclaimed transfer goes only to the account its sending wallet signed for, and the proof is in the audit row', async () => {
    const sender = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
    await stack.chain.fund(sender.address, { eth: '5' });
    const hash = await sendEth(sender, LOCAL_POOL_ADDRESSES.coin, 2n * ETH);
    await watch();
    const id = await unclaimedId(hash);
    const owner = await register(stack.t.app);
    const someoneElse = await register(stack.t.app);
    const refused = (r: { code: number; out: string }, why: RegExp) => {
      expect(r.code).toBe(2);
      expect(r.out).toMatch(why);
    };
    // The operator's word alone: refused by the command line, and by the API.
    refused(await operator(stack.t.app, 'unclaimed', 'assign', id, someoneElse.email, 'coin'), /--message-file/);
    const bare = await call(stack.t.app, 'POST', `/api/v1/operator/unclaimed/${id}/assign`, { headers: await opKey(), body: { account: someoneElse.email, pool: 'coin' } });
    expect(bare.status).toBe(400);
    // The right message signed by another wallet (the operator's own, say).
    refused(await operator(stack.t.app, 'unclaimed', 'assign', id, someoneElse.email, 'coin', ...(await claimProof(id, someoneElse.email, 'coin', Wallet.createRandom()))), /not signed by the sending wallet/);
    // The sender's signature for the owner, presented for another account.
    const forOwner = await claimProof(id, owner.email, 'coin', sender);
    refused(await operator(stack.t.app, 'unclaimed', 'assign', id, someoneElse.email, 'coin', ...forOwner), /does not name this transfer/);
    expect(await rowsOf(hash)).toHaveLength(0);

    expect(await operator(stack.t.app, 'unclaimed', 'assign', id, owner.email, 'coin', ...forOwner)).toMatchObject({ code: 0 });
    expect((await rowsOf(hash))[0]).toMatchObject({ userId: (owner.user as { id: string }).id, amount: String(2n * ETH), pool: 'coin' });
    const [row] = await stack.t.app.services.db.select().from(operatorAudit).where(and(eq(operatorAudit.action, 'unclaimed.assign'), eq(operatorAudit.target, id)));
    const message = readFileSync(forOwner[1]!, 'utf8').trimEnd();
    expect(row?.after).toMatchObject({ userId: (owner.user as { id: string }).id, proof: { signer: sender.address.toLowerCase(), message, signature: forOwner[3] } });
    expect(verifyMessage(message, forOwner[3]!)).toBe(sender.address);
  });

  it('an unclaimed row leaves the list once its owner reported the transfer', async () => {
    const wallet = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
    await stack.chain.fund(wallet.address, { eth: '5' });
    const hash = await sendEth(wallet, LOCAL_POOL_ADDRESSES.coin, ETH);
    await watch();
    const id = await unclaimedId(hash);
    // The sender signs up afterwards, links that wallet and reports the transfer from the browser.
    const u = await userWithWallet(stack.t.app, wallet);
    const report = await call(stack.t.app, 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool: 'coin', currency: 'ETH', amount: String(ETH), transaction: hash } });
    expect(report.status).toBe(200);
    expect((await operator(stack.t.app, 'unclaimed', 'list')).out).not.toContain(hash.toLowerCase());
    const [left] = await stack.t.app.services.db.select().from(unclaimedTransfers).where(eq(unclaimedTransfers.id, Number(id)));
    expect(left).toMatchObject({ status: 'reported', depositId: (await rowsOf(hash))[0]!.id });
    // Nor can the operator place it a second time.
    expect((await operator(stack.t.app, 'unclaimed', 'message', id, u.email, 'coin')).out).toMatch(/already reported/);
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
