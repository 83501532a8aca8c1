import { migrate } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import { migrationsFolder, type Db } from '../src/db/client';
import { rows } from '../src/db/rows';
import { checkLedger } from '../src/ledger';
import { databaseBefore } from './migrations-before';

/**
 * Issue 23: migrations 0021 and 0022 move a database of the shape before them into the kept
 * figures, keep every total (checked here against what the test wrote), and refuse to run when the
 * books they start from do not add up.
 */


const R = '00000000-0000-4000-8000-000000000001';
const A = '00000000-0000-4000-8000-000000000002';
const B = '00000000-0000-4000-8000-000000000003';
const C = '00000000-0000-4000-8000-000000000004';

/** A small ledger written the way the code before 0021 wrote it: R invites A, A invites B; C alone. `drift` puts A's balance off its postings. */
async function writeOldBooks(db: Db, drift: bigint) {
  const user = (id: string, referrer: string | null) =>
    db.execute(sql`insert into users (id, email, role, referral_code, referrer_id) values (${id}::uuid, ${`${id}@example.com`}, 'user', ${id.slice(-6)}, ${referrer}::uuid)`);
  await user(R, null);
  await user(A, R);
  await user(B, A);
  await user(C, null);
  const account = (id: number, key: string, kind: string, currency: string, userId: string | null, pool: string | null, balance: bigint) =>
    db.execute(sql`insert into ledger_accounts (id, key, kind, currency, user_id, pool, balance) values (${id}, ${key}, ${kind}, ${currency}, ${userId}::uuid, ${pool}, ${balance.toString()}::numeric)`);
  // Positions as credits: A deposited 1000, earned 3, reserved 200 of which 50 came back; B deposited 500 and earned 1; C deposited 70 USDT in dex.
  await account(1, `position:coin:ETH:${A}`, 'position', 'ETH', A, 'coin', -(1000n + 3n - 200n + 50n) + drift);
  await account(2, `position:coin:ETH:${B}`, 'position', 'ETH', B, 'coin', -(500n + 1n));
  await account(3, `position:dex:USDT:${C}`, 'position', 'USDT', C, 'dex', -70n);
  await account(4, 'reserves:1:0xaa:ETH', 'reserves', 'ETH', null, 'coin', 1500n);
  await account(5, 'reserves:1:0xbb:USDT', 'reserves', 'USDT', null, 'dex', 70n);
  await account(6, 'house:ETH', 'house', 'ETH', null, null, 4n);
  await account(7, 'withdrawals_in_flight:ETH', 'withdrawals_in_flight', 'ETH', null, null, -150n);
  const transaction = async (id: number, kind: string, legs: [number, bigint][]) => {
    await db.execute(sql`insert into ledger_transactions (id, reference, kind, at) values (${id}, ${`old:${id}`}, ${kind}, '2026-01-01T00:00:00Z')`);
    for (const [accountId, amount] of legs) {
      await db.execute(sql`insert into ledger_postings (transaction_id, account_id, currency, amount, at)
        select ${id}, id, currency, ${amount.toString()}::numeric, '2026-01-01T00:00:00Z' from ledger_accounts where id = ${accountId}`);
    }
  };
  await transaction(1, 'deposit', [[4, 1000n], [1, -1000n]]);
  await transaction(2, 'deposit', [[4, 500n], [2, -500n]]);
  await transaction(3, 'deposit', [[5, 70n], [3, -70n]]);
  await transaction(4, 'interest', [[6, 4n], [1, -3n], [2, -1n]]);
  await transaction(5, 'withdrawal_reserve', [[1, 200n], [7, -200n]]);
  await transaction(6, 'withdrawal_return', [[1, -50n], [7, 50n]]);
  const reward = (userId: string, from: string, level: number, amount: bigint, status: string, day: string) =>
    db.execute(sql`insert into referral_rewards (user_id, from_user_id, level, currency, amount, status, pool, day, forfeit_reason)
      values (${userId}::uuid, ${from}::uuid, ${level}, 'ETH', ${amount.toString()}::numeric, ${status}, 'coin', ${day}::date, ${status === 'forfeited' ? 'funds_left' : null})`);
  await reward(R, A, 1, 10n, 'earned', '2026-01-01');
  // A later day's: one referrer's rewards of one day share one state (0035 keeps one row per referrer and day).
  await reward(R, B, 2, 5n, 'vesting', '2026-01-02');
  await reward(A, B, 1, 7n, 'earned', '2026-01-01');
  await reward(A, B, 1, 2n, 'forfeited', '2026-01-02');
}

