import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/rows';
import { firstTransactionAt } from '../ledger/window';
import { dayAfter } from './accrual';

/**
 * Records what a pool's positions held at the close of an accrued day, per currency held (none:
 * no row), interest of the day included: the pool's kept total now less every posting on its
 * positions dated after the day (interest by the day it is for), so it reads what came after the
 * day, never the positions themselves. Called by the accrual once the day's parts are done; a
 * rerun keeps the first row, which a rerun would compute the same.
 */
export async function recordPoolDay(db: Pick<Db, 'execute'>, pool: string, day: string): Promise<void> {
  const end = `${dayAfter(day)}T00:00:00Z`;
  await db.execute(sql`
    insert into pool_days (pool, day, currency, tvl)
    select ${pool}, ${day}::date, k.currency, -(k.balance - coalesce(l.amount, 0))
    from pool_totals k
    left join (
      -- From the transactions after the close only (the account compared plus 0, which no index reads), never from the pool's accounts' histories.
      select a.currency, sum(pl.amount) as amount
      from ledger_transactions t join ledger_postings pl on pl.transaction_id = t.id join ledger_accounts a on a.id = pl.account_id + 0
      where t.at >= ${end}::timestamptz and pl.transaction_id >= ${firstTransactionAt(sql`${end}::timestamptz`)} and (t.kind <> 'interest' or t.detail->>'day' > ${day}) and a.kind = 'position' and a.pool = ${pool}
      group by a.currency
    ) l on l.currency = k.currency
    where k.pool = ${pool} and k.balance - coalesce(l.amount, 0) <> 0
    on conflict (pool, day, currency) do nothing`);
}

export type PoolHistoryDay = { day: string; apy: string; tvl: { currency: string; units: bigint }[] };

/**
 * A pool's history, one entry per accrued day, oldest first: the APY the day was accrued with and
 * its positions' holdings at the close. `days` keeps the last so many days up to the newest
 * (0: all). Reads one row per day and currency.
 */
export async function poolHistory(db: Pick<Db, 'execute'>, pool: string, days: number): Promise<PoolHistoryDay[]> {
  const found = await rows<{ day: string; apy: string; tvl: { currency: string; units: string }[] }>(
    db,
    sql`select d.day::text as day, d.apy::text as apy,
               coalesce(json_agg(json_build_object('currency', h.currency, 'units', h.tvl::text) order by h.currency) filter (where h.currency is not null), '[]'::json) as tvl
        from interest_days d
        left join pool_days h on h.pool = d.pool and h.day = d.day
        where d.pool = ${pool}
          ${days > 0 ? sql`and d.day > (select max(day) from interest_days where pool = ${pool}) - ${days}::int` : sql``}
        group by d.day, d.apy
        order by d.day`,
  );
  return found.map((r) => ({ day: r.day, apy: r.apy, tvl: r.tvl.map((t) => ({ currency: t.currency, units: BigInt(t.units) })) }));
}
