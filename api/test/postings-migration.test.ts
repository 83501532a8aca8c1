import { migrate } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import { migrationsFolder } from '../src/db/client';
import { rows } from '../src/db/rows';
import { checkLedger } from '../src/ledger';
import { databaseBefore, seedTwoInvestors } from './migrations-before';

/**
 * Issue 23, goal 3: migration 0041 moves the postings into their narrow shape (no currency, no
 * time: their account's and their transaction's), keeps every account's sum and count of legs
 * (checked here against what the test wrote), and refuses to run when a copy it drops is not a copy.
 */


const A = '00000000-0000-4000-8000-0000000000a1';
const B = '00000000-0000-4000-8000-0000000000b1';
const DEPOSITED_AT = '2026-01-01T10:00:00.000Z';
const INTEREST_AT = '2026-01-02T00:00:00.000Z';

type Leg = { account: number; amount: bigint };
const TRANSACTIONS: { id: number; kind: string; at: string; detail: object | null; legs: Leg[] }[] = [
  { id: 1, kind: 'deposit', at: DEPOSITED_AT, detail: null, legs: [{ account: 3, amount: 1000n }, { account: 1, amount: -1000n }] },
  { id: 2, kind: 'deposit', at: DEPOSITED_AT, detail: null, legs: [{ account: 4, amount: 70n }, { account: 2, amount: -70n }] },
  { id: 3, kind: 'interest', at: INTEREST_AT, detail: { pool: 'coin', day: '2026-01-01', apy: '0.08' }, legs: [{ account: 5, amount: 3n }, { account: 1, amount: -3n }] },
];
const CURRENCY: Record<number, string> = { 1: 'ETH', 2: 'USDT', 3: 'ETH', 4: 'USDT', 5: 'ETH' };

/** Books written in the shape before 0041 (each leg with its currency and time); `skew` dates one leg off its transaction, or names another currency. */
async function oldDatabase(skew: 'at' | 'currency' | null) {
  const { db, close } = await databaseBefore('0041');
  await seedTwoInvestors(db, { a: A, b: B }, CURRENCY);
  for (const t of TRANSACTIONS) {
    await db.execute(sql`insert into ledger_transactions (id, reference, kind, at, detail) values (${t.id}, ${`old:${t.id}`}, ${t.kind}, ${t.at}::timestamptz, ${t.detail ? JSON.stringify(t.detail) : null}::jsonb)`);
    for (const [i, leg] of t.legs.entries()) {
      const skewed = t.id === 3 && i === 1;
      const at = skew === 'at' && skewed ? DEPOSITED_AT : t.at;
      const currency = skew === 'currency' && skewed ? 'USDT' : CURRENCY[leg.account]!;
      await db.execute(sql`insert into ledger_postings (transaction_id, account_id, currency, amount, at)
        values (${t.id}, ${leg.account}, ${currency}, ${leg.amount.toString()}::numeric, ${at}::timestamptz)`);
    }
  }
  return { db, close };
}

/** Per account: the sum and the number of its legs, as the test wrote them. */
function expectedPerAccount() {
  const out = new Map<number, { total: bigint; legs: number }>();
  for (const t of TRANSACTIONS) {
    for (const l of t.legs) {
      const e = out.get(l.account) ?? { total: 0n, legs: 0 };
      out.set(l.account, { total: e.total + l.amount, legs: e.legs + 1 });
    }
  }
  return [...out.entries()].sort(([a], [b]) => a - b).map(([account, e]) => ({ account, currency: CURRENCY[account]!, total: e.total.toString(), legs: e.legs }));
}

describe('issue 23: migration 0041, the narrow postings', () => {
  it('goal 3: keeps every account\'s and currency\'s sum and every leg, drops the copies, and the books still check', async () => {
    const { db, close } = await oldDatabase(null);
    try {
      await migrate(db as never, { migrationsFolder });
      const columns = await rows<{ column_name: string }>(
        db,
        sql`select column_name from information_schema.columns where table_name = 'ledger_postings' order by ordinal_position`,
      );
      // (and since 0045 the week each leg was written in)
      expect(columns.map((c) => c.column_name)).toEqual(['transaction_id', 'account_id', 'amount', 'written_week']);
      const perAccount = await rows<{ account: number; currency: string; total: string; legs: number }>(
        db,
        sql`select p.account_id::int as account, a.currency, sum(p.amount)::text as total, count(*)::int as legs
            from ledger_postings p join ledger_accounts a on a.id = p.account_id group by 1, 2 order by 1`,
      );
      expect(perAccount).toEqual(expectedPerAccount());
      // The interest read back through the view, by the transaction's day.
      expect(await rows(db, sql`select user_id::text, pool, currency, day::text, amount::text from interest_accruals`)).toEqual([
        { user_id: A, pool: 'coin', currency: 'ETH', day: '2026-01-01', amount: '3' },
      ]);
      // The guards came back with the table: a leg once per account and transaction, immutable.
      await expect(db.execute(sql`insert into ledger_postings (transaction_id, account_id, amount) values (1, 1, 5)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ message: expect.stringMatching(/posts to an account once/) }),
      });
      await expect(db.execute(sql`update ledger_postings set amount = amount + 1`)).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringMatching(/immutable/) }) });
      await expect(db.execute(sql`insert into ledger_postings (transaction_id, account_id, amount) values (99, 1, 5)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ message: expect.stringMatching(/missing account or transaction/) }),
      });
      const check = await checkLedger(db);
      expect({ ok: check.ok, drifted: check.drifted, unbalanced: check.unbalanced }).toEqual({ ok: true, drifted: [], unbalanced: [] });
    } finally {
      await close();
    }
  });

  it.each(['at', 'currency'] as const)('goal 3: refuses to run when a leg\'s %s is not its transaction\'s or account\'s (dropping it would lose it), and changes nothing', async (skew) => {
    const { db, close } = await oldDatabase(skew);
    try {
      const refused = await migrate(db as never, { migrationsFolder }).then(
        () => null,
        (err: unknown) => err,
      );
      // Refused by the migration's own proof (the error or its cause names it), not by anything else.
      const messages: string[] = [];
      for (let e = refused as { message?: string; cause?: unknown } | null; e; e = e.cause as typeof e) messages.push(String(e.message));
      expect(messages.join(' | ')).toMatch(/currency or time differs from its account's or transaction's: not migrated/);
      const columns = await rows<{ column_name: string }>(
        db,
        sql`select column_name from information_schema.columns where table_name = 'ledger_postings' order by ordinal_position`,
      );
      expect(columns.map((c) => c.column_name)).toEqual(['transaction_id', 'account_id', 'currency', 'amount', 'at']);
      const [n] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ledger_postings`);
      expect(n?.n).toBe(6);
    } finally {
      await close();
    }
  });
});
