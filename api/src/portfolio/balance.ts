import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/rows';
import { firstTransactionAt, legsFrom } from '../ledger/window';

/** The date a posting is shown with (`p` a posting, `t` its transaction): interest on the day it is for, the rest on its UTC day. */
const creditDay = sql`case when t.kind = 'interest' then t.detail->>'day' else to_char(t.at at time zone 'UTC', 'YYYY-MM-DD') end`;

/**
 * Balance history per day, pool and currency, from the ledger's postings on the user's positions:
 * credited deposits, withdrawals (requests, less returned ones) and the running balance at the end
 * of the day, interest included. Interest is on the day it is for, as everywhere else. Only the
 * postings from `from` on are read: the balance before them is the position's balance now less
 * what they moved, so a chart's range costs its own days, not the whole history.
 */
export async function balanceHistory(db: Db, userId: string, query: { pool?: string; from?: string; to?: string }) {
  const from = sql`(${query.from ?? null}::date)::timestamp at time zone 'UTC'`;
  const mine = sql`a.kind = 'position' and a.user_id = ${userId} ${query.pool ? sql`and a.pool = ${query.pool}` : sql``}`;
  const [found, now] = await Promise.all([
    rows<{ date: string; pool: string; currency: string; deposited: string; withdrawn: string; moved: string }>(
      db,
      sql`select ${creditDay} as date, a.pool, a.currency,
            coalesce(sum(-p.amount) filter (where t.kind = 'deposit'), 0)::text as deposited,
            coalesce(sum(p.amount) filter (where t.kind like 'withdrawal%'), 0)::text as withdrawn,
            sum(-p.amount)::text as moved
          from ledger_accounts a
          join ledger_postings p on p.account_id = a.id
          join ledger_transactions t on t.id = p.transaction_id
          where ${mine} ${query.from ? sql`and t.at >= ${from} and ${legsFrom('p', firstTransactionAt(from))}` : sql``}
          group by 1, 2, 3
          order by 1, 2, 3`,
    ),
    rows<{ pool: string; currency: string; balance: string }>(db, sql`select a.pool, a.currency, (-a.balance)::text as balance from ledger_accounts a where ${mine}`),
  ]);
  const key = (pool: string, currency: string) => `${pool}|${currency}`;
  // The balance before the first posting read: today's, less everything read.
  const running = new Map(now.map((a) => [key(a.pool, a.currency), BigInt(a.balance)]));
  for (const d of found) running.set(key(d.pool, d.currency), (running.get(key(d.pool, d.currency)) ?? 0n) - BigInt(d.moved));
  const items = [];
  for (const d of found) {
    const k = key(d.pool, d.currency);
    const balance = (running.get(k) ?? 0n) + BigInt(d.moved);
    running.set(k, balance);
    // Days read only for the running balance (interest of the day before `from`, days after `to`) are not listed.
    if ((query.from && d.date < query.from) || (query.to && d.date > query.to)) continue;
    items.push({ date: d.date, pool: d.pool, currency: d.currency, amount: d.deposited, withdrawn: d.withdrawn, balance: String(balance) });
  }
  return { items };
}
