import { eq, sql } from 'drizzle-orm';
import type { Wallet } from 'ethers';
import { apiMessages as M, apiMessagesRu } from '@app/contracts';
import { mine } from '@app/chain';
import { referralDayRewards, users, withdrawals } from '../src/db/schema';
import { LOCAL_POOL_ADDRESSES } from '../src/db/seed';
import { rows } from '../src/db/rows';
import { rewardDay } from '../src/referral/rewards';
import { call, lastMail, register, siweSign, uniqueEmail } from './helpers';
import { devWallet, sendEth, sendToken, tokenContract } from './deposit-helpers';
import { ETH, USDT, addDays, expectLedgerBalanced, independentEarned, memberShares, moneyStack, operator, today } from './money-helpers';

/**
 * The referral programme against the real API, database and anvil: sign-ups through invites,
 * deposits on chain, the operator's daily run, claims paid by the payout job.
 */
jest.setTimeout(180_000);
const stack = moneyStack({ PAYOUT_CONFIRMATIONS: '1' });
const app = () => stack.t.app;
type Json = Record<string, unknown>;
type Member = { id: string; token: string; code: string; email: string; wallet?: Wallet };

/** Signs up through an invite (or without), confirms, and optionally links a dev wallet. */
async function member(invite?: string, walletIndex?: number): Promise<Member> {
  const email = uniqueEmail('ref');
  const u = await register(app(), email, invite ? { invite } : {});
  const id = (u.user as { id: string }).id;
  const [row] = await app().services.db.select({ code: users.referralCode }).from(users).where(eq(users.id, id));
  let wallet: Wallet | undefined;
  if (walletIndex !== undefined) {
    wallet = devWallet(stack.chain.rpcUrl, walletIndex);
    const r = await call(app(), 'POST', '/api/v1/connect-mm', { token: u.token, body: { id, metaMaskAddress: wallet.address, ...(await siweSign(app(), wallet)) } });
    expect(r.status).toBe(200);
  }
  return { id, token: u.token, code: row!.code, email, wallet };
}

async function deposit(m: Member, pool: 'coin' | 'stable', currency: 'ETH' | 'USDT', amount: bigint) {
  const tx = currency === 'ETH' ? await sendEth(m.wallet!, LOCAL_POOL_ADDRESSES[pool], amount) : await sendToken(m.wallet!, 'USDT', LOCAL_POOL_ADDRESSES[pool], amount);
  const r = await call(app(), 'POST', '/api/v1/dashboard/deposit', { token: m.token, body: { pool, currency, amount: String(amount), transaction: tx } });
  expect(r.status).toBe(200);
  await app().services.depositJob.tick();
  await expectLedgerBalanced(app());
}

const get = async (m: Member, path: string) => (await call(app(), 'GET', `/api/v1/referrals${path}`, { token: m.token })).body;
const claim = (m: Member, lang?: string) => call(app(), 'POST', '/api/v1/referrals/withdraw', { token: m.token, ...(lang ? { headers: { 'accept-language': lang } } : {}) });
/** A referrer's rows: one per day (0035). */
const rewardRows = (userId: string) => app().services.db.select().from(referralDayRewards).where(eq(referralDayRewards.userId, userId));

const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);

/** Runs the payout job and mines until nothing is left in flight. */
async function payAll() {
  for (let i = 0; i < 8; i++) {
    const r = await app().services.payouts.run();
    if (!r.signed && !r.broadcast && !r.waiting) return;
    await mine(stack.chain.rpcUrl, 1);
  }
}

/**
 * The documented reward, computed here without the database: interest of each day from the
 * independent compounding, converted ETH → USDT at the local prices (3000 and 1 USD), times the
 * rate, rounded down once per day.
 */
function expectedEthReward(balance: bigint, apyNum: bigint, apyDen: bigint, days: number, rateBps: bigint, ethUsd: bigint, usdtUsd: bigint) {
  const perDay: bigint[] = [];
  for (let d = 1; d <= days; d++) {
    const interest = independentEarned(balance, apyNum, apyDen, d) - independentEarned(balance, apyNum, apyDen, d - 1);
    perDay.push((interest * ethUsd * USDT * rateBps) / (ETH * usdtUsd * 10_000n));
  }
  return perDay;
}

let day0: string;
let A: Member, B: Member, C: Member, D: Member;

