import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { ActivityResponse, BalanceResponse, CabinetSummary, DashboardPoolResponse, YieldResponse, DaoPoolsResponse, PoolGraphResponse } from '@app/contracts';
import { deposits, withdrawals } from '../src/db/schema';
import { depositTransaction } from '../src/deposits/credit';
import { rows } from '../src/db/rows';
import { post } from '../src/ledger';
import { reserveTransaction } from '../src/payouts/requests';
import { setPrices } from '../src/pricing/prices';
import { dailyRate } from '@app/web3/testing';
import { call, register, startTestApp, type TestApp } from './helpers';
import { ETH, USDT, addDays, expectLedgerBalanced, operator, today } from './money-helpers';

/**
 * Issue 21, "Data honesty": every figure an investor sees comes from the books. Deposits and a
 * withdrawal are booked on chosen days (as the deposit job and a withdrawal request book them),
 * days are accrued by the operator, and every figure is checked against the test's own computation.
 */
jest.setTimeout(120_000);
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await setPrices(t.app.services.db, t.app.services.config.priceSource, { ETH: '3000', USDT: '1' });
});
afterAll(() => t?.close());

const S = 10n ** 30n;
const DAYS = 40;
const get = async <T>(url: string, token?: string) => {
  const r = await call(t.app, 'GET', url, token ? { token } : {});
  expect(r.status).toBe(200);
  return r.body as T;
};
/** Cents "1234.05" of cents, independent of the server's helpers. */
const dollars = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

let tx = 0;
async function credit(userId: string, currency: 'ETH' | 'USDT', amount: bigint, at: Date) {
  const txHash = `0x${(++tx).toString(16).padStart(64, 'e')}`;
  const toAddress = '0x0e9971c0005d91336c1441b8f03c1c4fe5fb4584';
  const [d] = await t.app.services.db.insert(deposits).values({ userId, pool: 'dex', currency, amount: amount.toString(), txHash, toAddress, status: 'credited', creditedAt: at }).returning();
  await post(t.app.services.db, depositTransaction({ id: d!.id, user_id: userId, pool: 'dex', currency, amount: amount.toString(), chain_id: 1, tx_hash: txHash, log_index: 0, to_address: toAddress }, at));
}

const day0 = today();
const noon = (day: string) => new Date(`${day}T12:00:00Z`);
let alice: { id: string; token: string };
/** The test's own books: each day's closing balance of each position, interest of the day included. */
const closing: { eth: bigint[]; usdt: bigint[]; ethInterest: bigint[] } = { eth: [], usdt: [], ethInterest: [] };

