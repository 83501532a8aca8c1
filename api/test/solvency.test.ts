// Proof of solvency (issue 24) against the real API, database and anvil: investors deposit,
// interest accrues, one asks for a withdrawal, a referrer earns rewards; a snapshot is taken and
// every user's proof verifies, the tree rebuilds from the stored leaves with an implementation of
// the format written here on node:crypto, and the reserves are the chain's at the snapshot block.
import { createHash, createHmac } from 'node:crypto';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { Contract, Wallet, verifyMessage } from 'ethers';
import { LOCAL_COLD, LOCAL_FLOAT } from '@app/chain';
import { apiMessages as M, apiMessagesRu as R } from '@app/contracts';
import { LOCAL_SOLVENCY_SIGNER, verifyProof, type Proof } from '@app/solvency';
import { localKeys } from '@app/signer';
import { ERC20_ABI, TOKENS } from '@app/web3';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { rows } from '../src/db/rows';
import { checkLedger } from '../src/ledger';
import { rpcChainReader } from '../src/chain';
import { dailySnapshot, snapshotSettings, takeSnapshot } from '../src/solvency';
import { call, register, siweSign } from './helpers';
import { providerFor, sendEth, sendToken, userWithWallet } from './deposit-helpers';
import { ETH, USDT, addDays, expectLedgerBalanced, independentEarned, moneyStack, operator, today } from './money-helpers';

/** The deal's files this process has open (Linux's /proc; elsewhere none can be seen). */
const openDealFiles = () =>
  existsSync('/proc/self/fd')
    ? readdirSync('/proc/self/fd').flatMap((fd) => {
        try {
          const target = readlinkSync(`/proc/self/fd/${fd}`);
          return target.includes('solvency-deal-') ? [target] : [];
        } catch {
          return [];
        }
      })
    : [];

jest.setTimeout(180_000);
const stack = moneyStack();
const app = () => stack.t.app;

type Investor = Awaited<ReturnType<typeof userWithWallet>>;

async function investor(funding: { eth: string; tokens?: Record<string, string> }): Promise<Investor> {
  const wallet = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
  await stack.chain.fund(wallet.address, funding);
  return userWithWallet(app(), wallet);
}

async function deposit(u: Investor, pool: 'stable' | 'coin', currency: 'USDT' | 'ETH', amount: bigint) {
  const tx = currency === 'ETH' ? await sendEth(u.wallet, LOCAL_POOL_ADDRESSES[pool], amount) : await sendToken(u.wallet, 'USDT', LOCAL_POOL_ADDRESSES[pool], amount);
  const r = await call(app(), 'POST', '/api/v1/dashboard/deposit', { token: u.token, body: { pool, currency, amount: String(amount), transaction: tx } });
  expect(r.status).toBe(200);
  await app().services.depositJob.tick();
}

// ---- The format on node:crypto, written from docs/proof-of-solvency.md, not from @app/solvency ----
const be = (v: bigint, bytes: number) => Buffer.from(v.toString(16).padStart(bytes * 2, '0'), 'hex');
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const subOf = (nonce: Buffer, snapshotId: number, userId: string) => sha(Buffer.from('pol-v1/sub'), nonce, be(BigInt(snapshotId), 8), Buffer.from(userId.replace(/-/g, ''), 'hex'));
const leafOf = (sub: Buffer, part: number, sums: bigint[]) =>
  createHmac('sha256', sub).update(Buffer.concat([Buffer.from('pol-v1/leaf'), be(BigInt(part), 4), ...sums.map((v) => be(v, 32))])).digest();
const padOf = (snapshotId: number, index: number) => sha(Buffer.from('pol-v1/pad'), be(BigInt(snapshotId), 8), be(BigInt(index), 8));
type N = { hash: Buffer; sums: bigint[] };
const nodeOf = (l: N, r: N): N => ({
  hash: sha(Buffer.from('pol-v1/node'), l.hash, ...l.sums.map((v) => be(v, 32)), r.hash, ...r.sums.map((v) => be(v, 32))),
  sums: l.sums.map((v, i) => v + r.sums[i]!),
});

