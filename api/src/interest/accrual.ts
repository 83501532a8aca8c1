import { sql, type SQL } from 'drizzle-orm';
import { RATE_SCALE, dailyRate } from '@app/web3';
import type { Db } from '../db/client';
import { rows } from '../db/rows';
import type { TransactionKind } from '../ledger';
import { firstTransactionAt, lastTransactionBetween } from '../ledger/window';
import { recordPoolDay } from './history';
import { apyEntryOn } from './apy';

const DAY_MS = 86_400_000;
export const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The pool's APY on a day: the latest setting effective on or before it ('0' before any). */
export async function apyOn(db: Pick<Db, 'execute'>, pool: string, day: string): Promise<string> {
  return (await apyEntryOn(db, pool, day))?.apy ?? '0';
}

/**
 * How many database sessions share a pool's day: node-postgres gives a pool of connections (two
 * keep a 2-core server busy), PGlite one.
 */
export function accrualParts(db: Db): number {
  const max = (db as unknown as { $client?: { options?: { max?: unknown } } }).$client?.options?.max;
  return typeof max === 'number' && max > 1 ? 2 : 1;
}

/**
 * Accrues one pool's interest for one UTC day: every position earns floor(lowest balance held
 * during the day × r), so money held for part of the day earns nothing for it. The close of the
 * day is today's balance less every posting dated after it; the opening is the close less the
 * day's movements; only positions that moved during the day have a lowest balance below both,
 * found from their own postings of the day (README: "Accrual"). The house pays the sum. The positions are split by their holders' user ids into
 * parts (`holderQuantiles`), fixed in `interest_day_parts` by the first run of the day, each accrued by one set-based statement in its
 * own session and its own ledger transaction (`interest:<pool>:<day>`, or `…:<k>/<n>` for part k of
 * n, dated the end of the day), in parallel. The `interest_days` marker follows the last part. Run
 * twice, by two replicas at once or after a crash between parts, a part whose reference is taken
 * changes nothing and the missing parts are done: every position earns once.
 */
export async function accrueDay(db: Db, pool: string, day: string, apy: string, parts = accrualParts(db)): Promise<{ created: boolean; positions: number }> {
  const rate = dailyRate(apy).toString();
  const end = `${dayAfter(day)}T00:00:00Z`;
  // Every currency's house account exists before the parts start, which would otherwise wait on each other's insert of it.
  await db.execute(sql`insert into ledger_accounts (key, kind, currency) select 'house:' || code, 'house', code from currencies on conflict (key) do nothing`);
  // About as many of the pool's position holders in each part (quantiles of their user ids), as the referral step splits its
  // parts, which then read only their own part's interest. A day split before by account id (no user bounds) keeps that split.
  await db.execute(sql`
    insert into interest_day_parts (pool, day, bounds, user_bounds)
    select ${pool}, ${day}::date, '{}', ${holderQuantiles(pool, parts)}
    on conflict (pool, day) do nothing`);
  const [plan] = await rows<{ bounds: string[]; users: string[] | null }>(
    db,
    sql`select bounds::text[] as bounds, user_bounds::text[] as users from interest_day_parts where pool = ${pool} and day = ${day}::date`,
  );
  const by = plan!.users ? 'user' : 'account';
  const bounds = plan!.users ?? plan!.bounds;
  const n = bounds.length + 1;
  const reference = (k: number) => interestReference(pool, day, k + 1, n);
  const done = await Promise.all(
    Array.from({ length: n }, (_, k) =>
      accruePart(db, { pool, day, apy, rate, start: `${day}T00:00:00Z`, end, reference: reference(k), by, from: k > 0 ? bounds[k - 1]! : null, to: k < n - 1 ? bounds[k]! : null }),
    ),
  );
  // The pool's history (its books at the day's close) is written before the day is marked done.
  await recordPoolDay(db, pool, day);
  const marked = await rows<{ pool: string }>(
    db,
    sql`insert into interest_days (pool, day, apy, rate, transaction_id)
        select ${pool}, ${day}::date, ${apy}::numeric, ${rate}::numeric, id from ledger_transactions where reference = ${reference(0)}
        on conflict (pool, day) do nothing returning pool`,
  );
  return { created: marked.length > 0, positions: done.reduce((sum, p) => sum + p, 0) };
}