describe('data honesty', () => {
  it('data honesty: a pool with no history shows none, and the DAO shows no made-up value locked', async () => {
    for (const pool of ['stable', 'coin', 'dex']) {
      expect(await get(`/api/v1/pools/${pool}/graph`)).toEqual({ pool, range: 'All', points: [] });
    }
    const { token } = await register(t.app);
    const dao = await get<DaoPoolsResponse>('/api/v1/dao/pools', token);
    expect(dao.items.map((p) => [p.pool, p.tvlUsd])).toEqual([['stable', '0.00'], ['coin', '0.00'], ['dex', '0.00']]);
    const [made] = await rows<{ t: string | null }>(t.app.services.db, sql`select to_regclass('pool_graph')::text as t`);
    expect(made!.t).toBeNull();
  });

  it("data honesty: the pool history is built from the interest days and the ledger, equal to the test's own computation; the ranges keep the last days; the DAO's pool values are the TVL cards' books", async () => {
    // 10 % from the first day, 20 % from day 20, both set before any day is accrued.
    expect(await operator(t.app, 'apy', 'set', 'dex', '0.1', '--from', day0)).toMatchObject({ code: 0 });
    expect(await operator(t.app, 'apy', 'set', 'dex', '0.2', '--from', addDays(day0, 20))).toMatchObject({ code: 0 });
    const a = await register(t.app);
    const b = await register(t.app);
    alice = { id: a.user.id as string, token: a.token };
    // Alice: 1 ETH on day 0, a withdrawal of 0.25 ETH requested on day 10. Bob: 100 USDT on day 5.
    await credit(alice.id, 'ETH', ETH, noon(day0));
    await credit(b.user.id as string, 'USDT', 100n * USDT, noon(addDays(day0, 5)));
    const [w] = await t.app.services.db.insert(withdrawals).values({ userId: alice.id, pool: 'dex', currency: 'ETH', amount: String(ETH / 4n), createdAt: noon(addDays(day0, 10)) }).returning();
    await post(t.app.services.db, reserveTransaction({ id: w!.id, userId: alice.id, pool: 'dex', currency: 'ETH', amount: String(ETH / 4n) }, noon(addDays(day0, 10))));
    expect(await operator(t.app, 'accrue', '--until', addDays(day0, DAYS - 1))).toMatchObject({ code: 0 });
    await expectLedgerBalanced(t.app);

    // The documented engine, computed here: each day, each position earns floor(its lowest balance
    // during the day × r). A deposit at noon leaves the day's opening as its lowest; a withdrawal
    // requested at noon lowers it from then on.
    const r10 = dailyRate(1n, 10n);
    const r20 = dailyRate(2n, 10n);
    let eth = 0n;
    let usdt = 0n;
    const lower = (a: bigint, b: bigint) => (a < b ? a : b);
    const expected: PoolGraphResponse['points'] = [];
    for (let d = 0; d < DAYS; d++) {
      const [openEth, openUsdt] = [eth, usdt];
      if (d === 0) eth += ETH;
      if (d === 5) usdt += 100n * USDT;
      if (d === 10) eth -= ETH / 4n;
      const rate = d < 20 ? r10 : r20;
      const i = (lower(openEth, eth) * rate) / S;
      eth += i;
      usdt += (lower(openUsdt, usdt) * rate) / S;
      closing.eth.push(eth);
      closing.usdt.push(usdt);
      closing.ethInterest.push(i);
      // ETH at $3000, USDT at $1, each rounded down to the cent.
      const cents = (eth * 300_000n) / ETH + (usdt * 100n) / USDT;
      expected.push({ date: addDays(day0, d), apyBps: d < 20 ? 1000 : 2000, tvlUsd: dollars(cents) });
    }

    const all = await get<PoolGraphResponse>('/api/v1/pools/dex/graph');
    expect(all).toEqual({ pool: 'dex', range: 'All', points: expected });
    expect(await get('/api/v1/pools/dex/graph?range=30D')).toEqual({ pool: 'dex', range: '30D', points: expected.slice(-30) });
    for (const range of ['90D', '1Y'] as const) expect(await get(`/api/v1/pools/dex/graph?range=${range}`)).toEqual({ pool: 'dex', range, points: expected });
    const bad = await call(t.app, 'GET', '/api/v1/pools/dex/graph?range=7D');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields as object)).toEqual(['range']);
    // The other pools still have nothing: no positions, no history.
    expect((await get<PoolGraphResponse>('/api/v1/pools/coin/graph')).points).toEqual([]);

    // Value locked now: the last day's books (nothing moved since), the same on the TVL card and in the DAO.
    const now = expected[expected.length - 1]!.tvlUsd;
    const card = (await get<CabinetSummary>('/api/v1/cabinet/summary', alice.token)).pools.find((p) => p.pool === 'dex')!;
    expect(card.tvlUsd).toBe(now);
    const dao = (await get<DaoPoolsResponse>('/api/v1/dao/pools', alice.token)).items.find((p) => p.pool === 'dex')!;
    expect(dao).toEqual({ pool: 'dex', title: 'DEX pool', apyBps: 2000, tvlUsd: now });

    // Migration 0019 fills the days accrued before it from the ledger: the same rows the accrual writes.
    const db = t.app.services.db;
    const written = await rows(db, sql`select pool, day::text, currency, tvl::text from pool_days order by pool, day, currency`);
    // A row per currency held: ETH every day, USDT from day 5.
    expect(written.length).toBe(DAYS * 2 - 5);
    // Run on today's postings, which keep their time on their transaction only since 0041 (it proved the two equal).
    const backfill = readFileSync(join(__dirname, '../drizzle/0019_pool_history_from_books.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .find((q) => q.includes('INSERT INTO "pool_days"'))!
      .replace('(p."at" AT TIME ZONE', '(t."at" AT TIME ZONE');
    await db.execute(sql`delete from pool_days`);
    await db.execute(sql.raw(backfill));
    expect(await rows(db, sql`select pool, day::text, currency, tvl::text from pool_days order by pool, day, currency`)).toEqual(written);

    // A rerun of the days writes nothing new and changes nothing.
    expect(await operator(t.app, 'accrue', '--until', addDays(day0, DAYS - 1))).toMatchObject({ code: 0 });
    expect(await get('/api/v1/pools/dex/graph')).toEqual(all);
  });

  it('data honesty: one credit has one date everywhere: "Daily rewards: interest for D", the activity list, the CSV and the balance history date the same credit D', async () => {
    const last = addDays(day0, DAYS - 1);
    const summary = await get<CabinetSummary>('/api/v1/cabinet/summary', alice.token);
    expect(summary.dailyRewards).toEqual({ day: last, items: [{ pool: 'dex', currency: 'ETH', amount: String(closing.ethInterest[DAYS - 1]) }] });

    // The activity list: the newest credit is the same one, dated the same day.
    const page = await get<ActivityResponse>('/api/v1/cabinet/activity?size=5', alice.token);
    expect(page.items[0]).toMatchObject({ kind: 'interest', pool: 'dex', currency: 'ETH', amount: String(closing.ethInterest[DAYS - 1]), at: `${last}T00:00:00.000Z` });
    const every = await get<ActivityResponse>('/api/v1/cabinet/activity?size=100', alice.token);
    const credits = every.items.filter((i) => i.kind === 'interest').reverse();
    // Day 0, the deposit's own day, earned nothing: no credit.
    const earning = closing.ethInterest.map((amount, d) => [addDays(day0, d), String(amount)]).filter(([, amount]) => amount !== '0');
    expect(earning).toHaveLength(DAYS - 1);
    expect(credits.map((i) => [i.at.slice(0, 10), i.amount])).toEqual(earning);

    // The CSV: each credit on its day.
    const { csv } = await get<{ csv: string }>('/api/v1/cabinet/activity/export', alice.token);
    const lines = csv.trim().split('\r\n').filter((l) => l.includes(',interest,'));
    expect(lines.map((l) => l.split(',')[0])).toEqual(earning.map(([day]) => day));

    // The balance history: the balance at the end of each day includes that day's credit; no day after the last.
    const history = await get<BalanceResponse>('/api/v1/balance?pool=dex', alice.token);
    expect(history.items.map((i) => [i.date, i.balance])).toEqual(closing.eth.map((b, d) => [addDays(day0, d), String(b)]));
    expect((await get<BalanceResponse>('/api/v1/balance?pool=dex&to=9999-12-31', alice.token)).items).toEqual(history.items);
    const first = await get<BalanceResponse>(`/api/v1/balance?pool=dex&to=${day0}`, alice.token);
    expect(first.items).toEqual([{ date: day0, pool: 'dex', currency: 'ETH', amount: String(ETH), withdrawn: '0', balance: String(closing.eth[0]) }]);
  });

  it('data honesty: a future-dated APY change takes effect on its date through the one source', async () => {
    const asOf = (await get<CabinetSummary>('/api/v1/cabinet/summary', alice.token)).asOf;
    expect(asOf).toBe(addDays(day0, DAYS));
    expect(await operator(t.app, 'apy', 'set', 'coin', '0.3', '--from', addDays(asOf, 1))).toMatchObject({ code: 0 });

    /** The coin pool's APY on every page that shows it: the pool page, the yield list, the DAO and the dashboard's card. */
    const shown = async () => {
      const [pool, yields, dao, summary] = await Promise.all([
        get<DashboardPoolResponse>('/api/v1/dashboard/pools/coin', alice.token),
        get<YieldResponse>('/api/v1/dashboard/yield', alice.token),
        get<DaoPoolsResponse>('/api/v1/dao/pools', alice.token),
        get<CabinetSummary>('/api/v1/cabinet/summary', alice.token),
      ]);
      return [pool.apyBps, ...new Set(yields.items.filter((i) => i.pool === 'coin').map((i) => i.apyBps)), dao.items.find((p) => p.pool === 'coin')!.apyBps, summary.pools.find((p) => p.pool === 'coin')!.apy];
    };
    // Before its day: the seeded 18 %.
    expect(await shown()).toEqual([1800, 1800, 1800, '0.18']);
    // Its day arrives (the accrual of the day before moves the cabinet's day on): 30 % everywhere.
    expect(await operator(t.app, 'accrue', '--until', asOf)).toMatchObject({ code: 0 });
    expect((await get<CabinetSummary>('/api/v1/cabinet/summary', alice.token)).asOf).toBe(addDays(asOf, 1));
    expect(await shown()).toEqual([3000, 3000, 3000, '0.3']);
  });
});