let signer: string;
let day0: string;
let alice: Investor;
let bob: Investor;
let carol: Investor;
let referrer: { id: string; token: string };
const expected = new Map<string, Record<string, bigint>>();
let snapshotId: number;

const proofFor = async (token: string, query = '', lang?: string) =>
  call(app(), 'GET', `/api/v1/solvency/proof${query}`, { token, ...(lang ? { headers: { 'accept-language': lang } } : {}) });

beforeAll(async () => {
  day0 = today();
  expect(await operator(app(), 'apy', 'set', 'stable', '0.05', '--from', day0)).toMatchObject({ code: 0 });
  expect(await operator(app(), 'apy', 'set', 'coin', '0.05', '--from', day0)).toMatchObject({ code: 0 });
  alice = await investor({ eth: '1', tokens: { USDT: '1000' } });
  bob = await investor({ eth: '3' });
  const r = await register(app());
  referrer = { id: (r.user as { id: string }).id, token: r.token };
  const [code] = await rows<{ code: string }>(app().services.db, sql`select referral_code as code from users where id = ${referrer.id}`);
  // Carol came through the referrer's invite: her interest earns the referrer rewards.
  const carolWallet = new Wallet(Wallet.createRandom().privateKey, providerFor(stack.chain.rpcUrl));
  await stack.chain.fund(carolWallet.address, { eth: '1', tokens: { USDT: '500' } });
  const carolReg = await register(app(), undefined, { invite: code!.code });
  const carolId = (carolReg.user as { id: string }).id;
  expect((await call(app(), 'POST', '/api/v1/connect-mm', { token: carolReg.token, body: { id: carolId, metaMaskAddress: carolWallet.address, ...(await siweSign(app(), carolWallet)) } })).status).toBe(200);
  carol = { ...carolReg, id: carolId, wallet: carolWallet } as unknown as Investor;

  await deposit(alice, 'stable', 'USDT', 1000n * USDT);
  await deposit(bob, 'coin', 'ETH', 2n * ETH);
  await deposit(carol, 'stable', 'USDT', 500n * USDT);
  expect(await operator(app(), 'accrue', '--until', addDays(day0, 3))).toMatchObject({ code: 0 });
  // Bob asks for part of his ETH: it is in flight (the payout job does not run here), still owed to him.
  const w = await call(app(), 'POST', '/api/v1/dashboard/withdraw', { token: bob.token, body: { pool: 'coin', currency: 'ETH', amount: String(ETH / 2n) } });
  expect(w.status).toBe(200);
  await expectLedgerBalanced(app());

  // What each is owed, computed here: principal plus three days of 5 % a year, by the documented formula.
  expected.set(alice.id, { USDT: 1000n * USDT + independentEarned(1000n * USDT, 5n, 100n, 3) });
  expected.set(bob.id, { ETH: 2n * ETH + independentEarned(2n * ETH, 5n, 100n, 3) });
  expected.set(carol.id, { USDT: 500n * USDT + independentEarned(500n * USDT, 5n, 100n, 3) });
  const rewards = await rows<{ amount: string }>(app().services.db, sql`select coalesce(sum(amount), 0)::text as amount from referral_day_rewards where user_id = ${referrer.id} and currency = 'USDT'`);
  expect(BigInt(rewards[0]!.amount)).toBeGreaterThan(0n);
  expected.set(referrer.id, { USDT: BigInt(rewards[0]!.amount) });

  signer = (await call(app(), 'GET', '/api/v1/solvency/signer')).body.address as string;
  const taken = await operator(app(), 'solvency', 'snapshot');
  if (taken.code !== 0) throw new Error(`solvency snapshot failed: ${taken.out}`);
  snapshotId = Number(/snapshot #(\d+)/.exec(taken.out)![1]);
});

describe('proof of solvency', () => {
  it('every user\'s proof verifies, with the signer published apart, and adds up to what the test computed they are owed', async () => {
    // The published signer is the signer process's solvency key (the API holds none).
    expect(signer).toBe(new Wallet(localKeys().solvency).address);
    expect(signer).toBe(LOCAL_SOLVENCY_SIGNER);
    for (const { id, token } of [alice, bob, carol, referrer]) {
      const r = await proofFor(token);
      expect(r.status).toBe(200);
      const proof = r.body as unknown as Proof;
      expect(proof.header.snapshotId).toBe(snapshotId);
      expect(proof.parts.length).toBeGreaterThanOrEqual(2);
      const owed = expected.get(id)!;
      const verdict = verifyProof(JSON.parse(JSON.stringify(proof)), {
        signer,
        expectedBalances: proof.header.currencies.map((c) => owed[c] ?? 0n),
      });
      expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    }
  });

  it('the header\'s sums are the ledger\'s liabilities (positions, in flight, referral rewards payable) per currency', async () => {
    const { header } = (await call(app(), 'GET', `/api/v1/solvency/${snapshotId}`)).body as { header: Proof['header'] };
    const ledger = await checkLedger(app().services.db);
    const owed = new Map(ledger.currencies.map((c) => [c.currency, BigInt(c.positions) + BigInt(c.inFlight) + BigInt(c.referralPayable)]));
    expect([...header.currencies].sort()).toEqual(['ETH', 'USDT']);
    header.currencies.forEach((c, i) => expect(BigInt(header.sums[i]!)).toBe(owed.get(c)));
    // And the same total is what the test computed each user is owed.
    header.currencies.forEach((c, i) => expect(BigInt(header.sums[i]!)).toBe([...expected.values()].reduce((s, v) => s + (v[c] ?? 0n), 0n)));
  });

  it('the tree rebuilds from the stored leaves with an independent implementation (node:crypto), leaves recomputed from each nonce', async () => {
    const db = app().services.db;
    const { header } = (await call(app(), 'GET', `/api/v1/solvency/${snapshotId}`)).body as { header: Proof['header'] };
    const blocks = await rows<{ level: number; b: string; hashes: string; sums: string }>(
      db,
      sql`select level, block::text as b, encode(hashes, 'hex') as hashes, encode(sums, 'hex') as sums from solvency_blocks where snapshot_id = ${snapshotId} order by level, block`,
    );
    // Sixteen nodes a block, hashes end to end and sums node after node, each a u256be (fewer in a level of fewer).
    const stored = new Map<string, N>();
    for (const b of blocks) {
      const hashes = Buffer.from(b.hashes, 'hex');
      const sums = (b.sums.match(/.{64}/g) ?? []).map((word) => BigInt(`0x${word}`));
      expect(sums).toHaveLength((hashes.length / 32) * 2);
      const size = hashes.length / 32;
      for (let i = 0; i < size; i++) stored.set(`${b.level}:${Number(b.b) * size + i}`, { hash: hashes.subarray(i * 32, i * 32 + 32), sums: sums.slice(i * 2, i * 2 + 2) });
    }
    const parts = await rows<{ user_id: string; part: number; leaf_index: string; nonce: string }>(
      db,
      sql`select p.user_id::text, p.part, p.leaf_index::text, encode(n.nonce, 'hex') as nonce from solvency_parts p join solvency_nonces n using (user_id) where p.snapshot_id = ${snapshotId}`,
    );
    const real = new Set<number>();
    for (const p of parts) {
      const i = Number(p.leaf_index);
      real.add(i);
      const leaf = stored.get(`0:${i}`)!;
      expect(leafOf(subOf(Buffer.from(p.nonce, 'hex'), snapshotId, p.user_id), p.part, leaf.sums).equals(leaf.hash)).toBe(true);
    }
    // Every other leaf is padding, stored or not.
    const level: N[] = [...Array(header.leafCount).keys()].map((i) => (real.has(i) ? stored.get(`0:${i}`)! : { hash: padOf(snapshotId, i), sums: [0n, 0n] }));
    level.forEach((l, i) => {
      const s = stored.get(`0:${i}`);
      if (real.has(i) || !s) return;
      expect(s.hash.equals(l.hash)).toBe(true);
      expect(s.sums).toEqual([0n, 0n]);
    });
    let nodes = level;
    for (let l = 0; nodes.length > 1; l++) {
      // Every node stored at this level is the one the independent fold gives.
      nodes.forEach((n, i) => {
        const s = stored.get(`${l}:${i}`);
        if (s) expect([s.hash.toString('hex'), s.sums]).toEqual([n.hash.toString('hex'), n.sums]);
      });
      nodes = nodes.flatMap((_, i) => (i % 2 ? [] : [nodeOf(nodes[i]!, nodes[i + 1]!)]));
    }
    expect(`0x${nodes[0]!.hash.toString('hex')}`).toBe(header.root);
    expect(nodes[0]!.sums.map(String)).toEqual(header.sums);
    // Four users, each split in two or three parts.
    expect(new Set(parts.map((p) => p.user_id)).size).toBe(4);
    expect(parts.length).toBeGreaterThanOrEqual(8);
  });

  it('the public snapshot: signed header, reserves equal to the chain\'s at the snapshot block, each address proving control; no user named', async () => {
    const list = await call(app(), 'GET', '/api/v1/solvency');
    expect(list.status).toBe(200);
    const snap = (list.body.items as { header: Proof['header']; signature: string; signer: string; addresses: { address: string; role: string; message: string; signature: string | null }[]; reserves: { address: string; currency: string; balance: string }[] }[])[0]!;
    expect(snap.header.snapshotId).toBe(snapshotId);
    expect(verifyMessage(JSON.stringify(snap.header), snap.signature)).toBe(signer);
    // Signed by the signer process, which audited it (issue 26): the API holds no key.
    const signed = stack.t.signer!.log().filter((e) => e.detail.kind === 'solvency');
    expect(signed.map((e) => [e.event, e.detail.snapshotId, e.detail.root])).toContainEqual(['signed', snapshotId, snap.header.root]);
    const title = app().services.config.brands.defaultBrand.title;
    // The deposit addresses and the float prove control through the signer, which holds their keys;
    // the cold address, whose key it does not hold, awaits its proof (solvency-attest.test.ts) and is not counted.
    expect(snap.addresses.map((a) => a.address.toLowerCase()).sort()).toEqual([...Object.values(LOCAL_POOL_ADDRESSES), LOCAL_FLOAT, LOCAL_COLD, new Wallet(localKeys().treasury).address.toLowerCase()].sort());
    for (const a of snap.addresses) {
      expect(a.message).toBe(`${title} solvency: ${a.address} belongs to the operator at snapshot ${snapshotId}`);
      if (a.role === 'cold') expect(a.signature).toBeNull();
      else expect(verifyMessage(a.message, a.signature!)).toBe(a.address);
    }
    expect(snap.reserves.some((r) => r.address.toLowerCase() === LOCAL_COLD)).toBe(false);
    const provider = providerFor(stack.chain.rpcUrl);
    const block = snap.header.blockNumber;
    expect(block).toBeLessThanOrEqual((await provider.getBlockNumber()) - app().services.config.deposits.confirmations);
    expect((await provider.getBlock(block))!.hash).toBe(snap.header.blockHash);
    for (const r of snap.reserves) {
      const onChain =
        r.currency === 'ETH'
          ? await provider.getBalance(r.address, block)
          : ((await new Contract(TOKENS[1][r.currency as 'USDT']!.address, ERC20_ABI, provider).getFunction('balanceOf')(r.address, { blockTag: block })) as bigint);
      expect(r.balance).toBe(String(onChain));
    }
    const text = JSON.stringify(list.body);
    for (const u of [alice, bob, carol]) {
      expect(text).not.toContain(u.id);
      expect(text).not.toContain(u.email);
      expect(text.toLowerCase()).not.toContain(u.wallet.address.toLowerCase());
    }
    expect(text).not.toContain(referrer.id);
  });

  it('bad input: an unknown snapshot, a user not in it, a malformed number: a clear error in English and Russian, never a 500', async () => {
    const unknown = await proofFor(alice.token, '?snapshot=999');
    expect(unknown).toMatchObject({ status: 404, body: { message: M.solvencyUnknownSnapshot } });
    expect((await proofFor(alice.token, '?snapshot=999', 'ru')).body.message).toBe(R.solvencyUnknownSnapshot);
    expect((await call(app(), 'GET', '/api/v1/solvency/999')).body.message).toBe(M.solvencyUnknownSnapshot);
    const fresh = await register(app());
    expect(await proofFor(fresh.token)).toMatchObject({ status: 404, body: { message: M.solvencyNotIncluded } });
    expect((await proofFor(fresh.token, '', 'ru')).body.message).toBe(R.solvencyNotIncluded);
    for (const q of ['?snapshot=abc', '?snapshot=-1', '?snapshot=0', '?snapshot=1.5', '?snapshot=99999999999999999999']) {
      expect((await proofFor(alice.token, q)).status).toBe(400);
    }
    expect((await call(app(), 'GET', '/api/v1/solvency/abc')).status).toBe(400);
    expect((await call(app(), 'GET', '/api/v1/solvency/proof')).status).toBe(401);
    // The user's nonce is theirs for life and the same in every proof.
    const mine = await call(app(), 'GET', '/api/v1/solvency/mine', { token: alice.token });
    expect(mine.body.nonce).toBe((await proofFor(alice.token)).body.nonce);
    expect(mine.body.snapshots).toEqual([expect.objectContaining({ snapshotId })]);
  });

  it('a snapshot without the signer\'s solvency key is refused and stores nothing', async () => {
    const db = app().services.db;
    const [before] = await rows<{ s: number }>(db, sql`select count(*)::int as s from solvency_snapshots`);
    await expect(takeSnapshot(db, app().services.chain, { ...(await snapshotSettings(app().services)), solvency: null }, { actor: 'test' })).rejects.toMatchObject({ statusCode: 503, message: M.solvencyNoKey });
    expect((await rows<{ s: number }>(db, sql`select count(*)::int as s from solvency_snapshots`))[0]).toEqual(before);
  });

  it('a snapshot while the chain is unreachable is refused and stores nothing', async () => {
    const db = app().services.db;
    const count = async () => (await rows<{ s: number; n: number }>(db, sql`select (select count(*)::int from solvency_snapshots) as s, (select count(*)::int from solvency_blocks) as n`))[0];
    const before = await count();
    const dead = rpcChainReader('http://127.0.0.1:9', 2000);
    await expect(takeSnapshot(db, dead, await snapshotSettings(app().services), { actor: 'test' })).rejects.toMatchObject({ statusCode: 503, message: M.solvencyChainUnreachable });
    expect(await count()).toEqual(before);
    const [refused] = await rows<{ after: { reason: string } }>(db, sql`select after from operator_audit where action = 'solvency.refused' order by id desc limit 1`);
    expect(refused!.after.reason).toContain('chain unreachable');
  });

  it('a negative liability, or liabilities that do not add up to the ledger\'s, abort the snapshot and store nothing', async () => {
    const db = app().services.db;
    const count = async () => (await rows<{ s: number; b: number; p: number }>(db, sql`select (select count(*)::int from solvency_snapshots) as s, (select count(*)::int from solvency_blocks) as b, (select count(*)::int from solvency_parts) as p`))[0];
    const before = await count();
    const attempt = async (amount: bigint, code: string) => {
      // A row no ledger posting backs: what a fault in the books would look like to the snapshot.
      await db.execute(sql`insert into referral_day_rewards (user_id, day, currency, status, amount) values (${referrer.id}, '2000-01-01', 'USDT', 'earned', ${String(amount)})`);
      try {
        await expect(takeSnapshot(db, app().services.chain, await snapshotSettings(app().services), { actor: 'test' })).rejects.toMatchObject({ code });
      } finally {
        await db.execute(sql`delete from referral_day_rewards where user_id = ${referrer.id} and day = '2000-01-01'`);
      }
    };
    await attempt(-(expected.get(referrer.id)!.USDT! + 5n), 'SOLVENCY_NEGATIVE');
    await attempt(-5n, 'SOLVENCY_UNBALANCED');
    await attempt(5n, 'SOLVENCY_UNBALANCED');
    // A pool's kept total drifted from its positions (the ledger's liabilities start from the kept totals): the users' vectors, summed apart, no longer match.
    const [kept] = await rows<{ pool: string; currency: string }>(db, sql`select pool, currency from pool_totals where balance <> 0 order by pool, currency limit 1`);
    await db.execute(sql`update pool_totals set balance = balance - 5 where pool = ${kept!.pool} and currency = ${kept!.currency}`);
    try {
      await expect(takeSnapshot(db, app().services.chain, await snapshotSettings(app().services), { actor: 'test' })).rejects.toMatchObject({ code: 'SOLVENCY_UNBALANCED' });
    } finally {
      await db.execute(sql`update pool_totals set balance = balance + 5 where pool = ${kept!.pool} and currency = ${kept!.currency}`);
    }
    // A referrer's kept reward total drifted from their day rows (the users' rewards owed are read from the kept totals):
    // their vector no longer adds up to the ledger's rewards payable.
    const [owed] = await rows<{ status: string }>(db, sql`select status from referral_reward_totals where user_id = ${referrer.id} and currency = 'USDT' and status in ('vesting', 'earned') and amount > 0 limit 1`);
    await db.execute(sql`update referral_reward_totals set amount = amount + 5 where user_id = ${referrer.id} and currency = 'USDT' and status = ${owed!.status}`);
    try {
      await expect(takeSnapshot(db, app().services.chain, await snapshotSettings(app().services), { actor: 'test' })).rejects.toMatchObject({ code: 'SOLVENCY_UNBALANCED' });
    } finally {
      await db.execute(sql`update referral_reward_totals set amount = amount - 5 where user_id = ${referrer.id} and currency = 'USDT' and status = ${owed!.status}`);
    }
    expect(await count()).toEqual(before);
    // The shuffle's file went with each refusal: this process holds none open.
    expect(openDealFiles()).toEqual([]);
  });

  it('the daily snapshot runs once per day, however often and wherever it is run, and only after that day\'s interest', async () => {
    const s = app().services;
    expect(await dailySnapshot(s, addDays(day0, 10))).toEqual({ skipped: expect.stringContaining('interest') });
    const day = addDays(day0, 3);
    const runs = await Promise.allSettled([dailySnapshot(s, day), dailySnapshot(s, day)]);
    expect(runs.filter((r) => r.status === 'fulfilled' && 'id' in r.value)).toHaveLength(1);
    expect(await dailySnapshot(s, day)).toEqual({ skipped: expect.stringContaining('taken') });
    const [n] = await rows<{ n: number }>(s.db, sql`select count(*)::int as n from solvency_snapshots where day = ${day}`);
    expect(n!.n).toBe(1);
    const listed = await operator(app(), 'solvency', 'list');
    expect(listed.code).toBe(0);
    const shown = await operator(app(), 'solvency', 'show', String(snapshotId));
    expect(shown.out).toContain(`snapshot #${snapshotId}`);
    expect((await operator(app(), 'solvency', 'show', '999')).out).toContain(M.solvencyUnknownSnapshot);
    const steps = await rows<{ action: string }>(s.db, sql`select distinct action from operator_audit where action like 'solvency.%' order by 1`);
    expect(steps.map((r) => r.action)).toEqual(['solvency.liabilities', 'solvency.refused', 'solvency.snapshot', 'solvency.tree']);
  });
});
