import { sql } from 'drizzle-orm';
import { mine } from '@app/chain';
import type { ActivityItem, ActivityResponse } from '@app/contracts';
import { rows } from '../src/db/rows';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { call } from './helpers';
import { devWallet, sendEth, sendToken, userWithWallet } from './deposit-helpers';
import { ETH, USDT, addDays, expectLedgerBalanced, independentEarned, moneyStack, operator, today } from './money-helpers';

/**
 * Issue 27, finding 8: activity worth reading. Filters by type, pool and currency on the user's own
 * rows; a month's daily interest in one row with its days on demand; the Koinly CSV with the USD
 * value at the day's recorded price and a running balance. Every amount is computed here, in bigints.
 */
jest.setTimeout(180_000);
const stack = moneyStack({ PAYOUT_CONFIRMATIONS: '1' });
const app = () => stack.t.app;

/** Base units as whole units, exact, without trailing zeros. */
const whole = (u: bigint, d: number) => `${u / 10n ** BigInt(d)}.${String(u % 10n ** BigInt(d)).padStart(d, '0')}`.replace(/\.?0+$/, '');
/** Cents of `units` at a price given as a decimal string, rounded down, as "12.34" (independent of the server's helpers). */
function dollarsAt(units: bigint, price: string, decimals: number) {
  const [w, f = ''] = price.split('.');
  const priceMicro = BigInt(w!) * 1_000_000n + BigInt(f.padEnd(6, '0').slice(0, 6));
  const c = (units * priceMicro) / 10n ** BigInt(decimals) / 10_000n;
  return `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
}
const get = async (token: string, query: string) => {
  const r = await call(app(), 'GET', `/api/v1/cabinet/activity?${query}`, { token });
  expect([query, r.status]).toEqual([query, 200]);
  return r.body as ActivityResponse;
};
/** Every item of a filtered list, following the cursors. */
async function all(token: string, query: string) {
  const out: ActivityItem[] = [];
  let page = await get(token, `${query}&size=100`);
  out.push(...page.items);
  while (page.next) {
    page = await get(token, `${query}&size=100&after=${encodeURIComponent(page.next)}`);
    out.push(...page.items);
  }
  return out;
}

const day0 = today();
const DAYS = 40;
const until = addDays(day0, DAYS);
const WITHDRAWN = ETH / 4n;
const FEE = 1_000_000_000n;
// Deposited and withdrawn during day0, which earns nothing (interest pays whole days held): from day0 + 1 on the rest.
const ethHeld = 2n * ETH - WITHDRAWN;
const ethDay = (n: number) => independentEarned(ethHeld, 8n, 100n, n) - independentEarned(ethHeld, 8n, 100n, n - 1);
const usdtDay = (n: number) => independentEarned(100n * USDT, 5n, 100n, n) - independentEarned(100n * USDT, 5n, 100n, n - 1);
const interestDays = Array.from({ length: DAYS }, (_, i) => ({ day: addDays(day0, i + 1), eth: ethDay(i + 1), usdt: usdtDay(i + 1) }));

let alice: Awaited<ReturnType<typeof userWithWallet>>;
const tx: { eth?: string; usdt?: string } = {};

async function payAll() {
  for (let i = 0; i < 8; i++) {
    const r = await app().services.payouts.run();
    if (!r.signed && !r.broadcast && !r.waiting) return;
    await mine(stack.chain.rpcUrl, 1);
  }
}

beforeAll(async () => {
  expect(await operator(app(), 'apy', 'set', 'coin', '0.08', '--from', day0)).toMatchObject({ code: 0 });
  expect(await operator(app(), 'apy', 'set', 'stable', '0.05', '--from', day0)).toMatchObject({ code: 0 });
  alice = await userWithWallet(app(), devWallet(stack.chain.rpcUrl, 3));
  // Someone else's money in the same pool and currency: never in alice's lists.
  const bob = await userWithWallet(app(), devWallet(stack.chain.rpcUrl, 4));
  tx.eth = await sendEth(alice.wallet, LOCAL_POOL_ADDRESSES.coin, 2n * ETH);
  tx.usdt = await sendToken(alice.wallet, 'USDT', LOCAL_POOL_ADDRESSES.stable, 100n * USDT);
  const bobTx = await sendEth(bob.wallet, LOCAL_POOL_ADDRESSES.coin, ETH);
  for (const [who, pool, currency, amount, transaction] of [
    [alice, 'coin', 'ETH', 2n * ETH, tx.eth],
    [alice, 'stable', 'USDT', 100n * USDT, tx.usdt],
    [bob, 'coin', 'ETH', ETH, bobTx],
  ] as const) {
    expect((await call(app(), 'POST', '/api/v1/dashboard/deposit', { token: who.token, body: { pool, currency, amount: String(amount), transaction } })).status).toBe(200);
  }
  await app().services.depositJob.tick();
  expect(await operator(app(), 'payouts', 'set', 'ETH', '--fee', String(FEE))).toMatchObject({ code: 0 });
  expect((await call(app(), 'POST', '/api/v1/dashboard/withdraw', { token: alice.token, body: { pool: 'coin', currency: 'ETH', amount: String(WITHDRAWN) } })).status).toBe(200);
  await payAll();
  await payAll();
  expect(await operator(app(), 'accrue', '--until', until)).toMatchObject({ code: 0 });
  await expectLedgerBalanced(app());
}, 170_000);

describe('activity worth reading', () => {
  it('finding 8: activity filters by type, pool and currency, on the user\'s own rows only', async () => {
    const everything = await all(alice.token, 'page=1');
    expect(everything).toHaveLength(3 + 2 * DAYS);

    const deposits = await all(alice.token, 'kind=deposit');
    expect(deposits.map((i) => [i.kind, i.pool, i.currency, i.amount, i.transaction]).sort()).toEqual(
      [
        ['deposit', 'coin', 'ETH', String(2n * ETH), tx.eth],
        ['deposit', 'stable', 'USDT', String(100n * USDT), tx.usdt],
      ].sort(),
    );
    expect((await get(alice.token, 'kind=deposit&currency=ETH')).total).toBe(1);

    const withdrawals = await all(alice.token, 'kind=withdrawal&pool=coin');
    expect(withdrawals).toEqual([expect.objectContaining({ kind: 'withdrawal', pool: 'coin', currency: 'ETH', amount: String(WITHDRAWN), status: 'paid' })]);
    expect((await get(alice.token, 'kind=withdrawal&pool=stable')).total).toBe(0);

    const usdt = await all(alice.token, 'currency=USDT');
    expect(usdt).toHaveLength(1 + DAYS);
    expect(usdt.every((i) => i.currency === 'USDT' && i.pool === 'stable')).toBe(true);
    const coinInterest = await all(alice.token, 'kind=interest&pool=coin');
    expect(coinInterest.map((i) => [i.at.slice(0, 10), i.amount])).toEqual(interestDays.map((d) => [d.day, String(d.eth)]).reverse());

    // Bad filters: a clear error in the user's language, never a 500.
    for (const q of ['kind=bonus', 'currency=XYZ', 'pool=nope', 'interest=week', 'month=2026-13', 'month=26-01']) {
      const r = await call(app(), 'GET', `/api/v1/cabinet/activity?${q}`, { token: alice.token, headers: { 'accept-language': 'ru' } });
      expect([q, r.status]).toEqual([q, 400]);
      expect(JSON.stringify(r.body)).toContain('Недопустимое значение');
    }
  });

  it('finding 8: daily interest is grouped by month (sums exact to the base unit), with the days of a month on demand', async () => {
    // The months the accrued days fall in, and their sums, computed here.
    const months = new Map<string, { eth: bigint; usdt: bigint; days: string[] }>();
    for (const d of interestDays) {
      const m = months.get(d.day.slice(0, 7)) ?? { eth: 0n, usdt: 0n, days: [] };
      m.eth += d.eth;
      m.usdt += d.usdt;
      m.days.push(d.day);
      months.set(d.day.slice(0, 7), m);
    }
    expect(months.size).toBeGreaterThanOrEqual(2);

    const grouped = await all(alice.token, 'interest=month');
    // The deposits and the withdrawal are among a handful of rows, not under pages of days.
    expect(grouped).toHaveLength(3 + 2 * months.size);
    const monthRows = grouped.filter((i) => i.kind === 'interest');
    const expected = [...months].flatMap(([month, m]) => [
      { pool: 'coin', currency: 'ETH', month, days: m.days.length, amount: String(m.eth), at: `${month}-01T00:00:00.000Z` },
      { pool: 'stable', currency: 'USDT', month, days: m.days.length, amount: String(m.usdt), at: `${month}-01T00:00:00.000Z` },
    ]);
    expect(monthRows.map((i) => ({ pool: i.pool, currency: i.currency, month: i.month, days: i.days, amount: i.amount, at: i.at })).sort((a, b) => `${a.month}${a.pool}`.localeCompare(`${b.month}${b.pool}`))).toEqual(expected);
    // Newest first: the last month's rows lead.
    expect(grouped[0]!.month).toBe(until.slice(0, 7));
    // Paged by the same cursor: pages of 1 give the same rows.
    const one: ActivityItem[] = [];
    let p = await get(alice.token, 'interest=month&size=1');
    one.push(...p.items);
    while (p.next) {
      p = await get(alice.token, `interest=month&size=1&after=${encodeURIComponent(p.next)}`);
      one.push(...p.items);
    }
    expect(one).toEqual(grouped);

    // The drill-down: one month's days, each its own exact amount.
    const [month, m] = [...months][0]!;
    const days = await all(alice.token, `interest=month&kind=interest&pool=coin&currency=ETH&month=${month}`);
    expect(days.map((i) => [i.at.slice(0, 10), i.amount, i.month])).toEqual(
      interestDays.filter((d) => d.day.startsWith(month)).map((d) => [d.day, String(d.eth), undefined]).reverse(),
    );
    expect(days.reduce((s, i) => s + BigInt(i.amount), 0n)).toBe(m.eth);
    // A month filter without a type narrows every kind to that month: the deposits fall in day0's.
    expect((await all(alice.token, `month=${day0.slice(0, 7)}&kind=deposit`)).length).toBe(2);
    const later = addDays(until, 40).slice(0, 7);
    expect((await get(alice.token, `month=${later}`)).total).toBe(0);
  });

  /** The prices kept per `day|currency`, as the database holds them. */
  const keptPrices = async () =>
    new Map((await rows<{ day: string; currency: string; usd: string }>(app().services.db, sql`select day::text as day, currency, usd::text as usd from referral_prices`)).map((r) => [`${r.day}|${r.currency}`, r.usd]));

  /**
   * The Koinly file as it must be, row by row, built here: alice's two deposits, her paid withdrawal
   * and her daily interest, balances summed here. Deposits and the withdrawal carry their time of day,
   * which is compared apart (only the day is in the rows).
   */
  async function expectedKoinly(kept: Map<string, string>) {
    const db = app().services.db;
    const value = (units: bigint, day: string, currency: string, d: number) => {
      const price = kept.get(`${day}|${currency}`);
      return price === undefined ? ['', ''] : [dollarsAt(units, price, d), 'USD'];
    };
    const [withdrawal] = await rows<{ tx_hash: string; id: number }>(db, sql`select tx_hash, id from withdrawals where user_id = ${alice.id} and status = 'paid'`);
    const depositId = new Map((await rows<{ tx_hash: string; id: number }>(db, sql`select tx_hash, id from deposits where user_id = ${alice.id}`)).map((d) => [d.tx_hash, d.id]));
    let eth = 2n * ETH;
    let usdt = 100n * USDT;
    const expected: string[][] = [
      [`${day0} `, '', '', '2', 'ETH', '', '', ...value(2n * ETH, day0, 'ETH', 18), '', `deposit to the coin pool #${depositId.get(tx.eth!)}`, tx.eth!, whole(eth, 18)],
      [`${day0} `, '', '', '100', 'USDT', '', '', ...value(100n * USDT, day0, 'USDT', 6), '', `deposit to the stable pool #${depositId.get(tx.usdt!)}`, tx.usdt!, whole(usdt, 6)],
      [`${day0} `, whole(WITHDRAWN - FEE, 18), 'ETH', '', '', whole(FEE, 18), 'ETH', ...value(WITHDRAWN - FEE, day0, 'ETH', 18), '', `withdrawal from the coin pool #${withdrawal!.id}`, withdrawal!.tx_hash, whole((eth -= WITHDRAWN), 18)],
    ];
    for (const d of interestDays) {
      expected.push([`${d.day} 23:59 UTC`, '', '', whole(d.eth, 18), 'ETH', '', '', ...value(d.eth, d.day, 'ETH', 18), 'reward', `interest from the coin pool for ${d.day}`, '', whole((eth += d.eth), 18)]);
      expected.push([`${d.day} 23:59 UTC`, '', '', whole(d.usdt, 6), 'USDT', '', '', ...value(d.usdt, d.day, 'USDT', 6), 'reward', `interest from the stable pool for ${d.day}`, '', whole((usdt += d.usdt), 6)]);
    }
    return { expected, eth, usdt };
  }

  /** The Koinly export's rows as cells, compared with `expected` whole (the first three by their day). */
  async function koinlyFile(expected: string[][]) {
    const r = await call(app(), 'GET', '/api/v1/cabinet/activity/export?format=koinly', { token: alice.token });
    expect(r.status).toBe(200);
    const body = r.body as { csv: string; rows: number; filename: string; leftOut?: { inFlight: number; returned: number } };
    expect(body.filename).toMatch(/^koinly-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = body.csv.trim().split('\r\n');
    expect(lines[0]).toBe('Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash,Balance');
    expect(body.rows).toBe(3 + 2 * DAYS);
    expect(lines).toHaveLength(1 + body.rows);
    const got = lines.slice(1).map((l) => l.split(','));
    // Deposits and the withdrawal carry their own time of day, in Koinly's form.
    for (const g of got.slice(0, 3)) expect(g[0]).toMatch(new RegExp(`^${day0} \\d\\d:\\d\\d UTC$`));
    expect(got.map((g, i) => (i < 3 ? [`${g[0]!.slice(0, 11)}`, ...g.slice(1)] : g))).toEqual(expected);
    return { got, leftOut: body.leftOut };
  }

  it('finding 8: the Koinly CSV carries the USD value at the day\'s recorded price (empty without one) and a running balance', async () => {
    const db = app().services.db;
    // A day whose price was never recorded (the source was down), and a day with its own price.
    const unpriced = addDays(day0, 3);
    const priced = addDays(day0, 2);
    await db.execute(sql`delete from referral_prices where day = ${unpriced}::date and currency = 'ETH'`);
    await db.execute(sql`insert into referral_prices (day, currency, usd, source) values (${priced}::date, 'ETH', 3123.456789, 'test') on conflict (day, currency) do update set usd = excluded.usd`);
    const kept = await keptPrices();
    expect(kept.get(`${priced}|ETH`)).toMatch(/^3123\.456789/);

    const { expected, eth, usdt } = await expectedKoinly(kept);
    const { got, leftOut } = await koinlyFile(expected);
    expect(leftOut).toEqual({ inFlight: 0, returned: 0 });
    // The day without a recorded price has empty value cells; the priced day is valued at its own price.
    expect(got.find((g) => g[0] === `${unpriced} 23:59 UTC` && g[4] === 'ETH')!.slice(7, 9)).toEqual(['', '']);
    expect(got.find((g) => g[0] === `${priced} 23:59 UTC` && g[4] === 'ETH')![7]).toBe(dollarsAt(ethDay(2), '3123.456789', 18));
    // The last balances are what the dashboard holds.
    const summary = (await call(app(), 'GET', '/api/v1/cabinet/summary', { token: alice.token })).body as { currencies: { currency: string; balance: string }[] };
    expect(summary.currencies.map((c) => [c.currency, c.balance])).toEqual([
      ['ETH', String(eth)],
      ['USDT', String(usdt)],
    ]);

    // The default layout is unchanged for the callers that read it.
    const plain = (await call(app(), 'GET', '/api/v1/cabinet/activity/export', { token: alice.token })).body as { csv: string; leftOut?: unknown };
    expect(plain.csv.split('\r\n')[0]).toBe('date,time_utc,type,pool,currency,amount,status,transaction');
    expect(plain.leftOut).toBeUndefined();
    expect((await call(app(), 'GET', '/api/v1/cabinet/activity/export?format=xls', { token: alice.token })).status).toBe(400);
  });

  it('finding 8: the tax file leaves out a withdrawal in flight and a returned one, and says how many it left out', async () => {
    // One withdrawal the operator declines (returned: it never left alice's books, no disposal), and
    // one left waiting for approval (in flight: no outcome yet).
    const RETURNED = ETH / 8n;
    const WAITING = ETH / 16n;
    expect(await operator(app(), 'payouts', 'set', 'ETH', '--threshold', String(ETH / 100n))).toMatchObject({ code: 0 });
    const withdraw = async (amount: bigint) => {
      const r = await call(app(), 'POST', '/api/v1/dashboard/withdraw', { token: alice.token, body: { pool: 'coin', currency: 'ETH', amount: String(amount) } });
      expect([r.status, r.body.status]).toEqual([200, 'awaiting_approval']);
      return r.body.id as number;
    };
    const returned = await withdraw(RETURNED);
    expect(await operator(app(), 'withdrawals', 'reject', String(returned), '--reason', 'checks')).toMatchObject({ code: 0 });
    const waiting = await withdraw(WAITING);
    await payAll();
    await operator(app(), 'payouts', 'set', 'ETH', '--threshold', 'none');

    // The file is the settled one, row for row, as before either withdrawal.
    const { expected, eth, usdt } = await expectedKoinly(await keptPrices());
    const { leftOut } = await koinlyFile(expected);
    expect(leftOut).toEqual({ inFlight: 1, returned: 1 });

    // Its Balance column is the settled one; the dashboard also holds back what is in flight.
    const summary = (await call(app(), 'GET', '/api/v1/cabinet/summary', { token: alice.token })).body as { currencies: { currency: string; balance: string }[] };
    expect(summary.currencies.map((c) => [c.currency, c.balance])).toEqual([
      ['ETH', String(eth - WAITING)],
      ['USDT', String(usdt)],
    ]);

    // The full activity file lists both, each with its state.
    const plain = (await call(app(), 'GET', '/api/v1/cabinet/activity/export', { token: alice.token })).body as { csv: string };
    const withdrawals = plain.csv
      .trim()
      .split('\r\n')
      .map((l) => l.split(','))
      .filter((c) => c[2] === 'withdrawal')
      .map((c) => [c[5], c[6]]);
    expect(withdrawals).toEqual([
      [whole(WITHDRAWN, 18), 'paid'],
      [whole(RETURNED, 18), 'returned'],
      [whole(WAITING, 18), 'awaiting_approval'],
    ]);
    expect(waiting).toBeGreaterThan(returned);
  });
});