/** The ledger reference of part k (from 1) of n of a pool's day of interest. */
export const interestReference = (pool: string, day: string, k: number, n: number) => (n === 1 ? `interest:${pool}:${day}` : `interest:${pool}:${day}:${k}/${n}`);

type Part = { pool: string; day: string; apy: string; rate: string; start: string; end: string; reference: string; by: 'user' | 'account'; from: string | null; to: string | null };

/** About how many position accounts a large pool's split into parts is estimated from. */
const PART_SAMPLE = 20_000;

/**
 * The user ids that split a pool's position holders into about equal parts (an empty array for one
 * part): quantiles of a sample of the position accounts (about PART_SAMPLE), not a sort of every
 * holder; a small book's are taken from all of them. The sample draws rows, not pages: a page's
 * accounts were often opened together, by users whose ids are close, and a sample of whole pages
 * then splits a large book unevenly. Any bounds give the same interest and rewards: they only share
 * the work out. Holders who come later fall in the last part.
 */
export const holderQuantiles = (pool: string, parts: number): SQL =>
  parts <= 1
    ? sql`'{}'::uuid[]`
    : sql`coalesce(
      (select percentile_disc(array(select g::float8 / ${parts} from generate_series(1, ${parts - 1}) g)) within group (order by user_id)
       from ledger_accounts tablesample bernoulli ((select least(100, 100 * ${PART_SAMPLE} / greatest(reltuples, 1))::float4 from pg_class where oid = 'ledger_accounts'::regclass))
       where kind = 'position' and pool = ${pool}),
      '{}'::uuid[])`;

