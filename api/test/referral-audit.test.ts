import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { deposits, users } from '../src/db/schema';
import { depositTransaction } from '../src/deposits/credit';
import { accrueDay } from '../src/interest';
import { rows } from '../src/db/rows';
import { checkLedger, post } from '../src/ledger';
import { setPrices } from '../src/pricing/prices';
import { setConfig } from '../src/referral/config';
import { rewardDay, vestRewards } from '../src/referral/rewards';
import { harvest } from '../src/referral/standing';
import { takeSnapshot } from '../src/solvency';
import { instantChain } from './solvency-seed';
import { startTestApp, type TestApp } from './helpers';
import { addDays, memberShares } from './money-helpers';

/**
 * Issue 23, goal 3: the audit trail of the referral rewards kept one row per referrer and day. An
 * auditor starts from a day's referral ledger transaction, follows it to the interest transactions
 * it names, and recomputes every referrer's reward of the day from their postings alone, with the
 * documented formula, the tree, rates and ranks this test set up, and its own prices: equal to the
 * base unit to the rows written, each member's share, and what the ledger moved. Goal 4: the same
 * day split into parts by referee (each part its own session and ledger transaction) pays exactly
 * the recomputed amounts, once, whether run twice at once or resumed after a part failed.
 */
let t: TestApp;
const db = () => t.app.services.db;
const DAY = '2025-06-10';
const LEVELS = [1000n, 300n, 200n];
const BRONZE = { capitalUsd: 1000n, bonusBps: 50n };
const USD: Record<string, bigint> = { USDT: 1n, ETH: 3000n };
const DECIMALS: Record<string, bigint> = { USDT: 6n, ETH: 18n };

beforeAll(async () => {
  t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0' });
  await setPrices(db(), t.app.services.config.priceSource, { USDT: String(USD.USDT), ETH: String(USD.ETH) });
  await setConfig(
    db(),
    'test',
    {
      levels: LEVELS.map(Number),
      ranks: [
        { title: 'Starter', capitalUsd: '0', bonusBps: 0 },
        { title: 'Bronze', capitalUsd: String(BRONZE.capitalUsd), bonusBps: Number(BRONZE.bonusBps) },
      ],
      currency: 'USDT',
      vestingDays: 0,
      effectiveFrom: DAY,
    },
    DAY,
  );
});
afterAll(() => t?.close());

let serial = 0;
type Person = { id: string; referrer: Person | null; proved: boolean };
const everyone: Person[] = [];
async function person(referrer: Person | null, proved = true): Promise<Person> {
  const id = randomUUID();
  await db()
    .insert(users)
    .values({ id, email: proved ? `${id}@example.com` : null, emailConfirmedAt: proved ? new Date() : null, role: 'user', walletAddress: `0xb${(++serial).toString(16).padStart(39, '0')}`, referralCode: id.slice(0, 12), referrerId: referrer?.id ?? null });
  const p = { id, referrer, proved };
  everyone.push(p);
  return p;
}

type Pool = 'coin' | 'stable' | 'dex';
type Currency = 'ETH' | 'USDT';
const held: [Person, Pool, Currency, bigint][] = [];

/** A deposit credited the day before `day` (or at `at`), from an address no one else uses. */
async function fund(p: Person, pool: Pool, currency: Currency, amount: bigint, day: string, at = new Date(`${addDays(day, -1)}T00:00:00Z`)) {
  const txHash = `0xd${(++serial).toString(16).padStart(63, '0')}`;
  const toAddress = '0x8c3229ec621644789d7f61faa82c6d0e5f97d43d';
  const from = `0xc${(++serial).toString(16).padStart(39, '0')}`;
  const [d] = await db().insert(deposits).values({ userId: p.id, pool, currency, amount: amount.toString(), txHash, fromAddress: from, toAddress, status: 'credited', creditedAt: at }).returning();
  await post(db(), depositTransaction({ id: d!.id, user_id: p.id, pool, currency, amount: amount.toString(), chain_id: 1, tx_hash: txHash, log_index: 0, to_address: toAddress }, at));
  held.push([p, pool, currency, amount]);
}

