import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audit } from '../db/audit';
import { badRequest } from '../http/errors';
import { accrualParts, accrueUntil, dayAfter, holderQuantiles, interestReference, utcDay, type AccrualRun } from '../interest';
import { rows } from '../db/rows';
import { post, type TransactionKind } from '../ledger';
import { firstTransactionAt, lastTransactionBetween, legsFrom, legsOfEach } from '../ledger/window';
import type { PriceSource } from '../pricing';
import type { Services } from '../services';
import { configOn } from './config';

/** 10^18: interest values are scaled to 18 decimals whatever the currency's own, so sums stay exact. */
const SCALE_DIGITS = 18;

/** A non-negative decimal times 10^k (k ≥ 0, or negative for a currency of more than 18 decimals), exactly, as a decimal string. */
function scaledBy(decimal: string, k: number): string {
  const [whole, fraction = ''] = decimal.split('.');
  const digits = `${whole}${fraction}`;
  const point = whole!.length + k;
  const padded = point > digits.length ? digits.padEnd(point, '0') : point < 1 ? `${'0'.repeat(1 - point)}${digits}` : digits;
  const at = Math.max(point, 1);
  const int = padded.slice(0, at).replace(/^0+(?=\d)/, '');
  const frac = padded.slice(at).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/**
 * The day's USD prices, taken from the price source once and kept: a rerun (or a second replica)
 * converts with exactly the same numbers. Every currency the source prices is kept, so capital
 * attracted is valued in any currency held.
 */
export async function pricesOn(db: Db, source: PriceSource, day: string): Promise<Map<string, string>> {
  const known = await rows<{ code: string }>(db, sql`select code from currencies order by code`);
  const kept = async () => new Map((await rows<{ currency: string; usd: string }>(db, sql`select currency, usd::text as usd from referral_prices where day = ${day}::date`)).map((r) => [r.currency, r.usd]));
  const have = await kept();
  const missing = known.map((c) => c.code).filter((c) => !have.has(c));
  if (!missing.length) return have;
  const fresh = [...(await source.usdPrices(missing))].filter(([, usd]) => /^\d+(\.\d+)?$/.test(usd) && !/^0+(\.0+)?$/.test(usd));
  if (fresh.length) {
    const values = sql.join(fresh.map(([c, usd]) => sql`(${day}::date, ${c}, ${usd}::numeric, ${source.name})`), sql`, `);
    await db.execute(sql`insert into referral_prices (day, currency, usd, source) values ${values} on conflict (day, currency) do nothing`);
  }
  return kept();
}

/**
 * An e-mail the owner proved: set only by a mailed code (sign-up confirmation, or a confirmed
 * change), and the account confirmed. A wallet-only account has none until it adds one. The
 * rewards exclude the few accounts without one (an anti-join on a small set) rather than join
 * every referee and ancestor to their user.
 */
const provedEmail = (u: SQL) => sql`(${u}.email is not null and ${u}.role is not null)`;

/**
 * The referees who share an address with any ancestor: a linked wallet, a deposit's sender or a
 * withdrawal's (or claim's) payout address. One account behind both ends of a referral earns the
 * house's money on its own interest; such a referee gives no rewards. They are kept
 * (`referral_sharing_referees`, 0048) as addresses come and go: a few rows, which each step takes
 * whole and joins to its earners, rather than every address the platform has seen.
 */
const sharingReferees = sql`select user_id from referral_sharing_referees`;

export type RewardDay = { pool: string; day: string; created: boolean; rewards: number; total: string; currency: string };

/**
 * Rewards the ancestors of everyone who earned interest in one pool on one day. For referee u,
 * ancestor a at level L (1 … the configuration's deepest) with rank bonus b(a):
 *
 *   reward = floor( Σ_c interest_c(u) × usd_c / 10^dec_c × (rate_L + b(a)) / 10000 × 10^dec_P / usd_P )
 *
 * in base units of the payout currency P, with the day's kept prices, computed in exact numeric
 * arithmetic and rounded down once. Each referrer's sum goes into their one row of the day
 * (`referral_day_rewards`, another pool's or part's rewards of the day adding to it) and each
 * member's shares, one per level, into the member's row of the month (`referral_member_rewards`).
 *
 * The referees are split by user id into parts (`referral_day_parts`, quantiles of the pool's
 * position holders, from a sample of a large book, fixed by the first run of the day), as the
 * accrual splits positions. A reward
 * depends on its referee alone (the floor is per referee and ancestor), so the parts' rewards are
 * exactly the one-part day's. Each part is one set-based statement in its own session and its own
 * ledger transaction (`referral:<pool>:<day>`, or `…:<k>/<n>` for part k of n; house → referral
 * rewards payable) naming the interest transactions it was computed from, all or nothing with its
 * row in `referral_reward_parts` and its referrers' sums (`referral_part_sums`); the parts run
 * in parallel. The referrers' day rows and the `referral_reward_days` marker (the day's rewards,
 * total and withheld earners summed over the parts) follow the last part, in one transaction that
 * takes the parts' sums away; until then the sums are owed as the day rows are.
 * Run twice, by two replicas at once or after a crash between parts, a part whose row is taken
 * changes nothing and the missing parts are done: every reward is paid once.
 *
 * Only accounts with a proved e-mail give or earn rewards, and a referee who shares an address
 * (wallet, deposit sender or payout address) with any ancestor gives none. A reward is written
 * `vesting` until the configuration's vesting period has passed (`vestRewards`). A referrer's row
 * of a day already decided (another pool's day vested) takes no more: a pool day that would add to
 * one is refused whole, and pays nothing. So that it can be, a pool day whose day has a vested pool
 * is not split: it runs in one part. Rewards to referrers without a decided row are paid as usual.
 *
 * The rank is the one the ancestor's capital attracted reaches at the close of the day: the USD
 * value, at the day's prices, of their downline's positions within the configured levels at the
 * close (the day's own interest included, anything dated later left out): what the downline
 * holds now, kept per referrer (`referral_capital`), less the postings dated after the close. It
 * does not depend on the pool nor the part; a day rewarded in several pools or parts keeps the
 * rank written first in the referrer's row, and sums that would write another leave the day unmarked.
 */
export async function rewardDay(db: Db, source: PriceSource, pool: string, day: string, parts = accrualParts(db)): Promise<RewardDay> {
  const config = await configOn(db, day);
  const payout = config.currency;
  const notCreated = { pool, day, created: false, rewards: 0, total: '0', currency: payout };
  const [marked] = await rows<{ decided: boolean }>(db, sql`select decided from referral_reward_days where pool = ${pool} and day = ${day}::date`);
  if (marked) return notCreated;
  // Another pool's day already vested (a pool first funded on a day the others have decided): this pool day still pays the referrers
  // without a decided row of the day, and is refused whole if it would pay one with one. It runs in one part, which is all or nothing.
  const [decided] = await rows<{ one: number }>(db, sql`select 1 as one from referral_reward_days where day = ${day}::date and decided limit 1`);
  const prices = await pricesOn(db, source, day);
  // The pool day's interest transactions (one per part), by their index: not a scan of every interest posting.
  const interest = sql`(select id from ledger_transactions where kind = 'interest' and detail->>'pool' = ${pool} and detail->>'day' = ${day})`;
  // The currencies positions earned in: the house's legs of the day's interest (it pays each currency's sum), a probe per house account rather than a read of every position's leg.
  const earnedIn = await rows<{ currency: string }>(
    db,
    sql`select a.currency from ledger_accounts a
        where a.kind = 'house' and exists (select 1 from ledger_postings p where p.account_id = a.id and p.transaction_id + 0 in ${interest} and ${legsFrom('p', sql`(select min(i.id) from ${interest} i)`)} and p.amount > 0)`,
  );
  const unpriced = [payout, ...earnedIn.map((r) => r.currency)].filter((c) => !prices.has(c));
  // Without a price the conversion cannot be exact: the day waits (and the job says why) rather than rewarding nothing.
  if (unpriced.length) throw new Error(`referral rewards of ${pool} ${day} wait for a price of ${[...new Set(unpriced)].join(', ')} from '${source.name}'`);
  const decimals = new Map((await rows<{ code: string; decimals: number }>(db, sql`select code, decimals from currencies`)).map((c) => [c.code, Number(c.decimals)]));
  // The accounts the parts share exist before they start, which would otherwise wait on each other's insert of them.
  await db.execute(sql`
    insert into ledger_accounts (key, kind, currency) values ('house:' || ${payout}, 'house', ${payout}), ('referral_rewards_payable:' || ${payout}, 'referral_rewards_payable', ${payout})
    on conflict (key) do nothing`);
  // The accrual's split of the day by holder (interest_day_parts, 0049), when it has one into as many parts: each part then reads
  // only its own part's interest transaction. Otherwise about as many holders in each part (`holderQuantiles`). Any bounds give
  // the same rewards.
  const [accrued] = await rows<{ users: string[] | null }>(db, sql`select user_bounds::text[] as users from interest_day_parts where pool = ${pool} and day = ${day}::date`);
  const accrualSplit = accrued?.users ?? null;
  await db.execute(sql`
    insert into referral_day_parts (pool, day, bounds)
    select ${pool}, ${day}::date, ${decided || parts === 1 ? sql`'{}'::uuid[]` : accrualSplit?.length === parts - 1 ? sql`${`{${accrualSplit.join(',')}}`}::uuid[]` : holderQuantiles(pool, parts)}
    on conflict (pool, day) do nothing`);
  const [plan] = await rows<{ bounds: string[] }>(db, sql`select bounds::text[] as bounds from referral_day_parts where pool = ${pool} and day = ${day}::date`);
  const bounds = plan!.bounds;
  const n = bounds.length + 1;
  // The parts are the accrual's: part k's referees all hold their positions in the accrual's part k, and earned only in its transaction.
  const ownInterest = n > 1 && accrualSplit !== null && accrualSplit.join() === bounds.join();
  // Every part runs to its end before the day goes on: one that fails leaves the others done, and the next run does only what is missing.
  const settled = await Promise.allSettled(
    Array.from({ length: n }, (_, k) =>
      rewardPart(db, {
        pool,
        day,
        config,
        prices,
        decimals,
        interest,
        legs: ownInterest ? sql`(select id from ledger_transactions where reference = ${interestReference(pool, day, k + 1, n)})` : interest,
        part: k + 1,
        parts: n,
        from: k > 0 ? bounds[k - 1]! : null,
        to: k < n - 1 ? bounds[k]! : null,
      }),
    ),
  );
  const failed = settled.find((p): p is PromiseRejectedResult => p.status === 'rejected');
  if (failed) throw failed.reason;
  // One part: the day was marked in the part's own transaction. Several: the day's rows and marker once every part is done (a concurrent run may have done some).
  const done = n === 1 ? (settled[0] as PromiseFulfilledResult<Marked>).value : await db.transaction((tx) => markDay(tx, { pool, day, config, parts: n }));
  return done ? { ...notCreated, created: true, rewards: Number(done.rewards), total: done.total } : notCreated;
}

type Marked = { rewards: string; total: string } | null;

/**
 * The day's rows and marker, once every part of the pool's day is done: each referrer's sums of the
 * parts (`referral_part_sums`) written into their one row of the day, at the rank the parts used,
 * and taken away; then the marker, the day's figures summed over its parts. Null when the day is
 * marked already (by a concurrent run, which this one waited for) or a part is still missing.
 */
async function markDay(tx: Db, q: { pool: string; day: string; config: Awaited<ReturnType<typeof configOn>>; parts: number }): Promise<Marked> {
  const { pool, day, config, parts } = q;
  // The day's split row, locked: a second run waits here, then finds the day marked.
  await tx.execute(sql`select 1 from referral_day_parts where pool = ${pool} and day = ${day}::date for update`);
  const [state] = await rows<{ marked: boolean; done: string }>(
    tx,
    sql`select exists (select 1 from referral_reward_days where pool = ${pool} and day = ${day}::date) as marked,
               (select count(*) from referral_reward_parts where pool = ${pool} and day = ${day}::date)::text as done`,
  );
  if (state!.marked || Number(state!.done) !== parts) return null;
  const [w] = await rows<{ referrers: string; written: string }>(
    tx,
    sql`
    with sums as (
      select user_id, min(currency) as currency, min(bonus_bps) as bonus_bps, sum(amount) as amount,
             count(distinct currency) = 1 and min(bonus_bps) = max(bonus_bps) as agreed
      from referral_part_sums where pool = ${pool} and day = ${day}::date
      group by user_id
    ),
    days as (
      -- One row per referrer and day: another pool's rewards of the day add to it while it vests, at the same rank.
      insert into referral_day_rewards as d (user_id, day, currency, bonus_bps, status, amount)
      select s.user_id, ${day}::date, s.currency, s.bonus_bps, 'vesting', s.amount from sums s where s.agreed
      order by s.user_id
      on conflict (user_id, day) do update set amount = d.amount + excluded.amount
      where d.status = 'vesting' and d.currency = excluded.currency and d.bonus_bps = excluded.bonus_bps
      returning 1
    ),
    taken as (delete from referral_part_sums where pool = ${pool} and day = ${day}::date)
    select (select count(*) from sums)::text as referrers, (select count(*) from days)::text as written`,
  );
  if (w?.referrers !== w?.written) {
    // A referrer's day already decided (or in another currency or rank) cannot take more: the day stays unmarked, its sums kept (and owed).
    throw new Error(`referral rewards of ${pool} ${day}: ${Number(w?.referrers) - Number(w?.written)} referrers' rewards of the day are already decided; the day cannot be added to them`);
  }
  const [r] = await rows<{ rewards: string; total: string }>(
    tx,
    sql`insert into referral_reward_days (pool, day, config_id, currency, rewards, total, vests_on, withheld, transaction_id)
        select ${pool}, ${day}::date, ${config.id}, ${config.currency}, sum(p.rewards), sum(p.total), ${day}::date + ${config.vestingDays}::int,
               (select array_agg(w order by w) from referral_reward_parts q, unnest(q.withheld) w where q.pool = ${pool} and q.day = ${day}::date),
               -- The first part's transaction, as the accrual's marker names its first part's; the rest are in referral_reward_parts.
               (select q.transaction_id from referral_reward_parts q where q.pool = ${pool} and q.day = ${day}::date and q.transaction_id is not null order by q.part limit 1)
        from referral_reward_parts p where p.pool = ${pool} and p.day = ${day}::date
        on conflict (pool, day) do nothing
        returning rewards::text, total::text`,
  );
  return r ?? null;
}

type Part = {
  pool: string;
  day: string;
  config: Awaited<ReturnType<typeof configOn>>;
  prices: Map<string, string>;
  decimals: Map<string, number>;
  interest: SQL;
  /** The interest transactions whose legs hold the part's referees' interest: the part's own when the accrual was split as it is, else all of the day's. */
  legs: SQL;
  part: number;
  parts: number;
  from: string | null;
  to: string | null;
};

/**
 * One part of a pool's day, all or nothing: its row in `referral_reward_parts`, its ledger
 * transaction, its members' month rows, its referrers' sums (`referral_part_sums`), then the
 * shared accounts' balances. The parts write no row in common but the house and rewards payable
 * accounts, locked last, in key order, so a part waits on another only for the other's commit and
 * never deadlocks. The referrers' day rows are the day's marker's to write (`markDay`): in this
 * transaction when the day is one part, after the last part otherwise.
 */
async function rewardPart(db: Db, q: Part): Promise<Marked> {
  const { pool, day, config, prices, decimals, interest, legs, part, parts } = q;
  const payout = config.currency;
  const depth = config.levels.length;
  const end = `${dayAfter(day)}T00:00:00Z`;
  const reference = parts === 1 ? `referral:${pool}:${day}` : `referral:${pool}:${day}:${part}/${parts}`;
  const inPart = (u: SQL) => sql`(${q.from === null ? sql`true` : sql`${u} >= ${q.from}::uuid`} and ${q.to === null ? sql`true` : sql`${u} < ${q.to}::uuid`})`;
  // The kept prices go into the statement as a VALUES list: the planner knows its size exactly. Each
  // with its USD × 10^18 per base unit, and the payout's divisor, worked out here exactly (a decimal
  // point moved), not by power() on every row.
  const dayPrices = sql`(select * from (values ${sql.join(
    [...prices]
      .filter(([c]) => decimals.has(c))
      .map(([c, usd]) => sql`(${c}::text, ${usd}::numeric, ${decimals.get(c)!}::int, ${scaledBy(usd, SCALE_DIGITS - decimals.get(c)!)}::numeric)`),
    sql`, `,
  )}) v(currency, usd, decimals, usd_scaled))`;
  // reward = floor(value × 10^dec_P × (rate_L + b) / (usd_P × 10000 × 10^18)).
  const payoutUnit = scaledBy('1', decimals.get(payout)!);
  const payoutDivisor = scaledBy(prices.get(payout)!, 4 + SCALE_DIGITS);
  const rankRanges = sql`(select bonus_bps, capital_usd as low, lead(capital_usd) over (order by capital_usd) as high
    from referral_config_ranks where config_id = ${config.id})`;
  const paid = sql`
    select * from (
      select l.ancestor_id, l.user_id, l.level, coalesce(ex.bonus_bps, b.bonus_bps, z.bonus_bps) as bonus_bps,
             div(l.value * ${payoutUnit}::numeric * (l.reward_bps + coalesce(ex.bonus_bps, b.bonus_bps, z.bonus_bps)), ${payoutDivisor}::numeric) as amount
      from linked l
      left join (
        -- Each of the part's referrers' rank bonus, from their capital attracted: the downline's positions at the close of the day, at the day's prices.
        select cap.ancestor_id, rk.bonus_bps
        from (
          -- What the downline holds now, kept per referrer (0022), less what it moved after the close.
          select x.ancestor_id, sum(x.usd) as usd from (
            select c.ancestor_id, -c.balance * pr.usd / power(10::numeric, pr.decimals) as usd
            from referral_capital c join ${dayPrices} pr on pr.currency = c.currency
            where c.level <= ${depth} and c.ancestor_id in (select ancestor_id from linked)
            union all
            select af.ancestor_id, af.amount * pr.usd / power(10::numeric, pr.decimals)
            from after_close af join ${dayPrices} pr on pr.currency = af.currency
            where af.ancestor_id in (select ancestor_id from linked)
          ) x
          group by x.ancestor_id
        ) cap
        join ${rankRanges} rk on cap.usd >= rk.low and (rk.high is null or cap.usd < rk.high)
      ) b on b.ancestor_id = l.ancestor_id
      -- Another pool's rewards of the day came first: the rank they used stands for the whole day (the parts of this one compute the same).
      left join referral_day_rewards ex on ex.user_id = l.ancestor_id and ex.day = ${day}::date
      -- A referrer whose downline holds nothing: the bonus of a rank needing no capital, if any.
      cross join (select coalesce(max(bonus_bps) filter (where low <= 0), 0) as bonus_bps from ${rankRanges} r0) z
    ) x
    where amount > 0`;
  const month = `${day.slice(0, 7)}-01`;
  const houseKeys = [`house:${payout}`, `referral_rewards_payable:${payout}`].sort();
  return db.transaction(async (tx) => {
    // The part's referees and their ancestors are sorted and hashed a few times: in memory, as the accrual's, not in temp files.
    await tx.execute(sql`set local work_mem = '256MB'`);
    const [r] = await rows<{ total: string | null; transaction: string | null }>(
      tx,
      sql`
      with earners as (
        -- Each of the part's referees' interest of the day (their credits in the pool day's interest transactions), in USD × 10^18.
        -- Grouped from the legs sorted by user: one sum's state at a time, where a hash of the part's earners held a numeric
        -- state for each of them; and the earners come out in user order, which the joins below keep (each probes a hash of
        -- the other side with them), so the members' month rows are grouped from rows already in order.
        select user_id, sum(value) as value from (
          select a.user_id, -p.amount * pr.usd_scaled as value
          -- The legs of the part's interest transactions (its own part's of the accrual, or the pool day's), each read by the
          -- transaction index whatever the statistics (the table's size, an account's legs); their count, which the planner
          -- takes from the column's statistics, plans the rest of the statement.
          from ${legs} it ${legsOfEach('it')}
          join ledger_accounts a on a.id = p.account_id and a.kind = 'position'
          join ${dayPrices} pr on pr.currency = a.currency
          where p.amount < 0 and ${inPart(sql`a.user_id`)}
          order by a.user_id
        ) l
        group by user_id
      ),
      unproved as materialized (select id from users where not ${provedEmail(sql`users`)}),
      shared as materialized (${sharingReferees}),
      after_close as materialized (
        -- What each referrer's downline moved after the close of the day (its own interest is dated at the close), per currency:
        -- from those postings up to their ancestors, so its cost is what moved, not the referrers' whole downlines.
        select t.ancestor_id, a.currency, sum(pl.amount) as amount
        from ledger_transactions tr
        join ledger_postings pl on pl.transaction_id = tr.id
        join ledger_accounts a on a.id = pl.account_id + 0 and a.kind = 'position'
        join referral_tree t on t.user_id = a.user_id and t.level <= ${depth}
        where tr.at > ${end}::timestamptz and pl.transaction_id >= ${firstTransactionAt(sql`${end}::timestamptz`, true)}
        group by t.ancestor_id, a.currency
      ),
      linked as materialized (
        -- Each referee and their ancestors within the levels: both with a proved e-mail, the referee sharing no address with any ancestor.
        select t.user_id, t.level, t.ancestor_id, lv.reward_bps, e.value
        from earners e
        -- The part's range said again of the tree: only the part's referees' ancestors are read and hashed, not the whole network's.
        join referral_tree t on t.user_id = e.user_id and t.level <= ${depth} and ${inPart(sql`t.user_id`)}
        join referral_config_levels lv on lv.config_id = ${config.id} and lv.level = t.level
        where not exists (select 1 from unproved x where x.id = e.user_id)
          and not exists (select 1 from unproved x where x.id = t.ancestor_id)
          and not exists (select 1 from shared s where s.user_id = e.user_id)
      ),
      paid as materialized (${paid}),
      totals as (select count(*) as rewards, coalesce(sum(amount), 0) as total from paid),
      done as (
        insert into referral_reward_parts (pool, day, part, rewards, total, withheld)
        select ${pool}, ${day}::date, ${part}, rewards, total,
               -- The earners who gave nothing: a recomputation of the day (vesting, an audit) leaves them out.
               (select array_agg(e.user_id order by e.user_id) from earners e
                where exists (select 1 from unproved x where x.id = e.user_id) or exists (select 1 from shared s where s.user_id = e.user_id))
        from totals
        on conflict (pool, day, part) do nothing
        returning total
      ),
      tx as (
        insert into ledger_transactions (reference, kind, at, detail)
        select ${reference}, ${'referral_reward' satisfies TransactionKind}, ${end}::timestamptz,
               jsonb_build_object('pool', ${pool}::text, 'day', ${day}::text, 'config', ${config.id}::bigint, 'currency', ${payout}::text,
                 -- The interest the rewards were computed from: the pool day's interest transactions (one per part of the accrual).
                 'interest', (select coalesce(jsonb_agg(it.id order by it.id), '[]'::jsonb) from ${interest} it))
                 ${parts === 1 ? sql`` : sql`|| jsonb_build_object('part', ${`${part}/${parts}`}::text)`}
        from done where total > 0
        on conflict (reference) do nothing
        returning id
      ),
      referrers as (
        -- Each referrer's sum of the part, kept for the day's rows (written once, with the day's marker).
        insert into referral_part_sums (user_id, pool, day, part, currency, bonus_bps, amount)
        select ancestor_id, ${pool}, ${day}::date, ${part}, ${payout}, max(bonus_bps), sum(amount) from paid, tx group by ancestor_id order by ancestor_id
      ),
      members as (
        -- Each member's shares of the day, one per level, into the member's row of the month (the parts' members are apart).
        insert into referral_member_rewards as m (member_id, month, currency, amounts)
        -- A member has one share per level (one ancestor each): max() picks it, with a state far lighter than sum()'s, so the
        -- grouping of a large part stays in memory.
        select p.user_id, ${month}::date, ${payout}, array[${sql.join(
          config.levels.map((_, i) => sql`coalesce(max(p.amount) filter (where p.level = ${i + 1}), 0)`),
          sql`, `,
        )}]
        -- Paid is in user order already (as the earners are): the sort finds it so and the grouping goes along it. The part's
        -- transaction is a condition on the whole, not a join, which would lose that order.
        from (select * from paid order by user_id) p
        where exists (select from tx)
        group by p.user_id
        order by p.user_id
        -- Added level by level in the statement itself (a function call per row would cost more than the update).
        on conflict (member_id, month, currency) do update set amounts = array[${sql.join(
          config.levels.map((_, i) => sql`coalesce(m.amounts[${sql.raw(String(i + 1))}], 0) + excluded.amounts[${sql.raw(String(i + 1))}]`),
          sql`, `,
        )}] || coalesce(m.amounts[${sql.raw(String(config.levels.length + 1))}:], '{}')
      ),
      legs as (
        insert into ledger_postings (transaction_id, account_id, amount)
        select tx.id, a.id, case when a.kind = 'house' then d.total else -d.total end
        from tx, done d, ledger_accounts a
        where a.key in ('house:' || ${payout}, 'referral_rewards_payable:' || ${payout})
      )
      select (select total from done)::text as total, (select id from tx)::text as transaction`,
    );
    if (r?.transaction) {
      // The house and rewards payable accounts, shared by every part: locked last, in key order.
      await tx.execute(sql`select id from ledger_accounts where key in (${sql.join(houseKeys.map((k) => sql`${k}`), sql`, `)}) order by key for update`);
      await tx.execute(sql`
        update ledger_accounts a set balance = a.balance + case when a.kind = 'house' then ${r.total}::numeric else -${r.total}::numeric end
        where a.key in (${sql.join(houseKeys.map((k) => sql`${k}`), sql`, `)})`);
      await tx.execute(sql`update referral_reward_parts set transaction_id = ${r.transaction}::bigint where pool = ${pool} and day = ${day}::date and part = ${part}`);
    }
    // A day in one part is marked with it, all or nothing: a day that would add to a decided row pays nothing.
    return parts === 1 ? markDay(tx, { pool, day, config, parts }) : null;
  });
}

export type RewardRun = { days: number; rewards: number; totals: Record<string, string> };

/**
 * Rewards every accrued pool day not rewarded yet, oldest first. The caller holds the interest
 * job's lease; `renew` extends it between days.
 */
export async function rewardAccruedDays(db: Db, source: PriceSource, renew: () => Promise<boolean> = async () => true): Promise<RewardRun> {
  const todo = await rows<{ pool: string; day: string }>(
    db,
    sql`select d.pool, d.day::text as day from interest_days d
        where not exists (select 1 from referral_reward_days r where r.pool = d.pool and r.day = d.day)
        order by d.day, d.pool`,
  );
  const run: RewardRun = { days: 0, rewards: 0, totals: {} };
  for (const { pool, day } of todo) {
    const r = await rewardDay(db, source, pool, day);
    if (r.created) {
      run.days++;
      run.rewards += r.rewards;
      run.totals[r.currency] = String(BigInt(run.totals[r.currency] ?? '0') + BigInt(r.total));
    }
    if (!(await renew())) break;
  }
  return run;
}

export type VestRun = { vested: number; forfeited: number; returned: Record<string, string> };

/** A member's share of a day's rewards that went back to the house, as the forfeit's ledger transaction lists it. */
export type Forfeit = { member: string; referrer: string; pool: string; day: string; reason: 'funds_left' | 'shared_address'; amount: string };

/**
 * Decides every pool day whose vesting period has closed by `until`, in one transaction. A member's
 * rewards of day D stay when, from the close of D to the close of its last day, none of the
 * member's positions in the pool went below where it stood at the close of D (their deposits and
 * withdrawals summed in time order; interest left aside), and the member shares no address with an
 * ancestor; otherwise they are forfeited: recomputed from the member's interest postings of the day
 * (the reward's formula with the day's kept prices, configuration and each referrer's rank bonus),
 * taken off the referrer's day row and the member's month row, and returned by the ledger from rewards payable to
 * the house. Every referrer's row of a decided day becomes earned (or forfeited, if nothing is
 * left). `vested` counts the rows made earned, `forfeited` the members' shares returned.
 *
 * Run twice, or by two replicas at once, a day is decided once: the markers are locked and taken
 * only while undecided (a concurrent run waits on them, then finds them decided), and the return's
 * reference names the batch's first day and pool.
 */
export async function vestRewards(db: Db, until: string): Promise<VestRun> {
  return db.transaction(async (tx) => {
    const due = await rows<{ pool: string; day: string }>(
      tx,
      sql`select pool, day::text as day from referral_reward_days where not decided and vests_on <= ${until}::date order by day, pool for update`,
    );
    if (!due.length) return { vested: 0, forfeited: 0, returned: {} };
    const found = await rows<Forfeit & { currency: string; earned: string | null }>(
      tx,
      sql`
      with due as (
        select d.pool, d.day, d.vests_on, d.config_id, d.currency, coalesce(d.withheld, '{}') as withheld
        from referral_reward_days d where not d.decided and d.vests_on <= ${until}::date
      ),
      moves as (
        -- Deposits and withdrawals of the due pools' positions over the windows, per position and instant: from the windows'
        -- transactions (the account compared plus 0, which no index reads), never from each position's whole history.
        select a.user_id, a.pool, pl.account_id, t.at, -sum(pl.amount) as amount
        from ledger_transactions t
        join ledger_postings pl on pl.transaction_id = t.id
        join ledger_accounts a on a.id = pl.account_id + 0
        where t.kind <> 'interest' and a.kind = 'position'
          and t.at >= (select (min(day) + 1)::timestamp at time zone 'UTC' from due)
          and t.at < (select (max(vests_on) + 1)::timestamp at time zone 'UTC' from due)
          and pl.transaction_id between ${firstTransactionAt(sql`(select (min(day) + 1)::timestamp at time zone 'UTC' from due)`)}
            and ${lastTransactionBetween(sql`(select (min(day) + 1)::timestamp at time zone 'UTC' from due)`, sql`(select (max(vests_on) + 1)::timestamp at time zone 'UTC' from due)`, false)}
          and a.pool in (select pool from due)
        group by a.user_id, a.pool, pl.account_id, t.at
      ),
      funds_left as (
        select distinct user_id, pool, day from (
          select m.user_id, d.pool, d.day, sum(m.amount) over (partition by d.pool, d.day, m.account_id order by m.at) as run
          from due d
          join moves m on m.pool = d.pool
            and m.at >= (d.day + 1)::timestamp at time zone 'UTC' and m.at < (d.vests_on + 1)::timestamp at time zone 'UTC'
        ) r
        where run < 0
      ),
      shared as materialized (${sharingReferees}),
      candidates as materialized (
        -- Who may forfeit a due day: those whose funds left, and the kept referees who share an address. Only their legs are read.
        select user_id, pool, day from funds_left
        union
        select s.user_id, d.pool, d.day from shared s cross join due d
      ),
      earned as materialized (
        -- Their interest of the due days: each one's positions in the pool, then each position's leg of the day's interest
        -- transactions by the account's index, from the week before the transaction was written (as legsFrom reads).
        select a.user_id, d.pool, d.day, a.currency, -p.amount as amount
        from candidates c
        join due d on d.pool = c.pool and d.day = c.day
        join ledger_transactions t on t.kind = 'interest' and t.detail->>'pool' = d.pool and t.detail->>'day' = d.day::text
        join ledger_accounts a on a.user_id = c.user_id and a.kind = 'position' and a.pool = d.pool
        cross join lateral (
          select pl.amount from ledger_postings pl
          where pl.account_id = a.id and pl.written_week >= ledger_week(t.created_at) - 1 and pl.transaction_id + 0 = t.id
          offset 0
        ) p
        where p.amount < 0
      ),
      leaving as (
        -- Who gave on a due day and now forfeits it: a shared address outranks funds that left.
        select f.user_id, f.pool, f.day, max(f.reason) as reason
        from (
          select user_id, pool, day, 'funds_left' as reason from funds_left
          union all
          -- The kept referees who earned on the day (only candidates' legs are read).
          select distinct e.user_id, e.pool, e.day, 'shared_address' from earned e join shared s on s.user_id = e.user_id
        ) f
        join due d on d.pool = f.pool and d.day = f.day
        where not (f.user_id = any (d.withheld))
        group by f.user_id, f.pool, f.day
      ),
      valued as (
        -- Their interest of the day in USD × 10^18, at the day's kept prices.
        select a.user_id, a.pool, a.day, sum(a.amount * pr.usd * power(10::numeric, ${SCALE_DIGITS} - c.decimals)) as value
        from earned a
        join leaving l on l.user_id = a.user_id and l.pool = a.pool and l.day = a.day
        join referral_prices pr on pr.day = a.day and pr.currency = a.currency
        join currencies c on c.code = a.currency
        group by a.user_id, a.pool, a.day
      ),
      shares as (
        -- What each of them gave each referrer with a row of the day: the reward's own formula.
        select l.user_id as member, t.ancestor_id as referrer, t.level, l.pool, l.day, l.reason, d.currency,
               div(v.value * power(10::numeric, pc.decimals) * (lv.reward_bps + r.bonus_bps), pp.usd * 10000 * power(10::numeric, ${SCALE_DIGITS})) as amount
        from leaving l
        join due d on d.pool = l.pool and d.day = l.day
        join valued v on v.user_id = l.user_id and v.pool = l.pool and v.day = l.day
        join referral_tree t on t.user_id = l.user_id
        join referral_config_levels lv on lv.config_id = d.config_id and lv.level = t.level
        join referral_day_rewards r on r.user_id = t.ancestor_id and r.day = l.day and r.status = 'vesting'
        join referral_prices pp on pp.day = d.day and pp.currency = d.currency
        join currencies pc on pc.code = d.currency
      ),
      taken as materialized (select * from shares where amount > 0),
      members as (
        update referral_member_rewards m set amounts = referral_levels_add(m.amounts, x.amounts)
        from (select member, date_trunc('month', day)::date as month, currency, referral_levels_sum(referral_level_share(level, -amount)) as amounts
              from taken group by 1, 2, 3) x
        where m.member_id = x.member and m.month = x.month and m.currency = x.currency
      ),
      -- Every referrer's row of the due days is decided: those with forfeits by their key, the others by the days' vesting
      -- rows, in two updates of rows apart (a row joined to its own table would be found again per row, by a day's index
      -- whenever the statistics guess a day has one row).
      forfeits_of as materialized (select referrer, day, sum(amount) as amount from taken group by referrer, day),
      forfeited_rows as (
        -- Rows of taken shares are vesting (taken joined them so, and the due markers are locked): the key alone finds them.
        update referral_day_rewards r
        set amount = r.amount - f.amount, forfeited = r.forfeited + f.amount,
            status = case when r.amount = f.amount then 'forfeited' else 'earned' end
        from forfeits_of f
        where r.user_id = f.referrer and r.day = f.day
        returning r.status, r.amount
      ),
      kept_rows as (
        update referral_day_rewards r
        set status = case when r.amount = 0 then 'forfeited' else 'earned' end
        where r.status = 'vesting' and r.day in (select day from due)
          and not exists (select 1 from forfeits_of f where f.referrer = r.user_id and f.day = r.day)
        returning r.status, r.amount
      ),
      decided as (select status, amount from forfeited_rows union all select status, amount from kept_rows),
      marked as (update referral_reward_days d set decided = true from due where d.pool = due.pool and d.day = due.day)
      select member::text, referrer::text, pool, day::text, reason, currency, amount::text, null as earned from taken
      union all
      select null, null, null, null, null, null, null, count(*)::text from decided where status = 'earned'
      union all
      -- A share recomputed larger than what the referrer had: the books would be wrong; the batch is undone below.
      select null, null, null, null, 'overdrawn', null, null, null from decided where amount < 0
      union all
      select null, null, null, null, 'overdrawn', null, null, null from taken k
      join referral_member_rewards m on m.member_id = k.member and m.month = date_trunc('month', k.day)::date and m.currency = k.currency
      where coalesce(m.amounts[k.level], 0) < k.amount
      order by day, pool, member, referrer`,
    );
    if (found.some((f) => (f.reason as string) === 'overdrawn')) throw new Error(`vesting up to ${until}: a recomputed share exceeds what its referrer was given; nothing decided`);
    const earned = Number(found.find((f) => f.earned !== null)?.earned ?? 0);
    const forfeits = found.filter((f) => f.earned === null && f.member !== null);
    const returned: Record<string, bigint> = {};
    for (const f of forfeits) returned[f.currency] = (returned[f.currency] ?? 0n) + BigInt(f.amount);
    if (forfeits.length) {
      await post(tx, {
        reference: `referral:forfeit:${due[0]!.day}:${due[0]!.pool}`,
        kind: 'referral_forfeit',
        detail: { until, forfeits: forfeits.map(({ member, referrer, pool, day, reason, amount }) => ({ member, referrer, pool, day, reason, amount })) },
        postings: Object.entries(returned).flatMap(([currency, amount]) => [
          { account: { kind: 'referral_rewards_payable' as const, currency }, amount },
          { account: { kind: 'house' as const, currency }, amount: -amount },
        ]),
      });
    }
    return {
      vested: earned,
      forfeited: forfeits.length,
      returned: Object.fromEntries(Object.entries(returned).map(([c, a]) => [c, a.toString()])),
    };
  });
}

/**
 * The daily interest run: every missed day's accrual, then the referral rewards on it, then the
 * vesting of the rewards whose period has passed, under the same lease. Rewards follow the
 * accrual's markers, so however the accrual is organised, each accrued pool day is rewarded once.
 */
export async function accrueAndReward(
  db: Db,
  source: PriceSource,
  until: string,
  renew: () => Promise<boolean> = async () => true,
): Promise<{ pools: AccrualRun; referral: RewardRun; vesting: VestRun }> {
  const pools = await accrueUntil(db, until, renew);
  const referral = await rewardAccruedDays(db, source, renew);
  const vesting = await vestRewards(db, until);
  return { pools, referral, vesting };
}

/**
 * The operator's run of the daily interest up to a day, under the job's lease, written to the
 * audit log. `skipped` says another replica holds the lease.
 */
export async function accrueAsOperator(s: Services, who: string, until: string) {
  const today = utcDay(new Date());
  // In production only closed days accrue; elsewhere a future day lets people see a month at once.
  if (!s.config.money.allowFutureAccrual && until >= today) {
    throw badRequest(`only closed days accrue: --until must be before ${today}`, 'DAY_NOT_CLOSED', { until: 'only closed days accrue' });
  }
  const result = (await s.jobs.runNow('interest', ({ renew }) => accrueAndReward(s.db, s.prices, until, renew))) as Partial<Awaited<ReturnType<typeof accrueAndReward>>>;
  const pools = result.pools ?? [];
  const referral = result.referral ?? null;
  await audit(s.db, { actor: who, action: 'interest.accrue', target: until, after: { pools, referral } });
  return { until, pools, referral, skipped: result.pools ? null : 'another replica is accruing; try again shortly' };
}
