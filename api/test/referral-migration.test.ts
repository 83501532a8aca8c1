import { migrate } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import { migrationsFolder, type Db } from '../src/db/client';
import { rows } from '../src/db/rows';
import { checkLedger } from '../src/ledger';
import { databaseBefore } from './migrations-before';

/**
 * Issue 23, goal 3: migration 0035 moves the referral rewards of before (one row per day, pool,
 * referee and level) into one row per referrer and day and each member's share per month, keeps
 * every total (checked here against what the test wrote, not against the migration's own sums),
 * and refuses to run, changing nothing, when the rows it starts from do not add up.
 */


const R = '00000000-0000-4000-8000-0000000000a1';
const A = '00000000-0000-4000-8000-0000000000a2';
const B = '00000000-0000-4000-8000-0000000000a3';

/** An old reward row as the code before 0035 wrote it. */
type Old = { user: string; from: string; level: number; currency: string; amount: bigint; status: string; pool: string; day: string; withdrawal?: number };

/**
 * R invites A, A invites B. Days of two pools, every state, a claim in payment and a paid one, a
 * day partly forfeited, a day still vesting, and a day in an earlier payout currency.
 */
const OLD: Old[] = [
  // 2026-03-01: R from A in two pools and from B; A from B.
  { user: R, from: A, level: 1, currency: 'USDT', amount: 10_000n, status: 'paid', pool: 'coin', day: '2026-03-01', withdrawal: 1 },
  { user: R, from: A, level: 1, currency: 'USDT', amount: 3_001n, status: 'paid', pool: 'stable', day: '2026-03-01', withdrawal: 1 },
  { user: R, from: B, level: 2, currency: 'USDT', amount: 5_000n, status: 'paid', pool: 'coin', day: '2026-03-01', withdrawal: 1 },
  { user: A, from: B, level: 1, currency: 'USDT', amount: 7_003n, status: 'in_payment', pool: 'coin', day: '2026-03-01', withdrawal: 2 },
  // 2026-03-02: A's share forfeited (funds left), B's kept.
  { user: R, from: A, level: 1, currency: 'USDT', amount: 4_000n, status: 'forfeited', pool: 'coin', day: '2026-03-02' },
  { user: R, from: B, level: 2, currency: 'USDT', amount: 6_007n, status: 'earned', pool: 'coin', day: '2026-03-02' },
  { user: A, from: B, level: 1, currency: 'USDT', amount: 9_011n, status: 'earned', pool: 'coin', day: '2026-03-02' },
  // 2026-03-31, the month's last day: everything forfeited for A.
  { user: A, from: B, level: 1, currency: 'USDT', amount: 2_000n, status: 'forfeited', pool: 'coin', day: '2026-03-31' },
  { user: R, from: B, level: 2, currency: 'USDT', amount: 1_013n, status: 'earned', pool: 'coin', day: '2026-03-31' },
  // 2026-04-01: still vesting.
  { user: R, from: A, level: 1, currency: 'USDC', amount: 11_017n, status: 'vesting', pool: 'coin', day: '2026-04-01' },
  { user: R, from: B, level: 2, currency: 'USDC', amount: 2_019n, status: 'vesting', pool: 'stable', day: '2026-04-01' },
];

