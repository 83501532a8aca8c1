import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { users } from '../src/db/schema';
import { accrueDay } from '../src/interest';
import { rows } from '../src/db/rows';
import { checkLedger, post } from '../src/ledger';
import { startTestApp, type TestApp } from './helpers';
import { independentEarned } from './money-helpers';

/**
 * A pool's day split between sessions (parts): each position earns once whatever the split, a
 * crash between parts is finished by the rerun, and the amounts equal an independent computation.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0' });
});
afterAll(() => t?.close());

const db = () => t.app.services.db;

/** n users, each with a position in the pool credited at the first instant of `day`, so held all day (balances 10^9 + 7919·i base units). */
async function positions(pool: 'dex' | 'coin' | 'stable', currency: string, n: number, day: string) {
  const reserves = { kind: 'reserves' as const, chainId: 1, address: '0x00000000000000000000000000000000000000bb', pool, currency };
  const out: { id: string; balance: bigint }[] = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    await db().insert(users).values({ id, email: `${id}@example.com`, referralCode: id.slice(0, 12) });
    const balance = 1_000_000_000n + BigInt(i) * 7_919n;
    await post(db(), {
      reference: `test:parts:${id}`,
      kind: 'deposit',
      at: new Date(`${day}T00:00:00Z`),
      postings: [
        { account: reserves, amount: balance },
        { account: { kind: 'position', userId: id, pool, currency }, amount: -balance },
      ],
    });
    out.push({ id, balance });
  }
  return out;
}

const earnedOf = async (pool: string, ids: string[], day: string) =>
  new Map(
    (
      await rows<{ user_id: string; amount: string }>(
        db(),
        sql`select user_id::text, amount::text from interest_accruals where pool = ${pool} and day = ${day}::date and user_id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`,
      )
    ).map((r) => [r.user_id, BigInt(r.amount)]),
  );