async function oldDatabase(drift: bigint) {
  const { db, close } = await databaseBefore('0021');
  await writeOldBooks(db, drift);
  return { db, close };
}

describe('issue 23: the migrations to the kept figures', () => {
  it('goal 3: migrating the books of before keeps every total: each position\'s figures, each pool\'s total, the referral figures', async () => {
    const { db, close } = await oldDatabase(0n);
    try {
      await migrate(db as never, { migrationsFolder });
      const figures = await rows<{ user_id: string; deposited: string; withdrawn: string; interest: string }>(
        db,
        sql`select user_id::text, deposited::text, withdrawn::text, interest::text from ledger_accounts where kind = 'position' order by user_id`,
      );
      expect(figures).toEqual([
        { user_id: A, deposited: '1000', withdrawn: '150', interest: '3' },
        { user_id: B, deposited: '500', withdrawn: '0', interest: '1' },
        { user_id: C, deposited: '70', withdrawn: '0', interest: '0' },
      ]);
      expect(await rows(db, sql`select pool, currency, balance::text from pool_totals order by pool`)).toEqual([
        { pool: 'coin', currency: 'ETH', balance: String(-(1000n + 3n - 150n) - 501n) },
        { pool: 'dex', currency: 'USDT', balance: '-70' },
      ]);
      expect(await rows(db, sql`select ancestor_id::text, level, members::int from referral_members order by ancestor_id, level`)).toEqual([
        { ancestor_id: R, level: 1, members: 1 },
        { ancestor_id: R, level: 2, members: 1 },
        { ancestor_id: A, level: 1, members: 1 },
      ].sort((x, y) => x.ancestor_id.localeCompare(y.ancestor_id) || x.level - y.level));
      expect(await rows(db, sql`select ancestor_id::text, level, currency, balance::text from referral_capital order by ancestor_id, level`)).toEqual([
        { ancestor_id: R, level: 1, currency: 'ETH', balance: String(-(1000n + 3n - 150n)) },
        { ancestor_id: R, level: 2, currency: 'ETH', balance: '-501' },
        { ancestor_id: A, level: 1, currency: 'ETH', balance: '-501' },
      ].sort((x, y) => x.ancestor_id.localeCompare(y.ancestor_id) || x.level - y.level));
      expect(await rows(db, sql`select user_id::text, status, amount::text from referral_reward_totals order by user_id, status`)).toEqual([
        { user_id: R, status: 'earned', amount: '10' },
        { user_id: R, status: 'vesting', amount: '5' },
        { user_id: A, status: 'earned', amount: '7' },
        { user_id: A, status: 'forfeited', amount: '2' },
      ].sort((x, y) => x.user_id.localeCompare(y.user_id) || x.status.localeCompare(y.status)));
      const check = await checkLedger(db);
      expect({ ok: check.ok, drifted: check.drifted, unbalanced: check.unbalanced }).toEqual({ ok: true, drifted: [], unbalanced: [] });
    } finally {
      await close();
    }
  });

  it('goal 3: the migration refuses to run when a balance is already out of step with its postings, and changes nothing', async () => {
    const { db, close } = await oldDatabase(1n);
    try {
      await expect(migrate(db as never, { migrationsFolder })).rejects.toThrow();
      // Not migrated: the kept totals do not exist, the old shape is as it was.
      const [t] = await rows<{ n: string | null }>(db, sql`select to_regclass('pool_totals')::text as n`);
      expect(t?.n).toBeNull();
    } finally {
      await close();
    }
  });
});
