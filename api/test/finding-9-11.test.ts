import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { voteTypes, apiMessages as M } from '@app/contracts';
import { projectEarnings } from '@app/web3';
import type { HDNodeWallet } from 'ethers';
import { daoProposals, users } from '../src/db/schema';
import { accrueDay } from '../src/interest';
import { rows } from '../src/db/rows';
import { checkLedger, post } from '../src/ledger';
import { setPrices } from '../src/pricing/prices';
import { call, newWallet, register, siweSign, startTestApp, uniqueEmail, type TestApp } from './helpers';
import { independentEarned, operatorHeaders, testOperator } from './money-helpers';

/**
 * Issue 21, findings 9 (the same dollars vote twice) and 11 (interest on the balance at midnight):
 * against the API and an in-memory database, the ledger written as the deposit and payout jobs
 * write it, every expected amount computed here.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0' });
  await setPrices(t.app.services.db, t.app.services.config.priceSource, { USDT: '1' });
});
afterAll(() => t?.close());

const db = () => t.app.services.db;
const minutes = (n: number) => new Date(Date.now() + n * 60_000);
let serial = 0;

/** A movement of a position as the jobs book it: a deposit from the pool's reserves, or a withdrawal's reservation. */
async function move(userId: string, pool: string, currency: string, amount: bigint, at: Date) {
  const other =
    amount > 0n
      ? { kind: 'reserves' as const, chainId: 1, address: '0x00000000000000000000000000000000000000cc', pool, currency }
      : { kind: 'withdrawals_in_flight' as const, currency };
  await post(db(), {
    reference: `test:finding:${++serial}`,
    kind: amount > 0n ? 'deposit' : 'withdrawal_reserve',
    at,
    postings: [
      { account: other, amount },
      { account: { kind: 'position', userId, pool, currency }, amount: -amount },
    ],
  });
}

describe('finding 9: a proposal takes its voting power from a settled moment', () => {
  const USD = 1_000_000n; // USDT base units per dollar at the test price of 1
  async function voter() {
    const r = await register(t.app, uniqueEmail('f9'));
    const id = r.user.id as string;
    const wallet = newWallet();
    expect((await call(t.app, 'POST', '/api/v1/connect-mm', { token: r.token, body: { id, metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) } })).status).toBe(200);
    return { id, token: r.token, wallet };
  }
  async function vote(v: { token: string; wallet: HDNodeWallet }, id: string, choice: number) {
    const message = { from: v.wallet.address, space: 'localhost', timestamp: Math.floor(Date.now() / 1000), proposal: id, choice, reason: '', app: 'invest-pools', metadata: '{}' };
    const signature = await v.wallet.signTypedData({ name: 'Invest Pools', version: '1', chainId: 1 }, { Vote: [...voteTypes.Vote] }, message);
    return call(t.app, 'POST', `/api/v1/dao/proposals/${id}/vote`, { token: v.token, body: { message, signature } });
  }
  const proposalBody = (snapshotAt: Date) => ({ title: 'Lower the dex fee', body: '', choices: ['For', 'Against'], startsAt: minutes(-10).toISOString(), endsAt: minutes(60).toISOString(), snapshotAt: snapshotAt.toISOString() });
  const operatorKey = async () => operatorHeaders(await testOperator(t.app));

  it('finding 9: a snapshot after the start is refused, a stored one keeps the vote closed until it has passed, and dollars that voted then moved do not vote again', async () => {
    const refused = await call(t.app, 'POST', '/api/v1/operator/dao/proposals', { headers: await operatorKey(), body: proposalBody(minutes(30)) });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('the snapshot must not be after the start');

    // The database refuses one too.
    await expect(db().insert(daoProposals).values({ title: 'x', body: '', choices: ['A', 'B'], startsAt: minutes(-10), endsAt: minutes(60), snapshotAt: minutes(30) })).rejects.toThrow();

    // A proposal stored before migration 0018, with its snapshot after its start: the same 100
    // dollars would vote from one account, move to another and vote again.
    await db().execute(sql`alter table dao_proposals drop constraint dao_proposals_snapshot_by_start`);
    const [legacy] = await db().insert(daoProposals).values({ title: 'Old', body: '', choices: ['For', 'Against'], startsAt: minutes(-10), endsAt: minutes(60), snapshotAt: minutes(30) }).returning();
    await db().execute(sql`alter table dao_proposals add constraint dao_proposals_snapshot_by_start check (snapshot_at <= starts_at) not valid`);
    const a = await voter();
    await move(a.id, 'stable', 'USDT', 100n * USD, minutes(-20));
    const early = await vote(a, String(legacy!.id), 1);
    expect(early.status).toBe(400);
    expect(early.body.message).toBe(M.proposalNotStarted);
    const list = await call(t.app, 'GET', '/api/v1/dao/proposals', { token: a.token });
    expect((list.body.items as Array<{ id: string; state: string }>).find((p) => p.id === String(legacy!.id))?.state).toBe('pending');

    // A proposal as the rule allows: dollars that voted and then moved to another account do not vote again.
    const created = await call(t.app, 'POST', '/api/v1/operator/dao/proposals', { headers: await operatorKey(), body: proposalBody(minutes(-10)) });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const b = await voter();
    expect((await vote(a, id, 1)).status).toBe(200);
    // A's 100 dollars leave and arrive at B after the snapshot.
    await move(a.id, 'stable', 'USDT', -100n * USD, minutes(-1));
    await move(b.id, 'stable', 'USDT', 100n * USD, minutes(-1));
    const again = await vote(b, id, 1);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(M.noVotingPower);
    const view = await call(t.app, 'GET', `/api/v1/dao/proposals/${id}`, { token: a.token });
    expect(view.body.totalPowerUsd).toBe('100');
  });
});

