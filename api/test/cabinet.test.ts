import { activityExportResponseSchema, type ActivityResponse, type CabinetSummary } from '@app/contracts';
import { activityCsvChunks } from '../src/portfolio';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { call } from './helpers';
import { devWallet, sendEth, sendToken, userWithWallet } from './deposit-helpers';
import { ETH, USDT, addDays, expectLedgerBalanced, independentEarned, moneyStack, operator, today } from './money-helpers';

/** The cabinet's reads against the real API and anvil; every figure checked against an independent bigint computation. */
const stack = moneyStack();

/** Cents of `units` at a whole-unit price given as integer cents, rounded down (independent of the server's helpers). */
const cents = (units: bigint, priceCents: bigint, decimals: number) => (units * priceCents) / 10n ** BigInt(decimals);
/** Base units as whole units, exact, without trailing zeros. */
const whole = (u: bigint, d: number) => `${u / 10n ** BigInt(d)}.${String(u % 10n ** BigInt(d)).padStart(d, '0')}`.replace(/\.?0+$/, '');
const dollars = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

/** The 30-day investor, for the export's own test. */
let exporter: { id: string; token: string } | undefined;

describe('cabinet', () => {
  it('a new user: empty, zero totals, no activity; the tutorial is remembered per account', async () => {
    const bob = await userWithWallet(stack.t.app, devWallet(stack.chain.rpcUrl, 5));
    const s = await call(stack.t.app, 'GET', '/api/v1/cabinet/summary', { token: bob.token });
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ empty: true, tutorialDismissed: false, totals: { valueUsd: '0.00', principalUsd: '0.00', profitUsd: '0.00' }, currencies: [] });
    expect((s.body as CabinetSummary).pools.map((p) => p.pool)).toEqual(['stable', 'coin', 'dex']);
    expect((await call(stack.t.app, 'GET', '/api/v1/cabinet/activity', { token: bob.token })).body).toEqual({ items: [], page: 1, size: 20, total: 0, next: null });
    expect((await call(stack.t.app, 'PUT', '/api/v1/cabinet/tutorial', { token: bob.token, body: { dismissed: true } })).body).toEqual({ dismissed: true });
    expect((await call(stack.t.app, 'GET', '/api/v1/cabinet/summary', { token: bob.token })).body.tutorialDismissed).toBe(true);
    expect((await call(stack.t.app, 'PUT', '/api/v1/cabinet/tutorial', { token: bob.token, body: { dismissed: 'yes' } })).status).toBe(400);
    expect((await call(stack.t.app, 'GET', '/api/v1/cabinet/summary')).status).toBe(401);
    expect((await call(stack.t.app, 'GET', '/api/v1/cabinet/activity?size=1000', { token: bob.token })).status).toBe(400);
  });

  it('1 ETH in coin and 100 USDT in stable, 30 days accrued: totals, cards, daily rewards, activity and CSV', async () => {
    const day0 = today();
    expect(await operator(stack.t.app, 'apy', 'set', 'coin', '0.08', '--from', day0)).toMatchObject({ code: 0 });
    expect(await operator(stack.t.app, 'apy', 'set', 'stable', '0.05', '--from', day0)).toMatchObject({ code: 0 });
    const alice = await userWithWallet(stack.t.app, devWallet(stack.chain.rpcUrl, 3));
    exporter = alice;
    const before = (await call(stack.t.app, 'GET', '/api/v1/cabinet/revision', { token: alice.token })).body.revision;
    const eth = await sendEth(alice.wallet, LOCAL_POOL_ADDRESSES.coin, ETH);
    const usdt = await sendToken(alice.wallet, 'USDT', LOCAL_POOL_ADDRESSES.stable, 100n * USDT);
    for (const [pool, currency, amount, transaction] of [['coin', 'ETH', ETH, eth], ['stable', 'USDT', 100n * USDT, usdt]] as const) {
      expect((await call(stack.t.app, 'POST', '/api/v1/dashboard/deposit', { token: alice.token, body: { pool, currency, amount: String(amount), transaction } })).status).toBe(200);
    }
    await stack.t.app.services.depositJob.tick();
    const credited = (await call(stack.t.app, 'GET', '/api/v1/cabinet/revision', { token: alice.token })).body.revision;
    expect(credited).not.toBe(before);

    const until = addDays(day0, 29);
    expect(await operator(stack.t.app, 'accrue', '--until', until)).toMatchObject({ code: 0 });
    await expectLedgerBalanced(stack.t.app);

    const dayEth = (n: number) => independentEarned(ETH, 8n, 100n, n) - independentEarned(ETH, 8n, 100n, n - 1);
    const dayUsdt = (n: number) => independentEarned(100n * USDT, 5n, 100n, n) - independentEarned(100n * USDT, 5n, 100n, n - 1);
    // Deposited during day0, which earns nothing (interest pays whole days held): 29 days, from day0 + 1.
    const held = 29;
    const earnedEth = independentEarned(ETH, 8n, 100n, held);
    const earnedUsdt = independentEarned(100n * USDT, 5n, 100n, held);
    // Local prices: ETH $3000, USDT $1.
    const valueC = cents(ETH + earnedEth, 300000n, 18) + cents(100n * USDT + earnedUsdt, 100n, 6);
    const interestC = cents(earnedEth, 300000n, 18) + cents(earnedUsdt, 100n, 6);
    const lastDayC = cents(dayEth(held), 300000n, 18) + cents(dayUsdt(held), 100n, 6);

    const s = (await call(stack.t.app, 'GET', '/api/v1/cabinet/summary', { token: alice.token })).body as CabinetSummary;
    expect(s.asOf).toBe(addDays(day0, 30));
    expect(s.empty).toBe(false);
    expect(s.decimals).toMatchObject({ ETH: 18, USDT: 6 });
    expect(s.totals).toEqual({
      valueUsd: dollars(valueC),
      principalUsd: '3100.00',
      profitUsd: dollars(interestC),
      interestUsd: { all: dollars(interestC), day: dollars(lastDayC), month: dollars(interestC) },
    });
    expect(s.currencies).toContainEqual(
      expect.objectContaining({ currency: 'ETH', balance: String(ETH + earnedEth), deposited: String(ETH), withdrawn: '0', principal: String(ETH), profit: String(earnedEth), interest: { all: String(earnedEth), day: String(dayEth(held)), month: String(earnedEth) } }),
    );
    const coin = s.pools.find((p) => p.pool === 'coin')!;
    expect(coin).toMatchObject({ apy: '0.08', positions: [{ currency: 'ETH', balance: String(ETH + earnedEth), earned: String(earnedEth) }] });
    // APR = 365 × r, r the daily rate by the independent bisection (30 days of interest on 10^30 is not it: use one day on S).
    const r = independentEarned(10n ** 30n, 8n, 100n, 1);
    expect(coin.apr).toBe(`0.${String((365n * r * 10n ** 6n) / 10n ** 30n).padStart(6, '0')}`.replace(/0+$/, ''));
    expect(s.dailyRewards).toEqual({
      day: until,
      items: [
        { pool: 'coin', currency: 'ETH', amount: String(dayEth(held)) },
        { pool: 'stable', currency: 'USDT', amount: String(dayUsdt(held)) },
      ],
    });

    // Activity: 2 deposits + 58 daily interest rows, newest first, paged.
    const p1 = (await call(stack.t.app, 'GET', '/api/v1/cabinet/activity?size=10', { token: alice.token })).body as ActivityResponse;
    expect(p1.total).toBe(60);
    expect(p1.items).toHaveLength(10);
    // The newest credit is the interest of the last accrued day, dated that day (as the daily rewards).
    expect(p1.items[0]).toMatchObject({ kind: 'interest', at: `${until}T00:00:00.000Z` });
    const last = (await call(stack.t.app, 'GET', '/api/v1/cabinet/activity?size=10&page=6', { token: alice.token })).body as ActivityResponse;
    expect(last.items).toHaveLength(10);
    expect(last.items.map((i) => i.kind).slice(-3)).toEqual(['interest', 'deposit', 'deposit']);
    expect(last.items.slice(-2).map((i) => i.transaction).sort()).toEqual([eth, usdt].sort());

    const csv = (await call(stack.t.app, 'GET', '/api/v1/cabinet/activity/export', { token: alice.token })).body as { csv: string; rows: number };
    expect(csv.rows).toBe(60);
    const lines = csv.csv.trim().split('\r\n');
    expect(lines).toHaveLength(61);
    expect(lines[0]).toBe('date,time_utc,type,pool,currency,amount,status,transaction');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${day0},\\d\\d:\\d\\d:\\d\\d,deposit,coin,ETH,1,credited,${eth}$`)));
    expect(lines).toContainEqual(`${until},00:00:00,interest,stable,USDT,${whole(dayUsdt(held), 6)},credited,`);
    const csvInterestEth = lines.filter((l: string) => l.includes(',interest,coin,ETH,')).map((l: string) => l.split(',')[5]);
    expect(csvInterestEth).toHaveLength(held);
  });
  it('the CSV export is streamed in batches: every row once, in order, the same file whatever the batch', async () => {
    const alice = exporter!;
    const r = await call(stack.t.app, 'GET', '/api/v1/cabinet/activity/export', { token: alice.token });
    expect(r.status).toBe(200);
    // Written as it is read: no length known up front.
    expect(r.headers['content-length']).toBeUndefined();
    const exported = activityExportResponseSchema.parse(r.body);
    expect(exported.rows).toBe(60);
    const required = { deposit: stack.t.app.services.config.deposits.confirmations, withdrawal: stack.t.app.services.config.money.payoutConfirmations };
    for (const batch of [1, 7, 31, 60, 1000]) {
      const chunks = [];
      for await (const c of activityCsvChunks(stack.t.app.services.db, alice.id, required, batch)) chunks.push(c);
      expect([batch, chunks.map((c) => c.text).join('')]).toEqual([batch, exported.csv]);
      expect(chunks.reduce((n, c) => n + c.rows, 0)).toBe(60);
      expect(Math.max(...chunks.map((c) => c.rows))).toBeLessThanOrEqual(batch);
      expect(chunks).toHaveLength(1 + Math.ceil(60 / batch));
    }
  });
});