describe('a day of interest in parts', () => {
  it('three parts: every position earns once, exactly floor(balance × r); a rerun changes nothing', async () => {
    const day = '2025-03-01';
    const held = await positions('dex', 'USDC', 12, day);
    const first = await accrueDay(db(), 'dex', day, '0.12', 3);
    expect(first).toEqual({ created: true, positions: 12 });
    const [plan] = await rows<{ parts: number }>(db(), sql`select cardinality(user_bounds) + 1 as parts from interest_day_parts where pool = 'dex' and day = ${day}::date`);
    expect(plan!.parts).toBe(3);
    const earned = await earnedOf('dex', held.map((h) => h.id), day);
    for (const h of held) expect(earned.get(h.id)).toBe(independentEarned(h.balance, 12n, 100n, 1));
    // Again, even asking for another split: the day's split is fixed, so nothing is credited twice.
    expect(await accrueDay(db(), 'dex', day, '0.12', 2)).toEqual({ created: false, positions: 0 });
    expect(await earnedOf('dex', held.map((h) => h.id), day)).toEqual(earned);
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('a crash after one part: the day stays unmarked, and the rerun credits the rest, once', async () => {
    const day = '2025-04-01';
    const held = await positions('coin', 'ETH', 8, day);
    // The last part fails as a crash would: its transaction cannot be written.
    await db().execute(sql`create function fail_last_part() returns trigger language plpgsql as $$
      begin if new.reference = ${sql.raw(`'interest:coin:${day}:2/2'`)} then raise exception 'crash in the last part'; end if; return new; end $$`);
    await db().execute(sql`create trigger fail_last_part before insert on ledger_transactions for each row execute function fail_last_part()`);
    try {
      await expect(accrueDay(db(), 'coin', day, '0.12', 2)).rejects.toThrow();
    } finally {
      await db().execute(sql`drop trigger fail_last_part on ledger_transactions`);
      await db().execute(sql`drop function fail_last_part()`);
    }
    const [marker] = await rows<{ n: string }>(db(), sql`select count(*)::text as n from interest_days where pool = 'coin' and day = ${day}::date`);
    expect(marker!.n).toBe('0');
    const partial = await earnedOf('coin', held.map((h) => h.id), day);
    expect(partial.size).toBeGreaterThan(0);
    expect(partial.size).toBeLessThan(held.length);
    expect((await checkLedger(db())).ok).toBe(true);

    const rerun = await accrueDay(db(), 'coin', day, '0.12', 2);
    expect(rerun).toEqual({ created: true, positions: held.length - partial.size });
    const earned = await earnedOf('coin', held.map((h) => h.id), day);
    for (const h of held) expect(earned.get(h.id)).toBe(independentEarned(h.balance, 12n, 100n, 1));
    const [legs] = await rows<{ n: string }>(db(), sql`select count(*)::text as n from interest_accruals where pool = 'coin' and day = ${day}::date`);
    expect(Number(legs!.n)).toBe(held.length);
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('split by holder: all of a holder\'s positions (in two currencies) earn in the same part, whose user ids lie in its bounds', async () => {
    const day = '2025-05-01';
    const usdc = await positions('stable', 'USDC', 9, day);
    // Every other holder also holds USDT in the pool.
    const usdt: { id: string; balance: bigint }[] = [];
    for (const [i, h] of usdc.entries()) {
      if (i % 2) continue;
      const balance = 5_000_000n + BigInt(i) * 131n;
      await post(db(), {
        reference: `test:parts:usdt:${h.id}`,
        kind: 'deposit',
        at: new Date(`${day}T00:00:00Z`),
        postings: [
          { account: { kind: 'reserves', chainId: 1, address: '0x00000000000000000000000000000000000000bb', pool: 'stable', currency: 'USDT' }, amount: balance },
          { account: { kind: 'position', userId: h.id, pool: 'stable', currency: 'USDT' }, amount: -balance },
        ],
      });
      usdt.push({ id: h.id, balance });
    }
    expect(await accrueDay(db(), 'stable', day, '0.12', 3)).toEqual({ created: true, positions: usdc.length + usdt.length });
    const [plan] = await rows<{ users: string[] }>(db(), sql`select user_bounds::text[] as users from interest_day_parts where pool = 'stable' and day = ${day}::date`);
    expect(plan!.users).toHaveLength(2);
    const partOf = (id: string) => plan!.users.filter((b) => id >= b).length + 1;
    const legs = await rows<{ reference: string; user_id: string; currency: string; amount: string }>(
      db(),
      sql`select t.reference, a.user_id::text, a.currency, (-p.amount)::text as amount from ledger_transactions t
          join ledger_postings p on p.transaction_id = t.id join ledger_accounts a on a.id = p.account_id
          where t.reference like ${`interest:stable:${day}:%`} and a.kind = 'position'`,
    );
    expect(legs).toHaveLength(usdc.length + usdt.length);
    for (const l of legs) expect(l.reference).toBe(`interest:stable:${day}:${partOf(l.user_id)}/3`);
    // More than one part holds positions (a sample of all the accounts splits a small book exactly).
    expect(new Set(legs.map((l) => l.reference)).size).toBeGreaterThan(1);
    const amount = (id: string, currency: string) => BigInt(legs.find((l) => l.user_id === id && l.currency === currency)!.amount);
    for (const h of usdc) expect(amount(h.id, 'USDC')).toBe(independentEarned(h.balance, 12n, 100n, 1));
    for (const h of usdt) expect(amount(h.id, 'USDT')).toBe(independentEarned(h.balance, 12n, 100n, 1));
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('a day split by account id before migration 0049 keeps that split when it is run again', async () => {
    const day = '2025-06-01';
    const held = await positions('dex', 'USDT', 6, day);
    const accounts = await rows<{ id: string; user_id: string }>(
      db(),
      sql`select id::text, user_id::text from ledger_accounts where kind = 'position' and pool = 'dex' and user_id in (${sql.join(held.map((h) => sql`${h.id}::uuid`), sql`, `)}) order by id`,
    );
    const bound = accounts[3]!.id;
    // As the first run of an older version left it: account-id bounds, no user bounds.
    await db().execute(sql`insert into interest_day_parts (pool, day, bounds) values ('dex', ${day}::date, array[${bound}::bigint])`);
    // The first test's positions in the pool earn too: all of them come before the bound.
    expect(await accrueDay(db(), 'dex', day, '0.12', 3)).toMatchObject({ created: true });
    const legs = await rows<{ reference: string; account: string; user_id: string; amount: string }>(
      db(),
      sql`select t.reference, a.id::text as account, a.user_id::text, (-p.amount)::text as amount from ledger_transactions t
          join ledger_postings p on p.transaction_id = t.id join ledger_accounts a on a.id = p.account_id
          where t.reference like ${`interest:dex:${day}:%`} and a.kind = 'position' and a.user_id in (${sql.join(held.map((h) => sql`${h.id}::uuid`), sql`, `)})`,
    );
    expect(legs).toHaveLength(6);
    for (const l of legs) expect(l.reference).toBe(`interest:dex:${day}:${BigInt(l.account) < BigInt(bound) ? 1 : 2}/2`);
    for (const h of held) expect(BigInt(legs.find((l) => l.user_id === h.id)!.amount)).toBe(independentEarned(h.balance, 12n, 100n, 1));
    expect((await checkLedger(db())).ok).toBe(true);
  });
});
