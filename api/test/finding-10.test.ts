import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { deposits, referralDayRewards, users, withdrawals } from '../src/db/schema';
import { depositTransaction } from '../src/deposits/credit';
import { accrueDay } from '../src/interest';
import { rows } from '../src/db/rows';
import { checkLedger, post } from '../src/ledger';
import { reserveTransaction } from '../src/payouts/requests';
import { setPrices } from '../src/pricing/prices';
import { setConfig } from '../src/referral/config';
import { rewardDay, vestRewards } from '../src/referral/rewards';
import { call, newWallet, register, siweSign, startTestApp, uniqueEmail, type TestApp } from './helpers';
import { addDays, independentEarned, memberShares } from './money-helpers';

/**
 * Issue 21, finding 10 (self-referral through free wallet-only accounts): the rules that keep a
 * referral reward to money a real referee keeps in the pools. The ledger is written as the deposit
 * and payout jobs write it; the day's interest and rewards by the daily run's own steps. USDT at
 * 1 USD is both the pool's currency and the payout currency, so a reward is floor(interest × rate
 * / 10000), computed here.
 */
let t: TestApp;
const db = () => t.app.services.db;
const USDT = 1_000_000n;
const APY = { text: '0.1', num: 10n, den: 100n };
const VESTING_DAYS = 3;
/** The first day the tests use; each test takes its own days after it. */
const START = '2025-02-01';

beforeAll(async () => {
  t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0' });
  await setPrices(db(), t.app.services.config.priceSource, { USDT: '1' });
  await setConfig(
    db(),
    'test',
    {
      levels: [1000, 300, 200],
      ranks: [
        { title: 'Starter', capitalUsd: '0', bonusBps: 0 },
        { title: 'Bronze', capitalUsd: '1000', bonusBps: 50 },
      ],
      currency: 'USDT',
      vestingDays: VESTING_DAYS,
      effectiveFrom: START,
    },
    START,
  );
});
afterAll(() => t?.close());

let serial = 0;
const address = () => `0x${(++serial).toString(16).padStart(40, 'a')}`;

/** An account: with a proved e-mail unless `walletOnly`, its own wallet, invited by `referrer`. */
async function person(referrer?: string, opts: { walletOnly?: boolean } = {}) {
  const id = randomUUID();
  const wallet = address();
  await db().insert(users).values({
    id,
    email: opts.walletOnly ? null : `${id}@example.com`,
    emailConfirmedAt: opts.walletOnly ? null : new Date(),
    role: 'user',
    walletAddress: wallet,
    referralCode: id.slice(0, 12),
    referrerId: referrer ?? null,
  });
  return { id, wallet };
}

/** A deposit into the stable pool sent from `from`, credited at `at`. */
async function fund(userId: string, amount: bigint, at: Date, from: string) {
  const txHash = `0x${(++serial).toString(16).padStart(64, 'e')}`;
  const toAddress = '0x8c3229ec621644789d7f61faa82c6d0e5f97d43d';
  const [d] = await db()
    .insert(deposits)
    .values({ userId, pool: 'stable', currency: 'USDT', amount: amount.toString(), txHash, fromAddress: from, toAddress, status: 'credited', creditedAt: at })
    .returning();
  await post(db(), depositTransaction({ id: d!.id, user_id: userId, pool: 'stable', currency: 'USDT', amount: amount.toString(), chain_id: 1, tx_hash: txHash, log_index: 0, to_address: toAddress }, at));
}

/** A withdrawal to `to`, requested at `at`: its row and the reservation that takes it out of the position. */
async function withdraw(userId: string, amount: bigint, at: Date, to: string) {
  const [w] = await db().insert(withdrawals).values({ userId, pool: 'stable', currency: 'USDT', amount: amount.toString(), toAddress: to, createdAt: at }).returning();
  await post(db(), reserveTransaction({ id: w!.id, userId, pool: 'stable', currency: 'USDT', amount: amount.toString() }, at));
}

const startOf = (day: string) => new Date(`${day}T00:00:00Z`);
/** The daily run's steps for one day of the stable pool: its interest, then its rewards. */
async function runDay(day: string) {
  expect((await accrueDay(db(), 'stable', day, APY.text)).created).toBe(true);
  expect((await rewardDay(db(), t.app.services.prices, 'stable', day)).created).toBe(true);
}
/** A referrer's rows, one per day (0035), oldest first. */
const rewardsOf = async (userId: string) => (await db().select().from(referralDayRewards).where(eq(referralDayRewards.userId, userId))).sort((x, y) => x.day.localeCompare(y.day));
const membersOf = (userId: string) => memberShares(db(), userId);
/** One day's interest on a balance held all day, by the e2e suite's own compounding. */
const dayInterest = (balance: bigint) => independentEarned(balance, APY.num, APY.den, 1);