const ETH = 10n ** 18n;
const USDT = 10n ** 6n;

/** R ← A ← B ← C, W (no proved e-mail) under R, Q ← D alone, and `extra` more members under A, B and Q, funded the day before `day`. */
async function network(day: string, extra: number) {
  const R = await person(null);
  const A = await person(R);
  const B = await person(A);
  const C = await person(B);
  const W = await person(R, false);
  const Q = await person(null);
  const D = await person(Q);
  await fund(A, 'coin', 'ETH', ETH, day);
  await fund(B, 'stable', 'USDT', 200n * USDT + 7n, day);
  await fund(C, 'coin', 'ETH', ETH / 2n + 12_345n, day);
  await fund(D, 'stable', 'USDT', 100n * USDT, day);
  await fund(W, 'stable', 'USDT', 300n * USDT, day);
  for (let i = 0; i < extra; i++) {
    const m = await person([A, B, Q][i % 3]!);
    // Odd amounts in both pools and currencies, so that the floors differ from member to member.
    await fund(m, i % 2 ? 'coin' : 'stable', i % 2 ? 'ETH' : 'USDT', i % 2 ? ETH / 7n + BigInt(i) * 1_000_003n : 37n * USDT + BigInt(i) * 101n, day);
    if (i % 4 === 0) await fund(m, 'coin', 'USDT', 11n * USDT + BigInt(i), day);
  }
  return { R, A, B, C, W, Q, D };
}

const ancestors = (p: Person) => {
  const up: [Person, number][] = [];
  for (let a = p.referrer, level = 1; a && level <= LEVELS.length; a = a.referrer, level++) up.push([a, level]);
  return up;
};
const usdHeld = (p: Person) => held.filter(([h]) => h === p).reduce((n, [, , c, amount]) => n + (amount * USD[c]!) / 10n ** DECIMALS[c]!, 0n);
/** The ranks, from what each referrer's three levels hold, in dollars (the days' interest is far below any threshold's edge). */
const bonusOf = (a: Person) => (everyone.filter((p) => ancestors(p).some(([x]) => x === a)).reduce((n, p) => n + usdHeld(p), 0n) >= BRONZE.capitalUsd ? BRONZE.bonusBps : 0n);

/** Every share of a member's interest of the pool day, recomputed from the interest transactions alone with the documented formula. */
async function recompute(pool: Pool, day: string, interestIds: string[]) {
  const earned = await rows<{ user_id: string; currency: Currency; amount: string }>(
    db(),
    sql`select a.user_id::text, a.currency, (-p.amount)::text as amount from ledger_postings p join ledger_accounts a on a.id = p.account_id
        where p.transaction_id in (${sql.join(interestIds.map((id) => sql`${id}::bigint`), sql`, `)}) and a.kind = 'position'`,
  );
  expect(earned.length).toBeGreaterThan(0);
  // USD × 10^18 of each member's interest of the day, whatever the currencies it came in.
  const value = new Map<string, bigint>();
  for (const e of earned) value.set(e.user_id, (value.get(e.user_id) ?? 0n) + BigInt(e.amount) * USD[e.currency]! * 10n ** (18n - DECIMALS[e.currency]!));
  const shares: { member: Person; referrer: Person; amount: bigint }[] = [];
  const withheld: string[] = [];
  for (const [id, v] of value) {
    const p = everyone.find((x) => x.id === id)!;
    // Only a referee with a proved e-mail gives.
    if (!p.proved) {
      withheld.push(id);
      continue;
    }
    for (const [a, level] of ancestors(p)) {
      const amount = (v * 10n ** DECIMALS.USDT! * (LEVELS[level - 1]! + bonusOf(a))) / (USD.USDT! * 10_000n * 10n ** 18n);
      if (amount > 0n) shares.push({ member: p, referrer: a, amount });
    }
  }
  return { shares, withheld: withheld.sort() };
}