beforeAll(async () => {
  day0 = today();
  expect(await operator(app(), 'apy', 'set', 'coin', '0.08', '--from', day0)).toMatchObject({ code: 0 });
  // B's USDT in the stable pool earns nothing: the rewards below come from D's ETH alone.
  expect(await operator(app(), 'apy', 'set', 'stable', '0', '--from', day0)).toMatchObject({ code: 0 });
  // Rewards here vest as soon as their day is rewarded (the vesting period has its own tests, finding 10).
  expect(await operator(app(), 'referral', 'vesting', 'set', '0', '--from', day0)).toMatchObject({ code: 0 });
});

describe('configuration', () => {
  it('levels and ranks set by the operator, kept with history; over 18 % refused by the server and the database', async () => {
    const ranks = await operator(app(), 'referral', 'ranks', 'set', 'Starter:0:0', 'Bronze:1000:50', 'Silver:1000000:100');
    expect(ranks.code).toBe(0);
    expect(ranks.out).toMatch(/Bronze/);
    // 1000 + 500 + 400 + 3 × 100 = 2200 bps: refused, and nothing is stored.
    const over = await operator(app(), 'referral', 'levels', 'set', '1000', '500', '400');
    expect(over.code).toBe(2);
    expect(over.out).toMatch(/add up to 2200 bps, over 1800/);
    expect(await operator(app(), 'referral', 'levels', 'set', '1900')).toMatchObject({ code: 2 });
    const ok = await operator(app(), 'referral', 'levels', 'set', '1000', '300', '200');
    expect(ok.code).toBe(0);
    const show = await operator(app(), 'referral', 'show');
    expect(show.out).toMatch(/payout currency USDT/);
    const history = await rows<{ n: string }>(app().services.db, sql`select count(*)::text as n from referral_config`);
    expect(Number(history[0]!.n)).toBeGreaterThanOrEqual(3);
    // The database holds the cap too, whatever writes the rows.
    await expect(
      app().services.db.transaction(async (tx) => {
        const [c] = await rows<{ id: string }>(tx, sql`insert into referral_config (effective_from, currency, set_by) values (${day0}, 'USDT', 'test') returning id`);
        await tx.execute(sql`insert into referral_config_levels (config_id, level, reward_bps) values (${c!.id}, 1, 1000), (${c!.id}, 2, 900)`);
        await tx.execute(sql`insert into referral_config_ranks (config_id, rank, title, capital_usd, bonus_bps) values (${c!.id}, 1, 'x', 0, 0)`);
      }),
    ).rejects.toThrow();
    const overview = await call(app(), 'GET', '/api/v1/referrals', { token: (await member()).token });
    expect(overview.body).toMatchObject({ currency: 'USDT', maxTotalBps: 1800, levels: [{ level: 1, rewardBps: 1000 }, { level: 2, rewardBps: 300 }, { level: 3, rewardBps: 200 }] });
  });
});

