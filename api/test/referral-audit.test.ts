import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { deposits, users } from '../src/db/schema';
import { depositTransaction } from '../src/deposits/credit';
import { accrueDay } from '../src/interest';
import { rows } from '../src/db/rows';
import { checkLedger, post } from '../src/ledger';
import { setPrices } from '../src/pricing/prices';
import { setConfig } from '../src/referral/config';
import { rewardDay } from '../src/referral/rewards';
import { startTestApp, type TestApp } from './helpers';
import { addDays, memberShares } from './money-helpers';

/**
 * Issue 23, goal 3: the audit trail of the referral rewards kept one row per referrer and day. An
 * auditor starts from a day's referral ledger transaction, follows it to the interest transactions
 * it names, and recomputes every referrer's reward of the day from their postings alone, with the
 * documented formula, the tree, rates and ranks this test set up, and its own prices: equal to the
 * base unit to the rows written, each member's share, and what the ledger moved.
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
async function person(referrer: Person | null, proved = true): Promise<Person> {
  const id = randomUUID();
  await db()
    .insert(users)
    .values({ id, email: proved ? `${id}@example.com` : null, emailConfirmedAt: proved ? new Date() : null, role: 'user', walletAddress: `0x${(++serial).toString(16).padStart(40, 'b')}`, referralCode: id.slice(0, 12), referrerId: referrer?.id ?? null });
  return { id, referrer, proved };
}

/** A deposit credited the day before, from an address no one else uses. */
async function fund(p: Person, pool: 'coin' | 'stable', currency: 'ETH' | 'USDT', amount: bigint) {
  const at = new Date(`${addDays(DAY, -1)}T00:00:00Z`);
  const txHash = `0x${(++serial).toString(16).padStart(64, 'd')}`;
  const toAddress = '0x8c3229ec621644789d7f61faa82c6d0e5f97d43d';
  const from = `0x${(++serial).toString(16).padStart(40, 'c')}`;
  const [d] = await db().insert(deposits).values({ userId: p.id, pool, currency, amount: amount.toString(), txHash, fromAddress: from, toAddress, status: 'credited', creditedAt: at }).returning();
  await post(db(), depositTransaction({ id: d!.id, user_id: p.id, pool, currency, amount: amount.toString(), chain_id: 1, tx_hash: txHash, log_index: 0, to_address: toAddress }, at));
}