describe('finding 11: interest of a day is paid on the lowest balance held during it', () => {
  const R = { num: 12n, den: 100n }; // APY 0.12
  const earnedOn = async (pool: string, userId: string, day: string) => {
    const [r] = await rows<{ amount: string }>(db(), sql`select amount::text from interest_accruals where pool = ${pool} and user_id = ${userId}::uuid and day = ${day}::date`);
    return BigInt(r?.amount ?? '0');
  };
  async function holder() {
    const id = randomUUID();
    await db().insert(users).values({ id, email: `${id}@example.com`, referralCode: id.slice(0, 12) });
    return id;
  }
  /** One day's interest on a balance, from the e2e suite's own compounding (independent of the engine). */
  const oneDay = (balance: bigint) => independentEarned(balance, R.num, R.den, 1);

  it('finding 11: deposited at 23:59 and withdrawn at 00:01 earns nothing; a day with movements earns on its lowest point; a whole day compounds', async () => {
    const [d1, d2] = ['2025-06-01', '2025-06-02'];
    const b = 1_000_000_000n;
    const brief = await holder();
    await move(brief, 'dex', 'USDC', b, new Date(`${d1}T23:59:00Z`));
    await move(brief, 'dex', 'USDC', -b, new Date(`${d2}T00:01:00Z`));

    // Opening b; 06:00 −0.4b, 12:00 +0.7b, 18:00 −0.5b: the balance runs b, 0.6b, 1.3b, 0.8b.
    const busy = await holder();
    await move(busy, 'dex', 'USDC', b, new Date(`${d1}T00:00:00Z`));
    await move(busy, 'dex', 'USDC', -400_000_000n, new Date(`${d2}T06:00:00Z`));
    await move(busy, 'dex', 'USDC', 700_000_000n, new Date(`${d2}T12:00:00Z`));
    await move(busy, 'dex', 'USDC', -500_000_000n, new Date(`${d2}T18:00:00Z`));

    // Held from the first instant of d1 and never moved: the projection's constant balance.
    const still = await holder();
    await move(still, 'dex', 'USDC', b, new Date(`${d1}T00:00:00Z`));

    // Deposited at noon on d1: d1 earns nothing, d2 earns on the whole amount.
    const noon = await holder();
    await move(noon, 'dex', 'USDC', b, new Date(`${d1}T12:00:00Z`));

    for (const day of [d1, d2]) expect((await accrueDay(db(), 'dex', day, '0.12')).created).toBe(true);

    expect(await earnedOn('dex', brief, d1)).toBe(0n);
    expect(await earnedOn('dex', brief, d2)).toBe(0n);

    const busyD1 = oneDay(b);
    expect(await earnedOn('dex', busy, d1)).toBe(busyD1);
    // d2's lowest point: the opening (b and d1's interest) less 0.4b.
    expect(await earnedOn('dex', busy, d2)).toBe(oneDay(b + busyD1 - 400_000_000n));

    const stillTotal = (await earnedOn('dex', still, d1)) + (await earnedOn('dex', still, d2));
    expect(stillTotal).toBe(independentEarned(b, R.num, R.den, 2));
    expect(stillTotal).toBe(projectEarnings(b, '0.12', 2));

    expect(await earnedOn('dex', noon, d1)).toBe(0n);
    expect(await earnedOn('dex', noon, d2)).toBe(oneDay(b));

    // Run again, and by two callers at once: nothing more is credited.
    const again = await Promise.all([accrueDay(db(), 'dex', d2, '0.12'), accrueDay(db(), 'dex', d2, '0.12')]);
    expect(again.map((r) => r.created)).toEqual([false, false]);
    expect(await earnedOn('dex', busy, d2)).toBe(oneDay(b + busyD1 - 400_000_000n));
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('finding 11: a day split into parts gives each position its own lowest balance', async () => {
    const day = '2025-07-01';
    const held: { id: string; low: bigint }[] = [];
    for (let i = 0; i < 6; i++) {
      const id = await holder();
      const b = 2_000_000_000n + BigInt(i) * 1_234_567n;
      await move(id, 'coin', 'ETH', b, new Date(`${day}T00:00:00Z`));
      // Every other position dips by a tenth (and a little) during the day, then more than recovers.
      const dip = i % 2 ? b / 10n + BigInt(i) : 0n;
      if (dip) {
        await move(id, 'coin', 'ETH', -dip, new Date(`${day}T09:00:00Z`));
        await move(id, 'coin', 'ETH', 3n * dip, new Date(`${day}T10:00:00Z`));
      }
      held.push({ id, low: b - dip });
    }
    expect((await accrueDay(db(), 'coin', day, '0.12', 3)).created).toBe(true);
    for (const h of held) expect(await earnedOn('coin', h.id, day)).toBe(oneDay(h.low));
  });
});