describe('invites', () => {
  it('the public check says only valid or invalid; malformed codes get 400 with the standard body', async () => {
    A = await member(undefined, 1);
    expect((await call(app(), 'GET', `/api/v1/referrals/invite/${A.code}`)).body).toEqual({ valid: true });
    expect((await call(app(), 'GET', '/api/v1/referrals/invite/nope')).body).toEqual({ valid: false });
    for (const bad of ['bad%20code', 'a'.repeat(65), '%00', '%F0%9F%98%80', '..%2F..']) {
      const r = await call(app(), 'GET', `/api/v1/referrals/invite/${bad}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ message: expect.any(String) });
    }
    // Sign-up with an unknown or malformed invite: a clear 400, in English and Russian.
    const unknown = await call(app(), 'POST', '/api/v1/register', { body: { login: uniqueEmail('bad'), password: 'Str0ng!pass', invite: 'nope' } });
    expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([400, 'INVALID_INVITE', M.invalidInvite]);
    for (const invite of ['x y', '\u0000', 'é'.repeat(64), 'a'.repeat(65), 42]) {
      const r = await call(app(), 'POST', '/api/v1/register', { body: { login: uniqueEmail('bad'), password: 'Str0ng!pass', invite } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ message: expect.any(String), code: expect.any(String) });
    }
    const ru = await call(app(), 'POST', '/api/v1/register', { body: { login: uniqueEmail('bad'), password: 'Str0ng!pass', invite: 'nope' }, headers: { 'accept-language': 'ru' } });
    expect(ru.body.message).toBe(apiMessagesRu.invalidInvite);
  });

  it('an unconfirmed account cannot invite; the referrer can never change; no self-referral or cycle can be made', async () => {
    const unconfirmed = await call(app(), 'POST', '/api/v1/register', { body: { login: uniqueEmail('unc'), password: 'Str0ng!pass' } });
    const [u] = await app().services.db.select().from(users).where(eq(users.id, (unconfirmed.body.user as { id: string }).id));
    expect((await call(app(), 'GET', `/api/v1/referrals/invite/${u!.referralCode}`)).body).toEqual({ valid: false });
    const r = await call(app(), 'POST', '/api/v1/register', { body: { login: uniqueEmail('via'), password: 'Str0ng!pass', invite: u!.referralCode } });
    expect([r.status, r.body.code]).toEqual([400, 'INVALID_INVITE']);

    const x = await member();
    const y = await member(x.code);
    const db = app().services.db;
    // y → x exists; x → y would close a cycle, x → x is self-referral: the database refuses both.
    await expect(db.update(users).set({ referrerId: y.id }).where(eq(users.id, x.id))).rejects.toThrow();
    await expect(db.update(users).set({ referrerId: x.id }).where(eq(users.id, x.id))).rejects.toThrow();
    await expect(db.update(users).set({ referrerId: null }).where(eq(users.id, y.id))).rejects.toThrow();
    // Two new accounts naming each other in one statement: the first names one not yet there.
    const [p, q] = [crypto.randomUUID(), crypto.randomUUID()];
    await expect(
      db.insert(users).values([
        { id: p, email: uniqueEmail('p'), role: 'user', referralCode: p.slice(0, 10), referrerId: q },
        { id: q, email: uniqueEmail('q'), role: 'user', referralCode: q.slice(0, 10), referrerId: p },
      ]),
    ).rejects.toThrow();
    const self = crypto.randomUUID();
    await expect(db.insert(users).values({ id: self, email: uniqueEmail('s'), role: 'user', referralCode: self.slice(0, 10), referrerId: self })).rejects.toThrow();
    const [yRow] = await db.select({ referrerId: users.referrerId }).from(users).where(eq(users.id, y.id));
    expect(yRow!.referrerId).toBe(x.id);
  });
});

describe('rewards', () => {
  it('A ← B ← C ← D: each level gets its rate (with the rank bonus) on D’s ETH interest, in USDT to the base unit; a rerun doubles nothing', async () => {
    B = await member(A.code, 2);
    C = await member(B.code);
    D = await member(C.code, 3);
    expect((await get(A, '')) as Json).toMatchObject({ members: 3, levels: [{ level: 1, members: 1 }, { level: 2, members: 1 }, { level: 3, members: 1 }] });
    await deposit(D, 'coin', 'ETH', ETH);
    // B's USDT also funds the stable pool's hot wallet that pays the claims below.
    await deposit(B, 'stable', 'USDT', 500n * USDT);
    // Everyone above D has 1 ETH (3000 USD) in the downline: Bronze (from 1000 USD), +50 bps a level.
    expect(await get(C, '/progress')).toMatchObject({ rank: 2, nextRank: 3, capitalUsd: '3000.00' });

    const days = 3;
    const until = addDays(day0, days - 1);
    expect(await operator(app(), 'accrue', '--until', until)).toMatchObject({ code: 0 });
    await expectLedgerBalanced(app());

    const rates: [Member, bigint, number][] = [[C, 1050n, 1], [B, 350n, 2], [A, 250n, 3]];
    for (const [m, rate, level] of rates) {
      // D's ETH arrived during day0, which it earns nothing for (interest pays whole days held): the
      // rewards are those of its first days - 1 days of interest, from day0 + 1.
      const expected = expectedEthReward(ETH, 8n, 100n, days - 1, rate, 3000n, 1n);
      const got = await rewardRows(m.id);
      // The day's rate is the level's plus the rank bonus kept with the day; all of it from D, in USDT.
      const levelBps = [1000n, 300n, 200n][level - 1]!;
      expect(got.every((r) => BigInt(r.bonusBps) === rate - levelBps && r.currency === 'USDT')).toBe(true);
      expect(got.sort((a, b) => a.day.localeCompare(b.day)).map((r) => BigInt(r.amount))).toEqual(expected);
      // All of it from D, kept with D's month rows at this level.
      expect(await memberShares(app().services.db, m.id)).toEqual(new Map([[D.id, sum(expected)]]));
      const harvest = await get(m, '/harvest');
      expect(harvest).toMatchObject({ currency: 'USDT', decimals: 6, availableToClaim: String(sum(expected)), allTime: String(sum(expected)), inPayment: '0', alreadyPaid: '0', claimInProgress: false, claim: null });
    }
    // The house paid exactly the rewards into the payable account.
    const [payable] = await rows<{ balance: string }>(app().services.db, sql`select (-balance)::text as balance from ledger_accounts where key = 'referral_rewards_payable:USDT'`);
    const all = await rows<{ total: string }>(app().services.db, sql`select sum(amount + forfeited)::text as total from referral_day_rewards`);
    expect(payable!.balance).toBe(all[0]!.total);

    // The same days again, by the operator and by the step itself: nothing doubles.
    const before = await get(A, '/harvest');
    expect(await operator(app(), 'accrue', '--until', until)).toMatchObject({ code: 0 });
    expect(await rewardDay(app().services.db, app().services.prices, 'coin', day0)).toMatchObject({ created: false });
    expect(await get(A, '/harvest')).toEqual(before);
    await expectLedgerBalanced(app());
    // The prices the days were converted with are kept.
    const kept = await rows<{ usd: string }>(app().services.db, sql`select usd::text as usd from referral_prices where day = ${day0}::date and currency = 'ETH'`);
    expect(kept[0]!.usd).toBe('3000.00000000');

    // Affiliates: one level, masked, with the rewards earned from each member.
    const level3 = await get(A, '/affiliates?level=3&sort=rewards_desc');
    const rewardsFromD = (await rewardRows(A.id)).reduce((n, r) => n + BigInt(r.amount), 0n);
    expect(level3).toMatchObject({ level: 3, page: 1, total: 1, currency: 'USDT', items: [{ member: `${D.email[0]}***@example.com`, rewards: String(rewardsFromD) }] });
    expect(JSON.stringify(level3)).not.toContain(D.email);
    // D holds 1 ETH and its interest, at $3000: between $1,000 and $10,000, shown as that band only.
    const items = (level3 as { items: Record<string, unknown>[] }).items;
    expect(items[0]!.capitalBand).toEqual({ fromUsd: '1000', toUsd: '10000' });
    expect(await get(A, '/affiliates?level=1')).toMatchObject({ total: 1, items: [{ member: `${B.email[0]}***@example.com`, rewards: '0' }] });
    const bad = await call(app(), 'GET', '/api/v1/referrals/affiliates?level=0&sort=drop', { token: A.token });
    expect(bad.status).toBe(400);
  });
});

describe('claims', () => {
  it('20 parallel claims pay once; a second claim while paying gets the exact message; the payout lands on chain to the unit', async () => {
    const available = BigInt(((await get(A, '/harvest')) as { availableToClaim: string }).availableToClaim);
    expect(available).toBeGreaterThan(0n);
    const usdt = tokenContract(devWallet(stack.chain.rpcUrl, 0), 'USDT');
    const before = (await usdt.getFunction('balanceOf')(A.wallet!.address)) as bigint;
    const answers = await Promise.all(Array.from({ length: 20 }, () => claim(A)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBe(1);
    expect(ok[0]!.body).toEqual({ message: M.withdrawalSent });
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 409 && a.body.message === M.claimInProgress)).toBe(true);
    const claims = await app().services.db.select().from(withdrawals).where(eq(withdrawals.userId, A.id));
    expect(claims.map((w) => [w.kind, w.amount])).toEqual([['referral', String(available)]]);
    expect(await get(A, '/harvest')).toMatchObject({ availableToClaim: '0', inPayment: String(available), claimInProgress: true, claim: { status: 'in_payment', amount: String(available) } });
    await expectLedgerBalanced(app());

    const again = await claim(A, 'ru');
    expect([again.status, again.body.message]).toEqual([409, apiMessagesRu.claimInProgress]);
    const en = await claim(A);
    expect([en.status, en.body.message]).toEqual([409, 'Please wait for the current payment to complete before making a new claim']);
    // A claim is not a pool withdrawal: the user's withdrawals list does not show it.
    expect((await call(app(), 'GET', '/api/v1/dashboard/withdrawals', { token: A.token })).body.items).toEqual([]);

    await payAll();
    const after = (await usdt.getFunction('balanceOf')(A.wallet!.address)) as bigint;
    expect(after - before).toBe(available);
    const paid = (await get(A, '/harvest')) as Json;
    expect(paid).toMatchObject({ alreadyPaid: String(available), inPayment: '0', availableToClaim: '0', claimInProgress: false, claim: { status: 'paid', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    await expectLedgerBalanced(app());
    // Finding 11 (issue 27): the paid claim is mailed once, with its transaction's explorer link, however often the job runs.
    await payAll();
    const mail = await lastMail(app(), A.email, 'claim-paid');
    const hash = (paid.claim as Json).transaction as string;
    expect(mail?.text).toContain(`Your claim of ${available / USDT}.${String(available % USDT).padStart(6, '0').replace(/0+$/, '') || '0'} USDT in referral rewards is paid to your wallet.`);
    expect(mail?.text).toContain(`https://etherscan.io/tx/${hash}`);
    expect((await stack.t.mail.mailsTo(A.email)).filter((m) => m.headers?.['x-mail-kind'] === 'claim-paid')).toHaveLength(1);

    const nothing = await claim(A);
    expect([nothing.status, nothing.body.code, nothing.body.message]).toEqual([400, 'NOTHING_TO_CLAIM', M.nothingToClaim]);
    expect((await claim(A, 'ru')).body.message).toBe(apiMessagesRu.nothingToClaim);
    // C has rewards but no linked wallet.
    const noWallet = await claim(C);
    expect([noWallet.status, noWallet.body.code, noWallet.body.message]).toEqual([400, 'CLAIM_NO_WALLET', M.claimNoWallet]);
  });

  it('a reward landing during a claim is neither lost nor paid twice; a returned payout makes the rewards available again', async () => {
    // B's rewards so far; the next day accrues and is rewarded while B claims.
    const until = addDays(day0, 3);
    // Every claim now waits for the operator, who will reject this one.
    expect(await operator(app(), 'payouts', 'set', 'USDT', '--threshold', '0')).toMatchObject({ code: 0 });
    const accrue = operator(app(), 'accrue', '--until', until);
    const claimed = claim(B);
    const [run, answer] = await Promise.all([accrue, claimed]);
    expect(run.code).toBe(0);
    expect(answer.status).toBe(200);
    const all = await rewardRows(B.id);
    const total = sum(all.map((r) => BigInt(r.amount)));
    const h = (await get(B, '/harvest')) as { availableToClaim: string; inPayment: string; allTime: string };
    expect(BigInt(h.availableToClaim) + BigInt(h.inPayment)).toBe(total);
    expect(h.allTime).toBe(String(total));
    const [w] = await app().services.db.select().from(withdrawals).where(eq(withdrawals.userId, B.id));
    expect(w!.amount).toBe(h.inPayment);
    await expectLedgerBalanced(app());

    // The operator rejects the claim (as when a payout reverts or is dropped): the rewards are available again.
    expect(w!.status).toBe('awaiting_approval');
    expect(await operator(app(), 'withdrawals', 'reject', String(w!.id))).toMatchObject({ code: 0 });
    expect(await get(B, '/harvest')).toMatchObject({ availableToClaim: String(total), inPayment: '0', claimInProgress: false, claim: { status: 'returned' } });
    await expectLedgerBalanced(app());
    expect(await operator(app(), 'payouts', 'set', 'USDT', '--threshold', 'none')).toMatchObject({ code: 0 });
  });
});

describe('capital attracted', () => {
  it('B withdrawing everything lowers A’s capital attracted', async () => {
    const withB = (await get(A, '')) as { capitalAttractedUsd: string };
    const r = await call(app(), 'POST', '/api/v1/dashboard/withdraw', { token: B.token, body: { pool: 'stable', currency: 'USDT', amount: String(500n * USDT) } });
    expect(r.status).toBe(200);
    const without = (await get(A, '')) as { capitalAttractedUsd: string };
    expect(Number(withB.capitalAttractedUsd) - Number(without.capitalAttractedUsd)).toBeCloseTo(500, 2);
    await expectLedgerBalanced(app());
  });
});


describe('data honesty', () => {
  it('data honesty: the affiliates page does not reveal other users’ holdings: a member’s capital is shown as its band, never the amount', async () => {
    // B withdrew everything above; D holds 1 ETH and its interest at $3000.
    const level1 = (await get(A, '/affiliates?level=1')) as { items: Record<string, unknown>[] };
    expect(level1.items).toEqual([{ member: `${B.email[0]}***@example.com`, joinedAt: expect.any(String), capitalBand: { fromUsd: '0', toUsd: '0' }, rewards: '0' }]);
    const level3 = (await get(A, '/affiliates?level=3&sort=capital_desc')) as { items: Record<string, unknown>[] };
    expect(level3.items.map((m) => Object.keys(m).sort())).toEqual([['capitalBand', 'joinedAt', 'member', 'rewards']]);
    expect(level3.items[0]!.capitalBand).toEqual({ fromUsd: '1000', toUsd: '10000' });
    // D's exact value (what only D sees) appears nowhere in A's answer.
    const own = (await call(app(), 'GET', '/api/v1/cabinet/summary', { token: D.token })).body as { totals: { valueUsd: string } };
    expect(Number(own.totals.valueUsd)).toBeGreaterThan(3000);
    expect(JSON.stringify(level3)).not.toContain(own.totals.valueUsd);
  });
});
