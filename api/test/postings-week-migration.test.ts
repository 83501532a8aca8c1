import { migrate } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import { migrationsFolder } from '../src/db/client';
import { rows } from '../src/db/rows';
import { checkLedger } from '../src/ledger';
import { legsFrom } from '../src/ledger/window';
import { databaseBefore, seedTwoInvestors } from './migrations-before';

/**
 * Issue 23, goal 3: migration 0045 gives every leg the week its transaction was written in and
 * reads an account's legs by (account, week), keeping every account's sum and count of legs
 * (checked against what the test wrote), and refuses to run when a leg has no transaction.
 */

const A = '00000000-0000-4000-8000-0000000000a1';
const B = '00000000-0000-4000-8000-0000000000b1';

type Leg = { account: number; amount: bigint };
// Written a second either side of a week's turn (Sunday to Monday, UTC), and weeks later: three weeks.
const TRANSACTIONS: { id: number; kind: string; createdAt: string; legs: Leg[] }[] = [
  { id: 1, kind: 'deposit', createdAt: '2026-01-04T23:59:59.000Z', legs: [{ account: 3, amount: 1000n }, { account: 1, amount: -1000n }] },
  { id: 2, kind: 'deposit', createdAt: '2026-01-05T00:00:01.000Z', legs: [{ account: 4, amount: 70n }, { account: 2, amount: -70n }] },
  { id: 3, kind: 'interest', createdAt: '2026-02-02T00:05:00.000Z', legs: [{ account: 5, amount: 3n }, { account: 1, amount: -3n }] },
];
const CURRENCY: Record<number, string> = { 1: 'ETH', 2: 'USDT', 3: 'ETH', 4: 'USDT', 5: 'ETH' };

/** Whole weeks since Monday 5 January 1970, UTC, computed here from the instant itself. */
function weekOf(iso: string): number {
  return Math.floor((Date.parse(iso) - Date.parse('1970-01-05T00:00:00Z')) / (7 * 24 * 3600 * 1000));
}

/** Books in the shape before 0045; `orphan` adds a leg whose transaction is missing (written past the guard, as a fault would be). */
async function oldDatabase(orphan: boolean) {
  const { db, close } = await databaseBefore('0045');
  await seedTwoInvestors(db, { a: A, b: B }, CURRENCY);
  for (const t of TRANSACTIONS) {
    const detail = t.kind === 'interest' ? JSON.stringify({ pool: 'coin', day: '2026-02-01', apy: '0.08' }) : null;
    await db.execute(sql`insert into ledger_transactions (id, reference, kind, at, detail, created_at)
      values (${t.id}, ${`old:${t.id}`}, ${t.kind}, ${t.createdAt}::timestamptz, ${detail}::jsonb, ${t.createdAt}::timestamptz)`);
    for (const leg of t.legs) {
      await db.execute(sql`insert into ledger_postings (transaction_id, account_id, amount) values (${t.id}, ${leg.account}, ${leg.amount.toString()}::numeric)`);
    }
  }
  if (orphan) {
    await db.execute(sql`alter table ledger_postings disable trigger ledger_postings_references`);
    await db.execute(sql`insert into ledger_postings (transaction_id, account_id, amount) values (99, 1, 0)`);
    await db.execute(sql`alter table ledger_postings enable trigger ledger_postings_references`);
  }
  return { db, close };
}

