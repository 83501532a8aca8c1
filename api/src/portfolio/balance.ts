import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/rows';

/** The date a posting is shown with (`p` a posting, `t` its transaction): interest on the day it is for, the rest on its UTC day. */
const creditDay = sql`case when t.kind = 'interest' then t.detail->>'day' else to_char(p.at at time zone 'UTC', 'YYYY-MM-DD') end`;

/**
 * Balance history per day, pool and currency, from the ledger's postings on the user's positions:
 * credited deposits, withdrawals (requests, less returned ones) and the running balance at the end
 * of the day, interest included. Interest is on the day it is for, as everywhere else.
 */
export async function balanceHistory(db: Db, userId: string, query: { pool?: string; from?: string; to?: string }) {
  const found = await rows<{ date: string; pool: string; currency: string; deposited: string; withdrawn: string; moved: string }>(
    db,
    sql`select ${creditDay} as date, a.pool, a.currency,
          coalesce(sum(-p.amount) filter (where t.kind = 'deposit'), 0)::text as deposited,
          coalesce(sum(p.amount) filter (where t.kind like 'withdrawal%'), 0)::text as withdrawn,
          sum(-p.amount)::text as moved
        from ledger_postings p
        join ledger_accounts a on a.id = p.account_id
        join ledger_transactions t on t.id = p.transaction_id
        where a.kind = 'position' and a.user_id = ${userId}
          ${query.pool ? sql`and a.pool = ${query.pool}` : sql``}
          ${query.to ? sql`and p.at <= (${query.to}::date + 1)::timestamp at time zone 'UTC' and ${creditDay} <= ${query.to}` : sql``}
        group by 1, 2, 3
        order by 1, 2, 3`,
  );
  const running = new Map<string, bigint>();
  const items = [];
  for (const d of found) {
    const key = `${d.pool}|${d.currency}`;
    const balance = (running.get(key) ?? 0n) + BigInt(d.moved);
    running.set(key, balance);
    // Earlier days count towards the running balance but are not listed.
    if (query.from && d.date < query.from) continue;
    items.push({ date: d.date, pool: d.pool, currency: d.currency, amount: d.deposited, withdrawn: d.withdrawn, balance: String(balance) });
  }
  return { items };
}