async function writeOldRewards(db: Db, rewards: Old[]) {
  for (const p of ['coin', 'stable']) {
    await db.execute(sql`insert into pools (name, title, risk_level, description) values (${p}, ${p}, 'low', ${p}) on conflict do nothing`);
  }
  await db.execute(sql`insert into currencies (code, name, decimals) values ('USDT', 'Tether', 6), ('USDC', 'USD Coin', 6) on conflict do nothing`);
  const user = (id: string, referrer: string | null) =>
    db.execute(sql`insert into users (id, email, role, referral_code, referrer_id) values (${id}::uuid, ${`${id}@example.com`}, 'user', ${id.slice(-6)}, ${referrer}::uuid)`);
  await user(R, null);
  await user(A, R);
  await user(B, A);
  // The claims: R's paid, A's in payment.
  await db.execute(sql`insert into withdrawals (id, user_id, pool, currency, amount, to_address, status, kind) values
    (1, ${R}::uuid, 'coin', 'USDT', 18001, '0x01', 'paid', 'referral'), (2, ${A}::uuid, 'coin', 'USDT', 7003, '0x02', 'requested', 'referral')`);
  // The configuration versions of before: 1000 / 300 bps, USDT, then USDC from April; vesting 30 days.
  const [usdt] = await rows<{ id: string }>(db, sql`insert into referral_config (effective_from, currency, set_by, vesting_days) values ('2026-03-01', 'USDT', 'test', 30) returning id::text`);
  const [usdc] = await rows<{ id: string }>(db, sql`insert into referral_config (effective_from, currency, set_by, vesting_days) values ('2026-04-01', 'USDC', 'test', 30) returning id::text`);
  for (const c of [usdt!.id, usdc!.id]) {
    await db.execute(sql`insert into referral_config_levels (config_id, level, reward_bps) values (${c}::bigint, 1, 1000), (${c}::bigint, 2, 300)`);
    await db.execute(sql`insert into referral_config_ranks (config_id, rank, title, capital_usd, bonus_bps) values (${c}::bigint, 1, 'Starter', 0, 0), (${c}::bigint, 2, 'Bronze', 1000, 50)`);
  }
  // The pool days' markers, as the daily run wrote them.
  const marked = new Set(rewards.map((r) => `${r.pool}|${r.day}`));
  for (const key of marked) {
    const [pool, day] = key.split('|') as [string, string];
    const ofDay = rewards.filter((r) => r.pool === pool && r.day === day);
    const config = day >= '2026-04-01' ? usdc!.id : usdt!.id;
    await db.execute(sql`insert into referral_reward_days (pool, day, config_id, currency, rewards, total)
      values (${pool}, ${day}::date, ${config}::bigint, ${ofDay[0]!.currency}, ${ofDay.length}, ${String(ofDay.reduce((n, r) => n + r.amount, 0n))}::numeric)`);
  }
  for (const r of rewards) {
    // R's rank on 2026-03-01 was Bronze: +50 bps on every level's rate.
    const bonus = r.user === R && r.day === '2026-03-01' ? 50 : 0;
    await db.execute(sql`insert into referral_rewards (user_id, from_user_id, level, currency, amount, status, vests_on, forfeit_reason, pool, day, rate_bps, withdrawal_id)
      values (${r.user}::uuid, ${r.from}::uuid, ${r.level}, ${r.currency}, ${r.amount.toString()}::numeric, ${r.status}, ${r.day}::date + 30,
              ${r.status === 'forfeited' ? 'funds_left' : null}, ${r.pool}, ${r.day}::date, ${(r.level === 1 ? 1000 : 300) + bonus}, ${r.withdrawal ?? null})`);
  }
}

async function oldDatabase(rewards: Old[]) {
  const { db, close } = await databaseBefore('0035');
  await writeOldRewards(db, rewards);
  return { db, close };
}

/** Sums of `xs` by `key`, as decimal strings, keys sorted. */
function sums<T>(xs: T[], key: (x: T) => string, amount: (x: T) => bigint): Record<string, string> {
  const by = new Map<string, bigint>();
  for (const x of xs) by.set(key(x), (by.get(key(x)) ?? 0n) + amount(x));
  return Object.fromEntries([...by].filter(([, v]) => v !== 0n).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.toString()]));
}

type DayRow = { user_id: string; day: string; currency: string; bonus_bps: number; status: string; amount: string; forfeited: string; withdrawal_id: string | null };
const kept = (r: Old) => (r.status === 'forfeited' ? 0n : r.amount);
const lost = (r: Old) => (r.status === 'forfeited' ? r.amount : 0n);