const perMember = new Map<string, bigint>();
const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);

/** The day's referral rewards of both pools checked against the recomputation: ledger, parts, marker, referrers' rows and members' shares. */
async function audit(day: string, parts: number) {
  const perReferrer = new Map<string, bigint>();
  for (const pool of ['coin', 'stable'] as const) {
    // The day's referral transactions (one per part), and the interest transactions each names: exactly the pool day's.
    const refs = await rows<{ id: string; reference: string; detail: { interest: number[] } }>(
      db(),
      sql`select id::text, reference, detail from ledger_transactions where kind = 'referral_reward' and (reference = ${`referral:${pool}:${day}`} or reference like ${`referral:${pool}:${day}:%`}) order by id`,
    );
    const interest = await rows<{ id: string }>(
      db(),
      sql`select id::text from ledger_transactions where kind = 'interest' and (reference = ${`interest:${pool}:${day}`} or reference like ${`interest:${pool}:${day}:%`}) order by ledger_transactions.id`,
    );
    for (const ref of refs) expect(ref.detail.interest.map(String)).toEqual(interest.map((i) => i.id));
    const { shares, withheld } = await recompute(pool, day, interest.map((i) => i.id));
    for (const s of shares) {
      perReferrer.set(s.referrer.id, (perReferrer.get(s.referrer.id) ?? 0n) + s.amount);
      perMember.set(`${s.referrer.id}|${s.member.id}`, (perMember.get(`${s.referrer.id}|${s.member.id}`) ?? 0n) + s.amount);
    }
    // Which part each referee fell in, from the day's split; each part's transaction moved exactly its referees' shares.
    const [plan] = await rows<{ bounds: string[] }>(db(), sql`select bounds::text[] as bounds from referral_day_parts where pool = ${pool} and day = ${day}::date`);
    const bounds = plan?.bounds ?? [];
    expect(bounds).toHaveLength(parts - 1);
    const partOf = (id: string) => bounds.filter((b) => id >= b).length + 1;
    const expected = Array.from({ length: parts }, (_, k) => sum(shares.filter((s) => partOf(s.member.id) === k + 1).map((s) => s.amount)));
    expect(expected.filter((t) => t > 0n).length).toBeGreaterThan(parts > 1 ? 1 : 0);
    const moved: bigint[] = Array.from({ length: parts }, () => 0n);
    // The marker names the first part's transaction (parts may commit in any order).
    let first: string | undefined;
    for (const ref of [...refs].sort((a, b) => a.reference.localeCompare(b.reference))) {
      const k = parts === 1 ? 1 : Number(/:(\d+)\/\d+$/.exec(ref.reference)![1]);
      first ??= ref.id;
      expect(ref.reference).toBe(parts === 1 ? `referral:${pool}:${day}` : `referral:${pool}:${day}:${k}/${parts}`);
      const legs = await rows<{ kind: string; amount: string }>(
        db(),
        sql`select a.kind, p.amount::text from ledger_postings p join ledger_accounts a on a.id = p.account_id where p.transaction_id = ${ref.id}::bigint order by a.kind`,
      );
      expect(legs.map((l) => l.kind)).toEqual(['house', 'referral_rewards_payable']);
      expect(BigInt(legs[0]!.amount)).toBe(-BigInt(legs[1]!.amount));
      moved[k - 1]! += BigInt(legs[0]!.amount);
    }
    expect(moved).toEqual(expected);
    // The day's marker: every reward, the total and the earners who gave nothing, over all its parts.
    const [marker] = await rows<{ rewards: number; total: string; withheld: string[] | null; transaction_id: string | null }>(
      db(),
      sql`select rewards, total::text, withheld::text[] as withheld, transaction_id::text from referral_reward_days where pool = ${pool} and day = ${day}::date`,
    );
    expect(marker).toEqual({ rewards: shares.length, total: String(sum(shares.map((s) => s.amount))), withheld: withheld.length ? withheld : null, transaction_id: first ?? null });
  }
  const written = await rows<{ user_id: string; bonus_bps: number; amount: string }>(db(), sql`select user_id::text, bonus_bps, amount::text from referral_day_rewards where day = ${day}::date`);
  expect(new Map(written.map((w) => [w.user_id, BigInt(w.amount)]))).toEqual(perReferrer);
  expect(new Map(written.map((w) => [w.user_id, BigInt(w.bonus_bps)]))).toEqual(new Map([...perReferrer.keys()].map((id) => [id, bonusOf(everyone.find((p) => p.id === id)!)])));
  // Each member's share, from the members' rows of the months so far.
  const shares = new Map<string, bigint>();
  for (const a of everyone) for (const [member, amount] of await memberShares(db(), a.id)) shares.set(`${a.id}|${member}`, amount);
  expect(shares).toEqual(perMember);
  expect((await checkLedger(db())).ok).toBe(true);
  return { perReferrer };
}