/** One part of a pool's day, all or nothing: its transaction, its positions' legs and balances, the house's legs and balances. Returns the positions credited (0 when the part was done before). */
async function accruePart(db: Db, p: Part): Promise<number> {
  const key = p.by === 'user' ? sql`a.user_id` : sql`a.id`;
  const type = p.by === 'user' ? sql`uuid` : sql`bigint`;
  const inPart = sql`a.kind = 'position' and a.pool = ${p.pool} ${p.from === null ? sql`` : sql`and ${key} >= ${p.from}::${type}`} ${p.to === null ? sql`` : sql`and ${key} < ${p.to}::${type}`}`;
  return db.transaction(async (tx) => {
    // The positions are hashed twice (interest, then the balance update): in memory, not in temp files.
    // No JIT: the balance update's trigger (0022) plans from transition tables the planner guesses
    // far too large, and compiling it with inlining and optimization cost more than it saved.
    await tx.execute(sql`select set_config('work_mem', '256MB', true), set_config('jit', 'off', true)`);
    const [r] = await rows<{ positions: string; totals: { currency: string; amount: string }[] }>(
      tx,
      sql`
      with tx as (
        insert into ledger_transactions (reference, kind, at, detail)
        values (${p.reference}, ${'interest' satisfies TransactionKind}, ${p.end}::timestamptz, jsonb_build_object('pool', ${p.pool}::text, 'day', ${p.day}::text, 'apy', ${p.apy}::text))
        on conflict (reference) do nothing
        returning id
      ),
      -- Both reads of what moved start from the transactions (the account is compared plus 0, which no index reads): from the
      -- part's accounts, the account index would read each position's whole history, as it does whenever the statistics
      -- guess an account holds about one leg (a sampled n_distinct of a long ledger does).
      later as (
        select pl.account_id, sum(pl.amount) as amount
        from ledger_transactions t
        join ledger_postings pl on pl.transaction_id = t.id
        join ledger_accounts a on a.id = pl.account_id + 0
        where t.at >= ${p.end}::timestamptz and pl.transaction_id >= ${firstTransactionAt(sql`${p.end}::timestamptz`)} and ${inPart}
        group by pl.account_id
      ),
      moves as (
        -- What moved the positions during the day, after its first instant (the previous day's
        -- interest, dated that instant, is part of the opening balance), per instant, in value held.
        select pl.account_id, t.at, -sum(pl.amount) as amount
        from ledger_transactions t
        join ledger_postings pl on pl.transaction_id = t.id
        join ledger_accounts a on a.id = pl.account_id + 0
        where t.at > ${p.start}::timestamptz and t.at < ${p.end}::timestamptz and ${inPart}
          and pl.transaction_id between ${firstTransactionAt(sql`${p.start}::timestamptz`, true)} and ${lastTransactionBetween(sql`${p.start}::timestamptz`, sql`${p.end}::timestamptz`)}
        group by pl.account_id, t.at
      ),
      dips as (
        -- Per position that moved: its net movement, and how far below the opening it went at worst.
        select account_id, sum(amount) as moved, least(0, min(run)) as dip
        from (select account_id, amount, sum(amount) over (partition by account_id order by at) as run from moves) m
        group by account_id
      ),
      paid as (
        select e.* from (
          -- The day's lowest balance: the close, less the day's movements (the opening), plus the deepest dip.
          select a.id, a.currency,
                 div((coalesce(l.amount, 0) - a.balance - coalesce(d.moved, 0) + coalesce(d.dip, 0)) * ${p.rate}::numeric, ${RATE_SCALE.toString()}::numeric) as amount
          from ledger_accounts a left join later l on l.account_id = a.id left join dips d on d.account_id = a.id
          where ${inPart}
        ) e, tx
        where e.amount > 0
      ),
      totals as (select currency, sum(amount) as amount from paid group by currency),
      legs as (
        insert into ledger_postings (transaction_id, account_id, amount)
        select tx.id, pd.id, -pd.amount from paid pd, tx
        union all
        select tx.id, h.id, t.amount from totals t join ledger_accounts h on h.key = 'house:' || t.currency, tx
      ),
      positions as (update ledger_accounts a set balance = a.balance - pd.amount, interest = a.interest + pd.amount from paid pd where a.id = pd.id and ${inPart})
      select (select count(*) from paid)::text as positions,
             (select coalesce(json_agg(json_build_object('currency', currency, 'amount', amount::text) order by currency), '[]'::json) from totals) as totals`,
    );
    const totals = r?.totals ?? [];
    if (totals.length) {
      // The parts share the house accounts: each locks them in key order, last, so they wait briefly and never deadlock.
      const keys = totals.map((t) => sql`${`house:${t.currency}`}`);
      await tx.execute(sql`select id from ledger_accounts where key in (${sql.join(keys, sql`, `)}) order by key for update`);
      await tx.execute(sql`
        update ledger_accounts h set balance = h.balance + v.amount::numeric
        from (values ${sql.join(totals.map((t) => sql`(${`house:${t.currency}`}, ${t.amount})`), sql`, `)}) v(key, amount)
        where h.key = v.key`);
    }
    return Number(r?.positions ?? 0);
  });
}

/**
 * The first day a pool still has to accrue: after its last accrued day (one probe of the markers'
 * key), or, before its first day, the day of its first position posting.
 */
async function nextDay(db: Db, pool: string): Promise<string | null> {
  const [marker] = await rows<{ day: string }>(db, sql`select day::text as day from interest_days where pool = ${pool} order by interest_days.day desc limit 1`);
  if (marker) return dayAfter(marker.day);
  const [r] = await rows<{ first: string | null }>(
    db,
    sql`select (select to_char(min(t.at) at time zone 'UTC', 'YYYY-MM-DD') from ledger_postings p
                  join ledger_accounts a on a.id = p.account_id join ledger_transactions t on t.id = p.transaction_id
                  where a.kind = 'position' and a.pool = ${pool}) as first`,
  );
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