describe('issue 23, goal 3: migration 0035, the referral rewards per referrer and day', () => {
  it('moves every reward and keeps every total: per referrer and currency, per state, the grand total, each member\'s share, the kept totals', async () => {
    const { db, close } = await oldDatabase(OLD);
    try {
      const totalsBefore = await rows<{ user_id: string; currency: string; status: string; amount: string }>(
        db,
        sql`select user_id::text, currency, status, amount::text from referral_reward_totals where amount <> 0 order by 1, 2, 3`,
      );
      await migrate(db as never, { migrationsFolder });
      const [old] = await rows<{ t: string | null }>(db, sql`select to_regclass('referral_rewards')::text as t`);
      expect(old!.t).toBeNull();

      const days = await rows<DayRow>(
        db,
        sql`select user_id::text, day::text, currency, bonus_bps, status, amount::text, forfeited::text, withdrawal_id::text from referral_day_rewards order by user_id, day`,
      );
      // At most one row per referrer and day, and exactly the days the test wrote.
      expect(days.map((d) => `${d.user_id}|${d.day}`)).toEqual([...new Set(OLD.map((r) => `${r.user}|${r.day}`))].sort());
      expect(days.map((d) => [d.user_id, d.day, d.status, d.amount, d.forfeited, d.withdrawal_id, d.bonus_bps])).toEqual(
        [
          [R, '2026-03-01', 'paid', String(10_000n + 3_001n + 5_000n), '0', '1', 50],
          [R, '2026-03-02', 'earned', String(6_007n), String(4_000n), null, 0],
          [R, '2026-03-31', 'earned', String(1_013n), '0', null, 0],
          [R, '2026-04-01', 'vesting', String(11_017n + 2_019n), '0', null, 0],
          [A, '2026-03-01', 'in_payment', String(7_003n), '0', '2', 0],
          [A, '2026-03-02', 'earned', String(9_011n), '0', null, 0],
          [A, '2026-03-31', 'forfeited', '0', String(2_000n), null, 0],
        ].sort((x, y) => `${x[0]}|${x[1]}`.localeCompare(`${y[0]}|${y[1]}`)),
      );

      // Per referrer and currency, everything written (kept and forfeited).
      const all = (r: Old) => r.amount;
      expect(sums(days, (d) => `${d.user_id}|${d.currency}`, (d) => BigInt(d.amount) + BigInt(d.forfeited))).toEqual(sums(OLD, (r) => `${r.user}|${r.currency}`, all));
      // Per referrer, currency and state.
      const byState = [
        ...days.filter((d) => d.status !== 'forfeited').map((d) => ({ key: `${d.user_id}|${d.currency}|${d.status}`, v: BigInt(d.amount) })),
        ...days.map((d) => ({ key: `${d.user_id}|${d.currency}|forfeited`, v: BigInt(d.forfeited) })),
      ];
      expect(sums(byState, (x) => x.key, (x) => x.v)).toEqual(sums(OLD, (r) => `${r.user}|${r.currency}|${r.status}`, all));
      // The grand total per currency.
      expect(sums(days, (d) => d.currency, (d) => BigInt(d.amount) + BigInt(d.forfeited))).toEqual(sums(OLD, (r) => r.currency, all));
      // Each member's share per referrer and month, forfeits taken off.
      // (The referrer at level L is the member's ancestor at L: the share is amounts[L].)
      const members = await rows<{ user_id: string; member_id: string; month: string; currency: string; amount: string }>(
        db,
        sql`select t.ancestor_id::text as user_id, m.member_id::text, m.month::text, m.currency, l.amount::text
            from referral_member_rewards m cross join unnest(m.amounts) with ordinality l(amount, level)
            join referral_tree t on t.user_id = m.member_id and t.level = l.level`,
      );
      expect(sums(members, (m) => `${m.user_id}|${m.member_id}|${m.month}|${m.currency}`, (m) => BigInt(m.amount))).toEqual(
        sums(OLD, (r) => `${r.user}|${r.from}|${r.day.slice(0, 7)}-01|${r.currency}`, kept),
      );
      // The kept totals (0022) are what they were, and equal to the rows.
      const totalsAfter = await rows(db, sql`select user_id::text, currency, status, amount::text from referral_reward_totals where amount <> 0 order by 1, 2, 3`);
      expect(totalsAfter).toEqual(totalsBefore);
      expect(sums(totalsBefore, (k) => `${k.user_id}|${k.currency}|${k.status}`, (k) => BigInt(k.amount))).toEqual(sums(OLD, (r) => `${r.user}|${r.currency}|${r.status}`, all));
      expect(sums(OLD, (r) => r.currency, lost)).toEqual({ USDT: String(4_000n + 2_000n) });

      // The pool days: when they vest and whether that is decided (only April's still vests).
      const markers = await rows<{ pool: string; day: string; vests_on: string; decided: boolean }>(
        db,
        sql`select pool, day::text, vests_on::text, decided from referral_reward_days order by day, pool`,
      );
      expect(markers.filter((m) => !m.decided).map((m) => [m.pool, m.day, m.vests_on])).toEqual([
        ['coin', '2026-04-01', '2026-05-01'],
        ['stable', '2026-04-01', '2026-05-01'],
      ]);
      // The books' check agrees: the kept totals and each referrer's members' shares against the day rows.
      const check = await checkLedger(db);
      expect(check.drifted).toEqual([]);
    } finally {
      await close();
    }
  });

  it('refuses to run, and changes nothing, when the kept totals differ from the rows they stand for', async () => {
    const { db, close } = await oldDatabase(OLD);
    try {
      // A drift in the totals kept per referrer (0022): the rows and the totals no longer add up.
      await db.execute(sql`update referral_reward_totals set amount = amount + 1 where user_id = ${A}::uuid and status = 'earned'`);
      await expect(migrate(db as never, { migrationsFolder })).rejects.toThrow();
      const [t] = await rows<{ day: string | null; old: string | null; n: string }>(
        db,
        sql`select to_regclass('referral_day_rewards')::text as day, to_regclass('referral_rewards')::text as old, (select count(*)::text from referral_rewards) as n`,
      );
      expect(t).toEqual({ day: null, old: 'referral_rewards', n: String(OLD.length) });
    } finally {
      await close();
    }
  });

  it('refuses a referrer\'s day it cannot hold in one row: two states at once', async () => {
    const mixed = [...OLD, { user: A, from: B, level: 1, currency: 'USDT', amount: 1n, status: 'earned', pool: 'stable', day: '2026-03-01' }];
    const { db, close } = await oldDatabase(mixed);
    try {
      await expect(migrate(db as never, { migrationsFolder })).rejects.toThrow();
      const [t] = await rows<{ day: string | null; n: string }>(db, sql`select to_regclass('referral_day_rewards')::text as day, (select count(*)::text from referral_rewards) as n`);
      expect(t).toEqual({ day: null, n: String(mixed.length) });
    } finally {
      await close();
    }
  });
});