describe('issue 23, goal 3: a day of referral rewards, recomputed from the interest it names', () => {
  it('every referrer\'s row, every member\'s share and each pool\'s ledger total equal the recomputation to the base unit', async () => {
    const { R, A, B, Q } = await network(DAY, 0);
    for (const pool of ['coin', 'stable'] as const) {
      expect((await accrueDay(db(), pool, DAY, '0.12')).created).toBe(true);
      expect((await rewardDay(db(), t.app.services.prices, pool, DAY, 1)).created).toBe(true);
    }
    expect([R, A, B, Q].map((a) => bonusOf(a))).toEqual([50n, 50n, 50n, 0n]);
    const { perReferrer } = await audit(DAY, 1);
    // At most one row per referrer and day, though R's rewards came from two pools and three members.
    expect(perReferrer.has(R.id)).toBe(true);
    expect([...perMember.keys()].filter((k) => k.startsWith(R.id))).toHaveLength(3);
  });
});

describe('issue 23, goal 4: the day split into parts by referee', () => {
  const source = () => t.app.services.prices;

  it('three parts, each its own ledger transaction, pay exactly the recomputed rewards; a rerun changes nothing', async () => {
    const day = '2025-07-10';
    await network(day, 12);
    for (const pool of ['coin', 'stable'] as const) {
      expect((await accrueDay(db(), pool, day, '0.12', 2)).created).toBe(true);
      const r = await rewardDay(db(), source(), pool, day, 3);
      expect(r.created).toBe(true);
      expect((await rewardDay(db(), source(), pool, day, 3)).created).toBe(false);
      // A rerun with another number of sessions keeps the day's split.
      expect((await rewardDay(db(), source(), pool, day, 1)).created).toBe(false);
    }
    const { perReferrer } = await audit(day, 3);
    expect(perReferrer.size).toBeGreaterThan(3);
  });

  it('split as the accrual was: the parts take its bounds, each reads only its own part\'s interest, and pay exactly the recomputed rewards', async () => {
    const day = '2025-07-20';
    await network(day, 12);
    for (const pool of ['coin', 'stable'] as const) {
      expect((await accrueDay(db(), pool, day, '0.12', 3)).created).toBe(true);
      expect((await rewardDay(db(), source(), pool, day, 3)).created).toBe(true);
      const [split] = await rows<{ accrual: string[]; referral: string[] }>(
        db(),
        sql`select i.user_bounds::text[] as accrual, r.bounds::text[] as referral from interest_day_parts i join referral_day_parts r using (pool, day)
            where i.pool = ${pool} and i.day = ${day}::date`,
      );
      expect(split!.accrual).toHaveLength(2);
      expect(split!.referral).toEqual(split!.accrual);
    }
    // The recomputation reads every interest leg of the day; a part that missed a referee's interest in another part's transaction would not match it.
    await audit(day, 3);
  });

  it('two runs at once: every reward is paid once, the day marked once', async () => {
    const day = '2025-08-10';
    await network(day, 12);
    for (const pool of ['coin', 'stable'] as const) {
      expect((await accrueDay(db(), pool, day, '0.12')).created).toBe(true);
      const both = await Promise.all([rewardDay(db(), source(), pool, day, 3), rewardDay(db(), source(), pool, day, 3)]);
      expect(both.filter((r) => r.created)).toHaveLength(1);
    }
    await audit(day, 3);
  });

  it('a part that fails leaves the others done and the day unmarked; the next run does only the missing part', async () => {
    const day = '2025-09-10';
    await network(day, 12);
    // The second part of each pool day fails once, as if the process died between parts.
    await db().execute(sql`create function referral_part_fails() returns trigger language plpgsql as $$
      begin if new.part = 2 then raise exception 'part 2 lost'; end if; return new; end $$`);
    await db().execute(sql`create trigger referral_part_fails before insert on referral_reward_parts for each row execute function referral_part_fails()`);
    for (const pool of ['coin', 'stable'] as const) {
      expect((await accrueDay(db(), pool, day, '0.12')).created).toBe(true);
      const failed = (await rewardDay(db(), source(), pool, day, 3).catch((e: unknown) => e)) as Error & { cause?: Error };
      expect(failed.cause?.message ?? failed.message).toMatch(/part 2 lost/);
    }
    const done = await rows<{ pool: string; part: number }>(db(), sql`select pool, part from referral_reward_parts where day = ${day}::date order by pool, part`);
    expect(done).toEqual([
      { pool: 'coin', part: 1 },
      { pool: 'coin', part: 3 },
      { pool: 'stable', part: 1 },
      { pool: 'stable', part: 3 },
    ]);
    expect(await rows(db(), sql`select pool from referral_reward_days where day = ${day}::date`)).toEqual([]);
    const before = await rows<{ reference: string }>(db(), sql`select reference from ledger_transactions where reference like ${`referral:%:${day}:%`} order by reference`);
    expect(before.map((r) => r.reference)).toEqual([`referral:coin:${day}:1/3`, `referral:coin:${day}:3/3`, `referral:stable:${day}:1/3`, `referral:stable:${day}:3/3`]);
    expect((await checkLedger(db())).ok).toBe(true);
    await db().execute(sql`drop trigger referral_part_fails on referral_reward_parts`);
    await db().execute(sql`drop function referral_part_fails()`);
    expect(await rows(db(), sql`select distinct part from referral_part_sums where day = ${day}::date order by part`)).toEqual([{ part: 1 }, { part: 3 }]);
    for (const pool of ['coin', 'stable'] as const) expect((await rewardDay(db(), source(), pool, day, 3)).created).toBe(true);
    expect(await rows(db(), sql`select user_id from referral_part_sums where day = ${day}::date`)).toEqual([]);
    await audit(day, 3);
  });

  it('every part done and the day not marked: the parts\' sums are owed (the ledger check, a solvency snapshot and the referrer\'s figures count them); the next run writes the day\'s rows once', async () => {
    const day = '2025-09-20';
    const { R, A } = await network(day, 12);
    // The day's marker fails once, as if the process died after the last part's commit.
    await db().execute(sql`create function referral_marker_fails() returns trigger language plpgsql as $$ begin raise exception 'marker lost'; end $$`);
    await db().execute(sql`create trigger referral_marker_fails before insert on referral_reward_days for each row execute function referral_marker_fails()`);
    const staged = new Map<string, bigint>();
    for (const pool of ['coin', 'stable'] as const) {
      expect((await accrueDay(db(), pool, day, '0.12')).created).toBe(true);
      const failed = (await rewardDay(db(), source(), pool, day, 3).catch((e: unknown) => e)) as Error & { cause?: Error };
      expect(failed.cause?.message ?? failed.message).toMatch(/marker lost/);
      const interest = await rows<{ id: string }>(
        db(),
        sql`select id::text from ledger_transactions where kind = 'interest' and (reference = ${`interest:${pool}:${day}`} or reference like ${`interest:${pool}:${day}:%`}) order by id`,
      );
      for (const s of (await recompute(pool, day, interest.map((i) => i.id))).shares) staged.set(s.referrer.id, (staged.get(s.referrer.id) ?? 0n) + s.amount);
    }
    expect(await rows(db(), sql`select pool, count(*)::int as n from referral_reward_parts where day = ${day}::date group by pool order by pool`)).toEqual([
      { pool: 'coin', n: 3 },
      { pool: 'stable', n: 3 },
    ]);
    expect(await rows(db(), sql`select user_id from referral_day_rewards where day = ${day}::date`)).toEqual([]);
    // Each referrer's sums over the parts and pools, to the base unit, as the test recomputed them.
    const sums = await rows<{ user_id: string; amount: string }>(db(), sql`select user_id::text, sum(amount)::text as amount from referral_part_sums where day = ${day}::date group by user_id`);
    expect(new Map(sums.map((r) => [r.user_id, BigInt(r.amount)]))).toEqual(staged);
    expect(staged.get(R.id)).toBeGreaterThan(0n);
    // Owed already: the members' shares against their referrers', and the users' liabilities against the ledger's rewards payable.
    expect((await checkLedger(db())).ok).toBe(true);
    const settings = { chainId: 1, confirmations: 12, solvency: new Wallet(`0x${'11'.repeat(32)}`), brandTitle: 'Test', custody: null };
    await expect(takeSnapshot(db(), instantChain, settings, { actor: 'test' })).resolves.toMatchObject({ currencies: expect.arrayContaining(['USDT']) });
    const vestingBefore = BigInt((await harvest(db(), A.id)).vesting);
    await db().execute(sql`drop trigger referral_marker_fails on referral_reward_days`);
    await db().execute(sql`drop function referral_marker_fails()`);
    for (const pool of ['coin', 'stable'] as const) expect((await rewardDay(db(), source(), pool, day, 3)).created).toBe(true);
    expect(await rows(db(), sql`select user_id from referral_part_sums`)).toEqual([]);
    // The referrer's vesting figure is the same before and after the day's rows are written: the sums were in it.
    expect(BigInt((await harvest(db(), A.id)).vesting)).toBe(vestingBefore);
    await audit(day, 3);
    await expect(takeSnapshot(db(), instantChain, settings, { actor: 'test' })).resolves.toMatchObject({ currencies: expect.arrayContaining(['USDT']) });
  });

  it('a day vested in one pool: a pool first funded that day pays its referrers, one that would add to a decided row is refused whole', async () => {
    const day = '2025-10-10';
    const { R } = await network(day, 3);
    // The dex pool first funded on the day, as on the local stack when a later browser test deposits into a pool the earlier ones left empty.
    const N = await person(null);
    const M = await person(N);
    const X = await person(null);
    await fund(M, 'dex', 'USDT', 500n * USDT + 3n, day);
    await fund(X, 'dex', 'USDT', 40n * USDT, day);
    expect((await accrueDay(db(), 'coin', day, '0.12')).created).toBe(true);
    expect((await rewardDay(db(), source(), 'coin', day, 2)).created).toBe(true);
    // No vesting period: the coin pool's day is decided at once, R's row of the day with it.
    await vestRewards(db(), day);
    const rowOf = async (p: Person) =>
      (await rows<{ status: string; amount: string }>(db(), sql`select status, amount::text from referral_day_rewards where user_id = ${p.id}::uuid and day = ${day}::date`))[0];
    const rBefore = await rowOf(R);
    expect(rBefore?.status).toBe('earned');

    expect((await accrueDay(db(), 'dex', day, '0.12')).created).toBe(true);
    const dex = await rewardDay(db(), source(), 'dex', day, 2);
    expect(dex.created).toBe(true);
    const interest = await rows<{ id: string }>(
      db(),
      sql`select id::text from ledger_transactions where kind = 'interest' and (reference = ${`interest:dex:${day}`} or reference like ${`interest:dex:${day}:%`}) order by id`,
    );
    const { shares } = await recompute('dex', day, interest.map((i) => i.id));
    expect(shares.map((s) => [s.member.id, s.referrer.id])).toEqual([[M.id, N.id]]);
    expect(dex.total).toBe(String(shares[0]!.amount));
    expect(await rowOf(N)).toEqual({ status: 'vesting', amount: String(shares[0]!.amount) });
    // Not split: a day with a decided pool is rewarded all or nothing.
    expect(await rows(db(), sql`select bounds::text[] as bounds from referral_day_parts where pool = 'dex' and day = ${day}::date`)).toEqual([{ bounds: [] }]);
    await vestRewards(db(), day);
    expect((await rowOf(N))?.status).toBe('earned');

    // The stable pool's day would add B's interest to A's and R's decided rows: refused, nothing of it written.
    expect((await accrueDay(db(), 'stable', day, '0.12')).created).toBe(true);
    await expect(rewardDay(db(), source(), 'stable', day, 2)).rejects.toThrow(/already decided/);
    expect(await rows(db(), sql`select part from referral_reward_parts where pool = 'stable' and day = ${day}::date`)).toEqual([]);
    expect(await rows(db(), sql`select pool from referral_reward_days where pool = 'stable' and day = ${day}::date`)).toEqual([]);
    expect(await rows(db(), sql`select id from ledger_transactions where reference like ${`referral:stable:${day}%`}`)).toEqual([]);
    expect(await rowOf(R)).toEqual(rBefore);
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('the rank is the one at the close: money the downline deposits after the close does not lift it', async () => {
    const day = '2025-11-10';
    const X = await person(null);
    const M = await person(X);
    const N = await person(X);
    await fund(M, 'stable', 'USDT', 900n * USDT, day);
    expect((await accrueDay(db(), 'stable', day, '0.12')).created).toBe(true);
    // 500 USDT more under X, credited after the close and before the day is rewarded: X's downline holds above Bronze now.
    await fund(N, 'stable', 'USDT', 500n * USDT, day, new Date(`${addDays(day, 1)}T06:00:00Z`));
    const [now] = await rows<{ held: string }>(db(), sql`select sum(-balance)::text as held from referral_capital where ancestor_id = ${X.id} and currency = 'USDT'`);
    expect(BigInt(now!.held)).toBeGreaterThan(BRONZE.capitalUsd * USDT);
    expect((await rewardDay(db(), source(), 'stable', day, 2)).created).toBe(true);
    // At the close X's downline held 900 USDT and the day's interest: no bonus.
    const interest = await rows<{ id: string }>(
      db(),
      sql`select id::text from ledger_transactions where kind = 'interest' and (reference = ${`interest:stable:${day}`} or reference like ${`interest:stable:${day}:%`}) order by id`,
    );
    // The recomputation's ranks are from what was held at the close: N's deposit came after it.
    held.pop();
    const fromDownline = (await recompute('stable', day, interest.map((i) => i.id))).shares.filter((s) => s.referrer === X);
    expect(fromDownline.map((s) => s.member)).toEqual([M]);
    const [row] = await rows<{ bonus_bps: number; amount: string }>(db(), sql`select bonus_bps, amount::text from referral_day_rewards where user_id = ${X.id} and day = ${day}::date`);
    expect(row).toEqual({ bonus_bps: 0, amount: String(fromDownline[0]!.amount) });
    expect((await checkLedger(db())).ok).toBe(true);
  });
});