describe('issue 23: migration 0045, the postings by account and week', () => {
  it('goal 3: keeps every account\'s sum and every leg, dates each leg by its transaction\'s week, and the books still check', async () => {
    const { db, close } = await oldDatabase(false);
    try {
      await migrate(db as never, { migrationsFolder });
      const legs = await rows<{ transaction_id: number; account_id: number; amount: string; written_week: number }>(
        db,
        sql`select transaction_id::int, account_id::int, amount::text, written_week::int from ledger_postings order by 1, 2`,
      );
      const expected = TRANSACTIONS.flatMap((t) =>
        t.legs.map((l) => ({ transaction_id: t.id, account_id: l.account, amount: l.amount.toString(), written_week: weekOf(t.createdAt) })),
      ).sort((x, y) => x.transaction_id - y.transaction_id || x.account_id - y.account_id);
      expect(legs).toEqual(expected);
      expect(new Set(legs.map((l) => l.written_week)).size).toBe(3);
      // The per-leg key is gone; the week's index serves the reads by account, a btree on the transaction those by transaction.
      const indexes = await rows<{ indexname: string; method: string }>(
        db,
        sql`select i.indexname, am.amname as method from pg_indexes i join pg_class c on c.relname = i.indexname join pg_am am on am.oid = c.relam
            where i.tablename = 'ledger_postings' order by 1`,
      );
      expect(indexes).toEqual([
        { indexname: 'ledger_postings_account_idx', method: 'btree' },
        { indexname: 'ledger_postings_transaction_idx', method: 'btree' },
      ]);
      // The guards came back with the table: a leg once per account and transaction, none added to a written transaction, immutable.
      await expect(db.execute(sql`insert into ledger_postings (transaction_id, account_id, amount) values (3, 2, 0)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ message: expect.stringMatching(/posts to an account once, with the transaction itself/) }),
      });
      await expect(db.execute(sql`update ledger_postings set amount = amount + 1`)).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringMatching(/immutable/) }) });
      expect(await rows(db, sql`select user_id::text, pool, currency, day::text, amount::text from interest_accruals`)).toEqual([
        { user_id: A, pool: 'coin', currency: 'ETH', day: '2026-02-01', amount: '3' },
      ]);
      const check = await checkLedger(db);
      expect({ ok: check.ok, drifted: check.drifted, unbalanced: check.unbalanced }).toEqual({ ok: true, drifted: [], unbalanced: [] });

      // A window from transaction 3 on reads its legs and those of a later transaction written in the week before (a long
      // database transaction that took its id late), and not one written two weeks before: the week of slack, and no more.
      await db.transaction(async (tx) => {
        await tx.execute(sql`insert into ledger_transactions (id, reference, kind) values (4, 'late', 'deposit')`);
        await tx.execute(sql`insert into ledger_postings (transaction_id, account_id, amount, written_week)
          values (4, 1, -5, ${weekOf(TRANSACTIONS[2]!.createdAt) - 1}), (4, 3, 5, ${weekOf(TRANSACTIONS[2]!.createdAt) - 2})`);
      });
      const window = await rows<{ transaction_id: number; account_id: number }>(
        db,
        sql`select p.transaction_id::int, p.account_id::int from ledger_postings p where ${legsFrom('p', sql`3::bigint`)} order by 1, 2`,
      );
      expect(window).toEqual([{ transaction_id: 3, account_id: 1 }, { transaction_id: 3, account_id: 5 }, { transaction_id: 4, account_id: 1 }]);
    } finally {
      await close();
    }
  });

  it('goal 3: refuses to run when a leg has no transaction (it would be lost), and changes nothing', async () => {
    const { db, close } = await oldDatabase(true);
    try {
      const refused = await migrate(db as never, { migrationsFolder }).then(
        () => null,
        (err: unknown) => err,
      );
      const messages: string[] = [];
      for (let e = refused as { message?: string; cause?: unknown } | null; e; e = e.cause as typeof e) messages.push(String(e.message));
      expect(messages.join(' | ')).toMatch(/a ledger posting has no transaction to take its week from: not migrated/);
      const columns = await rows<{ column_name: string }>(
        db,
        sql`select column_name from information_schema.columns where table_name = 'ledger_postings' order by ordinal_position`,
      );
      expect(columns.map((c) => c.column_name)).toEqual(['transaction_id', 'account_id', 'amount']);
      const [n] = await rows<{ n: number; total: string }>(db, sql`select count(*)::int as n, sum(amount)::text as total from ledger_postings`);
      expect(n).toEqual({ n: 7, total: '0' });
    } finally {
      await close();
    }
  });
});