describe('finding 10: referral rewards only on a real referee’s money', () => {
  it('finding 10: no rewards on a referee who shares a wallet, a funding address or a payout address with an ancestor', async () => {
    const day = addDays(START, 1);
    const before = startOf(addDays(day, -1));
    const a = await person();
    const b = await person(a.id);
    // Funded from A's wallet.
    const fromA = await person(a.id);
    await fund(fromA.id, 100n * USDT, before, a.wallet);
    // Paid out to A's wallet.
    const payingA = await person(a.id);
    await fund(payingA.id, 110n * USDT, before, payingA.wallet);
    await withdraw(payingA.id, 10n * USDT, before, a.wallet);
    // Two levels below A, funded from B's wallet (its referrer): neither B nor A earns on it.
    const fromB = await person(b.id);
    await fund(fromB.id, 100n * USDT, before, b.wallet);
    // A real referee of A's: the only rewards.
    const real = await person(a.id);
    await fund(real.id, 300n * USDT, before, real.wallet);
    await runDay(day);

    const share = (dayInterest(300n * USDT) * 1000n) / 10_000n;
    expect((await rewardsOf(a.id)).map((r) => [r.day, BigInt(r.amount)])).toEqual([[day, share]]);
    expect(await membersOf(a.id)).toEqual(new Map([[real.id, share]]));
    expect(await rewardsOf(b.id)).toEqual([]);
    expect(await membersOf(b.id)).toEqual(new Map());
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('finding 10: a wallet-only account gives and earns rewards only after it proves an e-mail', async () => {
    const [d1, d2] = [addDays(START, 10), addDays(START, 11)];
    const a = await person();
    const w = await person(a.id, { walletOnly: true });
    // Below a wallet-only referrer: A still earns its level-2 share, W nothing.
    const underW = await person(w.id);
    await fund(underW.id, 200n * USDT, startOf(addDays(d1, -1)), underW.wallet);
    // A wallet-only referee gives nothing, until it proves an e-mail.
    const walletOnly = await person(a.id, { walletOnly: true });
    await fund(walletOnly.id, 400n * USDT, startOf(addDays(d1, -1)), walletOnly.wallet);
    await runDay(d1);

    const i1 = dayInterest(200n * USDT);
    // A's level-2 share from under W (300 bps), nothing from the wallet-only referee.
    expect((await rewardsOf(a.id)).map((r) => [r.day, BigInt(r.amount)])).toEqual([[d1, (i1 * 300n) / 10_000n]]);
    expect(await membersOf(a.id)).toEqual(new Map([[underW.id, (i1 * 300n) / 10_000n]]));
    expect(await rewardsOf(w.id)).toEqual([]);

    // The e-mail proved (as the confirmed change sets it), the next day rewards flow both ways.
    await db().update(users).set({ email: `${w.id}@example.com` }).where(eq(users.id, w.id));
    await db().update(users).set({ email: `${walletOnly.id}@example.com` }).where(eq(users.id, walletOnly.id));
    await runDay(d2);
    // Day 2's balances carry day 1's interest (compounding).
    const i2under = dayInterest(200n * USDT + i1);
    const i2wallet = dayInterest(400n * USDT + dayInterest(400n * USDT));
    const [fromUnderW, fromWalletOnly] = [(i2under * 300n) / 10_000n, (i2wallet * 1000n) / 10_000n];
    expect((await rewardsOf(a.id)).map((r) => [r.day, BigInt(r.amount)])).toEqual([
      [d1, (i1 * 300n) / 10_000n],
      [d2, fromUnderW + fromWalletOnly],
    ]);
    // Both days are in one month: each member's share of both, the wallet-only one's of day 2 alone.
    expect(await membersOf(a.id)).toEqual(
      new Map([
        [underW.id, (i1 * 300n) / 10_000n + fromUnderW],
        [walletOnly.id, fromWalletOnly],
      ]),
    );
    expect((await rewardsOf(w.id)).map((r) => [r.day, BigInt(r.amount)])).toEqual([[d2, (i2under * 1000n) / 10_000n]]);
    expect(await membersOf(w.id)).toEqual(new Map([[underW.id, (i2under * 1000n) / 10_000n]]));
  });

  it('finding 10: the rank comes from the downline’s capital at the close of the day, not when the day is rewarded', async () => {
    const day = addDays(START, 20);
    const a = await person();
    const r1 = await person(a.id);
    await fund(r1.id, 500n * USDT, startOf(addDays(day, -1)), r1.wallet);
    // After the day's close and before its rewards, 5000 dollars arrive below A: Bronze (1000) for a moment.
    const r2 = await person(a.id);
    await fund(r2.id, 5000n * USDT, new Date(`${addDays(day, 1)}T00:30:00Z`), r2.wallet);
    await runDay(day);
    // At the close A's downline held 500 dollars and the day's interest: Starter, no bonus.
    const [reward] = await rewardsOf(a.id);
    expect([reward!.bonusBps, BigInt(reward!.amount)]).toEqual([0, (dayInterest(500n * USDT) * 1000n) / 10_000n]);
  });

  it('finding 10: rewards vest after the period only if the referee’s funds stayed; otherwise they go back to the house, once', async () => {
    const day = addDays(START, 30);
    const a = await person();
    // 800 dollars below A in all: no rank bonus.
    const stays = await person(a.id);
    await fund(stays.id, 300n * USDT, startOf(addDays(day, -1)), stays.wallet);
    // Adds 200 the next day and takes those 200 out again: what it held at the day's close stayed.
    const topsUp = await person(a.id);
    await fund(topsUp.id, 100n * USDT, startOf(addDays(day, -1)), topsUp.wallet);
    await fund(topsUp.id, 200n * USDT, new Date(`${addDays(day, 1)}T08:00:00Z`), topsUp.wallet);
    await withdraw(topsUp.id, 200n * USDT, new Date(`${addDays(day, 2)}T08:00:00Z`), topsUp.wallet);
    // Takes out 50 of its 250 on the last day of the period.
    const leaves = await person(a.id);
    await fund(leaves.id, 250n * USDT, startOf(addDays(day, -1)), leaves.wallet);
    await withdraw(leaves.id, 50n * USDT, new Date(`${addDays(day, VESTING_DAYS)}T23:00:00Z`), leaves.wallet);
    // Its later payout goes to A's wallet: found when the reward vests.
    const paysA = await person(a.id);
    await fund(paysA.id, 150n * USDT, startOf(addDays(day, -1)), paysA.wallet);
    await runDay(day);
    await withdraw(paysA.id, 1n * USDT, new Date(`${addDays(day, 1)}T10:00:00Z`), a.wallet);

    const expected = new Map([
      [stays.id, (dayInterest(300n * USDT) * 1000n) / 10_000n],
      [topsUp.id, (dayInterest(100n * USDT) * 1000n) / 10_000n],
      [leaves.id, (dayInterest(250n * USDT) * 1000n) / 10_000n],
      [paysA.id, (dayInterest(150n * USDT) * 1000n) / 10_000n],
    ]);
    const sumOf = (xs: bigint[]) => xs.reduce((n, x) => n + x, 0n);
    expect(await membersOf(a.id)).toEqual(expected);
    const [written] = await rewardsOf(a.id);
    expect([written!.day, written!.status, BigInt(written!.amount), BigInt(written!.forfeited)]).toEqual([day, 'vesting', sumOf([...expected.values()]), 0n]);
    const [marker] = await rows<{ vests_on: string }>(db(), sql`select vests_on::text from referral_reward_days where pool = 'stable' and day = ${day}::date`);
    expect(marker!.vests_on).toBe(addDays(day, VESTING_DAYS));

    // Before the period's last day has closed, nothing of this day is decided (the earlier tests' rewards are).
    await vestRewards(db(), addDays(day, VESTING_DAYS - 1));
    expect((await rewardsOf(a.id)).every((r) => r.status === 'vesting')).toBe(true);
    const payableBefore = await payable();
    // Twice at once: each day is decided once.
    const runs = await Promise.all([vestRewards(db(), addDays(day, VESTING_DAYS)), vestRewards(db(), addDays(day, VESTING_DAYS))]);
    // The earlier tests' referrers also had rows of this day: everything of the day is counted once between the two runs.
    const [ofDay] = await rows<{ earned: string; vesting: string; returned: string }>(
      db(),
      sql`select count(*) filter (where status = 'earned')::text as earned, count(*) filter (where status = 'vesting')::text as vesting,
                 coalesce(sum(forfeited), 0)::text as returned
          from referral_day_rewards where day = ${day}::date`,
    );
    expect(ofDay!.vesting).toBe('0');
    expect(runs.reduce((n, r) => n + r.vested, 0)).toBe(Number(ofDay!.earned));
    expect(payableBefore - (await payable())).toBe(BigInt(ofDay!.returned));
    // The forfeit's ledger transaction says whose share went back, to whom, why and how much: one entry per member and referrer.
    const [forfeit] = await rows<{ detail: { forfeits: { member: string; referrer: string; day: string; reason: string; amount: string }[] } }>(
      db(),
      sql`select detail from ledger_transactions where reference = ${`referral:forfeit:${day}:stable`}`,
    );
    const forfeits = forfeit!.detail.forfeits;
    expect(runs.reduce((n, r) => n + r.forfeited, 0)).toBe(forfeits.length);
    expect(sumOf(forfeits.map((f) => BigInt(f.amount)))).toBe(BigInt(ofDay!.returned));
    expect(forfeits.filter((f) => f.referrer === a.id).map((f) => [f.member, f.day, f.reason, BigInt(f.amount)])).toEqual(
      expect.arrayContaining([
        [leaves.id, day, 'funds_left', expected.get(leaves.id)!],
        [paysA.id, day, 'shared_address', expected.get(paysA.id)!],
      ]),
    );
    expect(forfeits.filter((f) => f.referrer === a.id)).toHaveLength(2);
    // A keeps the shares of the members whose funds stayed; the others' are taken off, per day and per member.
    const [decided] = await rewardsOf(a.id);
    expect([decided!.status, BigInt(decided!.amount), BigInt(decided!.forfeited)]).toEqual([
      'earned',
      expected.get(stays.id)! + expected.get(topsUp.id)!,
      expected.get(leaves.id)! + expected.get(paysA.id)!,
    ]);
    expect(await membersOf(a.id)).toEqual(
      new Map([
        [stays.id, expected.get(stays.id)!],
        [topsUp.id, expected.get(topsUp.id)!],
        [leaves.id, 0n],
        [paysA.id, 0n],
      ]),
    );
    // Nothing is decided again.
    const later = await rewardsOf(a.id);
    await vestRewards(db(), addDays(day, VESTING_DAYS + 5));
    expect(await rewardsOf(a.id)).toEqual(later);
    expect((await checkLedger(db())).ok).toBe(true);
  });
});

async function payable(): Promise<bigint> {
  const [r] = await rows<{ balance: string }>(db(), sql`select (-balance)::text as balance from ledger_accounts where key = 'referral_rewards_payable:USDT'`);
  return BigInt(r?.balance ?? '0');
}

describe('the Low item: rewards earned in an earlier payout currency', () => {
  it('are still shown, and claimed before the current currency’s', async () => {
    const [d1, d2] = [addDays(START, 39), addDays(START, 40)];
    await setPrices(db(), t.app.services.config.priceSource, { USDT: '1', USDC: '1' });
    const signedUp = await register(t.app, uniqueEmail('low'));
    const aId = signedUp.user.id as string;
    const wallet = newWallet();
    expect((await call(t.app, 'POST', '/api/v1/connect-mm', { token: signedUp.token, body: { id: aId, metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) } })).status).toBe(200);
    const r = await person(aId);
    await fund(r.id, 100n * USDT, startOf(addDays(d1, -1)), r.wallet);
    await runDay(d1);
    // The payout currency becomes USDC, vesting at once, from the next day.
    await setConfig(db(), 'test', { currency: 'USDC', vestingDays: 0, effectiveFrom: d2 }, d2);
    await runDay(d2);
    await vestRewards(db(), addDays(d1, VESTING_DAYS));

    const inUsdt = (dayInterest(100n * USDT) * 1000n) / 10_000n;
    const inUsdc = (dayInterest(100n * USDT + dayInterest(100n * USDT)) * 1000n) / 10_000n;
    const harvest = async () => (await call(t.app, 'GET', '/api/v1/referrals/harvest', { token: signedUp.token })).body;
    expect(await harvest()).toMatchObject({
      currency: 'USDC',
      availableToClaim: String(inUsdc),
      vestingDays: 0,
      others: [{ currency: 'USDT', decimals: 6, vesting: '0', availableToClaim: String(inUsdt), inPayment: '0', alreadyPaid: '0' }],
    });

    const first = await call(t.app, 'POST', '/api/v1/referrals/withdraw', { token: signedUp.token });
    expect(first.status).toBe(200);
    const claims = await db().select().from(withdrawals).where(eq(withdrawals.userId, aId));
    expect(claims.map((w) => [w.kind, w.currency, w.amount])).toEqual([['referral', 'USDT', String(inUsdt)]]);
    expect(await harvest()).toMatchObject({ availableToClaim: String(inUsdc), others: [{ currency: 'USDT', availableToClaim: '0', inPayment: String(inUsdt) }], claim: { currency: 'USDT', amount: String(inUsdt) } });
    expect((await checkLedger(db())).ok).toBe(true);
  });
});