describe('issue 23, goal 3: a day of referral rewards, recomputed from the interest it names', () => {
  it('every referrer\'s row, every member\'s share and each pool\'s ledger total equal the recomputation to the base unit', async () => {
    // R ← A ← B ← C, and W (no proved e-mail) under R; Q ← D alone.
    const R = await person(null);
    const A = await person(R);
    const B = await person(A);
    const C = await person(B);
    const W = await person(R, false);
    const Q = await person(null);
    const D = await person(Q);
    const ETH = 10n ** 18n;
    const USDT = 10n ** 6n;
    const held: [Person, 'coin' | 'stable', 'ETH' | 'USDT', bigint][] = [
      [A, 'coin', 'ETH', ETH],
      [B, 'stable', 'USDT', 200n * USDT + 7n],
      [C, 'coin', 'ETH', ETH / 2n + 12_345n],
      [D, 'stable', 'USDT', 100n * USDT],
      [W, 'stable', 'USDT', 300n * USDT],
    ];
    for (const [p, pool, currency, amount] of held) await fund(p, pool, currency, amount);
    for (const pool of ['coin', 'stable'] as const) {
      expect((await accrueDay(db(), pool, DAY, '0.12')).created).toBe(true);
      expect((await rewardDay(db(), t.app.services.prices, pool, DAY)).created).toBe(true);
    }

    // The ranks, from what each referrer's three levels hold, in dollars (the day's interest is far below any threshold's edge).
    const people = [R, A, B, C, W, Q, D];
    const ancestors = (p: Person) => {
      const up: [Person, number][] = [];
      for (let a = p.referrer, level = 1; a && level <= LEVELS.length; a = a.referrer, level++) up.push([a, level]);
      return up;
    };
    const usdHeld = (p: Person) => held.filter(([h]) => h === p).reduce((n, [, , c, amount]) => n + (amount * USD[c]!) / 10n ** DECIMALS[c]!, 0n);
    const bonus = new Map(people.map((a) => [a.id, people.filter((p) => ancestors(p).some(([x]) => x === a)).reduce((n, p) => n + usdHeld(p), 0n) >= BRONZE.capitalUsd ? BRONZE.bonusBps : 0n]));
    expect([R, A, B, Q].map((a) => bonus.get(a.id))).toEqual([50n, 50n, 50n, 0n]);

    const perReferrer = new Map<string, bigint>();
    const perMember = new Map<string, bigint>();
    for (const pool of ['coin', 'stable']) {
      // The day's referral transaction, and the interest transactions it names: exactly the pool day's.
      const [ref] = await rows<{ id: string; detail: { interest: number[] } }>(db(), sql`select id::text, detail from ledger_transactions where reference = ${`referral:${pool}:${DAY}`}`);
      const interest = await rows<{ id: string }>(
        db(),
        sql`select id::text from ledger_transactions where kind = 'interest' and (reference = ${`interest:${pool}:${DAY}`} or reference like ${`interest:${pool}:${DAY}:%`}) order by ledger_transactions.id`,
      );
      expect(ref!.detail.interest.map(String)).toEqual(interest.map((i) => i.id));
      // The interest each position earned, from those transactions' postings.
      const earned = await rows<{ user_id: string; currency: string; amount: string }>(
        db(),
        sql`select a.user_id::text, a.currency, (-p.amount)::text as amount from ledger_postings p join ledger_accounts a on a.id = p.account_id
            where p.transaction_id in (${sql.join(ref!.detail.interest.map((id) => sql`${id}::bigint`), sql`, `)}) and a.kind = 'position'`,
      );
      expect(earned.length).toBeGreaterThan(0);
      let poolTotal = 0n;
      for (const e of earned) {
        const p = people.find((x) => x.id === e.user_id)!;
        // Only a referee with a proved e-mail gives.
        if (!p.proved) continue;
        // USD × 10^18 of the interest, then each ancestor's floor(value × (rate + bonus) × 10^6 / (1 USD × 10000 × 10^18)).
        const value = BigInt(e.amount) * USD[e.currency]! * 10n ** (18n - DECIMALS[e.currency]!);
        for (const [a, level] of ancestors(p)) {
          const reward = (value * 10n ** DECIMALS.USDT! * (LEVELS[level - 1]! + bonus.get(a.id)!)) / (USD.USDT! * 10_000n * 10n ** 18n);
          if (reward === 0n) continue;
          poolTotal += reward;
          perReferrer.set(a.id, (perReferrer.get(a.id) ?? 0n) + reward);
          perMember.set(`${a.id}|${p.id}`, (perMember.get(`${a.id}|${p.id}`) ?? 0n) + reward);
        }
      }
      // What the ledger moved for the pool's day: the house paid the recomputed total into rewards payable.
      const legs = await rows<{ kind: string; amount: string }>(
        db(),
        sql`select a.kind, p.amount::text from ledger_postings p join ledger_accounts a on a.id = p.account_id where p.transaction_id = ${ref!.id}::bigint order by a.kind`,
      );
      expect(legs).toEqual([
        { kind: 'house', amount: String(poolTotal) },
        { kind: 'referral_rewards_payable', amount: String(-poolTotal) },
      ]);
    }
    // W earned interest but gave nothing: its pool day says so, and the recomputation leaves it out.
    const markers = await rows<{ pool: string; withheld: string[] | null }>(db(), sql`select pool, withheld::text[] as withheld from referral_reward_days where day = ${DAY}::date order by pool`);
    expect(markers).toEqual([
      { pool: 'coin', withheld: null },
      { pool: 'stable', withheld: [W.id] },
    ]);

    const written = await rows<{ user_id: string; bonus_bps: number; amount: string }>(
      db(),
      sql`select user_id::text, bonus_bps, amount::text from referral_day_rewards where day = ${DAY}::date and user_id in (${sql.join(people.map((p) => sql`${p.id}::uuid`), sql`, `)})`,
    );
    expect(new Map(written.map((w) => [w.user_id, BigInt(w.amount)]))).toEqual(perReferrer);
    expect(new Map(written.map((w) => [w.user_id, BigInt(w.bonus_bps)]))).toEqual(new Map([...perReferrer.keys()].map((id) => [id, bonus.get(id)!])));
    // Each member's share, from the members' rows of the month.
    const shares = new Map<string, bigint>();
    for (const a of people) for (const [member, amount] of await memberShares(db(), a.id)) shares.set(`${a.id}|${member}`, amount);
    expect(shares).toEqual(perMember);
    // At most one row per referrer and day, though R's rewards came from two pools and three members.
    expect(written.filter((w) => w.user_id === R.id)).toHaveLength(1);
    expect([...perMember.keys()].filter((k) => k.startsWith(R.id))).toHaveLength(3);
    expect((await checkLedger(db())).ok).toBe(true);
  });
});
