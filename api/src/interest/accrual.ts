import { sql } from 'drizzle-orm';
import { RATE_SCALE, dailyRate } from '@app/web3';
import type { Db } from '../db/client';
import { rows } from '../ledger';

const DAY_MS = 86_400_000;
export const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The pool's APY on a day: the latest setting effective on or before it ('0' before any). */
export async function apyOn(db: Pick<Db, 'execute'>, pool: string, day: string): Promise<string> {
  const [row] = await rows<{ apy: string }>(
    db,
    sql`select apy::text as apy from pool_apy where pool = ${pool} and effective_from <= ${day}::date order by effective_from desc limit 1`,
  );
  // numeric(24,18) prints trailing zeros: '0.050000000000000000' → '0.05'.
  return row ? row.apy.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '') : '0';
}

/**
 * Accrues one pool's interest for one UTC day in a single set-based statement: every position earns
 * floor(balance at the close of the day × r), where that balance is today's balance less every
 * posting dated after the day; the house pays the sum. One ledger transaction per pool and day
 * (`interest:<pool>:<day>`, dated the end of the day), one `interest_accruals` row per position
 * (its key: pool, user, currency, day) and the `interest_days` marker, all or nothing. Run twice,
 * or by two replicas at once, the second finds the reference taken and changes nothing.
 */
export async function accrueDay(db: Db, pool: string, day: string, apy: string): Promise<{ created: boolean; positions: number }> {
  const rate = dailyRate(apy).toString();
  const end = `${dayAfter(day)}T00:00:00Z`;
  const reference = `interest:${pool}:${day}`;
  return db.transaction(async (tx) => {
    // The positions are hashed twice (interest, then the balance update): in memory, not in temp files.
    await tx.execute(sql`set local work_mem = '256MB'`);
    await tx.execute(sql`
      insert into ledger_accounts (key, kind, currency)
      select distinct 'house:' || currency, 'house', currency from ledger_accounts where kind = 'position' and pool = ${pool}
      on conflict (key) do nothing`);
    const [r] = await rows<{ created: string; positions: string }>(
      tx,
      sql`
      with tx as (
        insert into ledger_transactions (reference, kind, at, detail)
        values (${reference}, 'interest', ${end}::timestamptz, jsonb_build_object('pool', ${pool}::text, 'day', ${day}::text, 'apy', ${apy}::text))
        on conflict (reference) do nothing
        returning id
      ),
      later as (
        select p.account_id, sum(p.amount) as amount
        from ledger_transactions t
        join ledger_postings p on p.transaction_id = t.id
        join ledger_accounts a on a.id = p.account_id
        where t.at >= ${end}::timestamptz and a.kind = 'position' and a.pool = ${pool}
        group by p.account_id
      ),
      paid as (
        select e.* from (
          select a.id, a.user_id, a.currency, div((coalesce(l.amount, 0) - a.balance) * ${rate}::numeric, ${RATE_SCALE.toString()}::numeric) as amount
          from ledger_accounts a left join later l on l.account_id = a.id
          where a.kind = 'position' and a.pool = ${pool}
        ) e, tx
        where e.amount > 0
      ),
      totals as (select currency, sum(amount) as amount from paid group by currency),
      accruals as (
        insert into interest_accruals (user_id, pool, currency, day, amount)
        select user_id, ${pool}, currency, ${day}::date, amount from paid
      ),
      legs as (
        insert into ledger_postings (transaction_id, account_id, currency, amount, at)
        select tx.id, p.id, p.currency, -p.amount, ${end}::timestamptz from paid p, tx
        union all
        select tx.id, h.id, h.currency, t.amount, ${end}::timestamptz from totals t join ledger_accounts h on h.key = 'house:' || t.currency, tx
      ),
      positions as (update ledger_accounts a set balance = a.balance - p.amount from paid p where a.id = p.id),
      house as (update ledger_accounts h set balance = h.balance + t.amount from totals t where h.key = 'house:' || t.currency),
      marker as (
        insert into interest_days (pool, day, apy, rate, transaction_id)
        select ${pool}, ${day}::date, ${apy}::numeric, ${rate}::numeric, id from tx
      )
      select (select count(*) from tx)::text as created, (select count(*) from paid)::text as positions`,
    );
    return { created: r?.created === '1', positions: Number(r?.positions ?? 0) };
  });
}

/** The first day a pool still has to accrue: after its last accrued day, or the day of its first position posting. */
async function nextDay(db: Db, pool: string): Promise<string | null> {
  const [r] = await rows<{ last: string | null; first: string | null }>(
    db,
    sql`select (select max(day)::text from interest_days where pool = ${pool}) as last,
               (select to_char(min(p.at) at time zone 'UTC', 'YYYY-MM-DD') from ledger_postings p
                  join ledger_accounts a on a.id = p.account_id where a.kind = 'position' and a.pool = ${pool}) as first`,
  );
  if (r?.last) return dayAfter(r.last);
  return r?.first ?? null;
}

export type AccrualRun = { pool: string; days: number; positions: number }[];

/**
 * Catches up every pool's missed days in order, up to and including `until`. The caller holds
 * the interest job's lease (one replica); `renew` extends it between days.
 */
export async function accrueUntil(db: Db, until: string, renew: () => Promise<boolean> = async () => true): Promise<AccrualRun> {
  const pools = await rows<{ name: string }>(db, sql`select name from pools order by sort, name`);
  const out: AccrualRun = [];
  for (const { name } of pools) {
    const summary = { pool: name, days: 0, positions: 0 };
    for (let day = await nextDay(db, name); day && day <= until; day = dayAfter(day)) {
      const r = await accrueDay(db, name, day, await apyOn(db, name, day));
      if (r.created) {
        summary.days++;
        summary.positions += r.positions;
      }
      if (!(await renew())) return out;
    }
    out.push(summary);
  }
  return out;
}
