import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { users } from '../src/db/schema';
import { rows } from '../src/db/rows';
import { accrueDay } from '../src/interest';
import { activityPage } from '../src/portfolio';
import { checkLedger, checkLedgerIncremental, post } from '../src/ledger';
import { createJobRunner } from '../src/jobs';
import { startTestApp, type TestApp } from './helpers';
import { addDays, independentEarned } from './money-helpers';

/**
 * Issue 23: the figures kept beside the balances (each position's all-time deposited, withdrawn
 * and interest; each pool's total) against a re-sum of the postings and the test's own model; the
 * incremental ledger check; the job lease renewed while a job works.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0' });
});
afterAll(() => t?.close());

const db = () => t.app.services.db;
const POOL = 'coin';
const reserves = { kind: 'reserves' as const, chainId: 1, address: '0x00000000000000000000000000000000000000cc', pool: POOL, currency: 'ETH' };
const position = (userId: string) => ({ kind: 'position' as const, userId, pool: POOL, currency: 'ETH' });
const inFlight = { kind: 'withdrawals_in_flight' as const, currency: 'ETH' };

async function newUser(referrerId?: string) {
  const id = randomUUID();
  await db().insert(users).values({ id, email: `${id}@example.com`, referralCode: id.slice(0, 12), role: 'user', referrerId });
  return id;
}
const deposit = (userId: string, reference: string, amount: bigint, at?: Date) =>
  post(db(), { reference, kind: 'deposit', at, postings: [{ account: reserves, amount }, { account: position(userId), amount: -amount }] });

/** Every position's kept figures against a re-sum of its postings, and each pool's kept total against its positions: the rows that differ. */
async function resumDifferences() {
  const accounts = await rows<{ key: string }>(
    db(),
    sql`select a.key from ledger_accounts a
        left join (
          select p.account_id, sum(p.amount) as total,
                 coalesce(sum(-p.amount) filter (where t.kind = 'deposit'), 0) as deposited,
                 coalesce(sum(p.amount) filter (where t.kind in ('withdrawal_reserve', 'withdrawal_return')), 0) as withdrawn,
                 coalesce(sum(-p.amount) filter (where t.kind = 'interest'), 0) as interest
          from ledger_postings p join ledger_transactions t on t.id = p.transaction_id group by p.account_id
        ) s on s.account_id = a.id
        where a.kind = 'position'
          and (a.balance, a.deposited, a.withdrawn, a.interest) <> (coalesce(s.total, 0), coalesce(s.deposited, 0), coalesce(s.withdrawn, 0), coalesce(s.interest, 0))`,
  );
  const pools = await rows<{ pool: string }>(
    db(),
    sql`select coalesce(k.pool, s.pool) as pool from pool_totals k
        full join (select pool, currency, sum(balance) as total from ledger_accounts where kind = 'position' group by pool, currency) s using (pool, currency)
        where coalesce(k.balance, 0) <> coalesce(s.total, 0)`,
  );
  return { accounts: accounts.map((a) => a.key), pools: pools.map((p) => p.pool) };
}

type Op = { kind: 'deposit'; who: number; amount: bigint } | { kind: 'withdraw'; who: number; share: number } | { kind: 'return'; who: number } | { kind: 'reward'; amount: bigint };

/** Each run's days come after every earlier run's, so a day's accrual reads no later posting. */
let nextDay = '2031-01-01';

describe('issue 23: figures kept beside the balances', () => {
  it('goal 1: the maintained aggregates equal a full re-sum, and the test\'s own model, after random deposits, withdrawals, returns, accruals and rewards', async () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('deposit' as const), who: fc.nat(2), amount: fc.bigInt(1n, 10n ** 21n) }),
      fc.record({ kind: fc.constant('withdraw' as const), who: fc.nat(2), share: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ kind: fc.constant('return' as const), who: fc.nat(2) }),
      fc.record({ kind: fc.constant('reward' as const), amount: fc.bigInt(1n, 10n ** 15n) }),
    );
    const days = fc.array(fc.record({ ops: fc.array(op, { maxLength: 5 }), accrue: fc.boolean() }), { minLength: 1, maxLength: 3 });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(days, async (plan) => {
        run++;
        // The first invites the other two: its downline's capital and members follow their positions.
        const referrer = await newUser();
        const who = [await newUser(referrer), await newUser(referrer), await newUser()];
        const model = who.map(() => ({ balance: 0n, deposited: 0n, withdrawn: 0n, interest: 0n, reserved: [] as bigint[] }));
        let n = 0;
        for (const d of plan) {
          const day = nextDay;
          nextDay = addDays(nextDay, 1);
          // Everything of the day at its first instant: held all day, so each earns floor(balance × r) of it.
          const at = new Date(`${day}T00:00:00Z`);
          for (const o of d.ops) {
            const ref = `test:scale:${run}:${n++}:${randomUUID()}`;
            if (o.kind === 'deposit') {
              await deposit(who[o.who]!, ref, o.amount, at);
              model[o.who]!.balance += o.amount;
              model[o.who]!.deposited += o.amount;
            } else if (o.kind === 'withdraw') {
              const m = model[o.who]!;
              const amount = (m.balance * BigInt(o.share)) / 100n;
              if (amount === 0n) continue;
              await post(db(), { reference: ref, kind: 'withdrawal_reserve', at, postings: [{ account: position(who[o.who]!), amount }, { account: inFlight, amount: -amount }] });
              m.balance -= amount;
              m.withdrawn += amount;
              m.reserved.push(amount);
            } else if (o.kind === 'return') {
              const m = model[o.who]!;
              const amount = m.reserved.pop();
              if (amount === undefined) continue;
              await post(db(), { reference: ref, kind: 'withdrawal_return', at, postings: [{ account: position(who[o.who]!), amount: -amount }, { account: inFlight, amount }] });
              m.balance += amount;
              m.withdrawn -= amount;
            } else {
              await post(db(), {
                reference: ref,
                kind: 'referral_reward',
                at,
                postings: [{ account: { kind: 'house', currency: 'ETH' }, amount: o.amount }, { account: { kind: 'referral_rewards_payable', currency: 'ETH' }, amount: -o.amount }],
              });
            }
          }
          if (d.accrue) {
            await accrueDay(db(), POOL, day, '0.05', 1);
            for (const m of model) {
              const earned = independentEarned(m.balance, 5n, 100n, 1);
              m.balance += earned;
              m.interest += earned;
            }
          }
        }
        const kept = await rows<{ user_id: string; balance: string; deposited: string; withdrawn: string; interest: string }>(
          db(),
          sql`select user_id::text, (-balance)::text as balance, deposited::text, withdrawn::text, interest::text from ledger_accounts
              where kind = 'position' and user_id in (${sql.join(who.map((u) => sql`${u}::uuid`), sql`, `)})`,
        );
        for (const [i, u] of who.entries()) {
          const m = model[i]!;
          const k = kept.find((r) => r.user_id === u) ?? { balance: '0', deposited: '0', withdrawn: '0', interest: '0' };
          expect({ balance: k.balance, deposited: k.deposited, withdrawn: k.withdrawn, interest: k.interest }).toEqual({
            balance: String(m.balance),
            deposited: String(m.deposited),
            withdrawn: String(m.withdrawn),
            interest: String(m.interest),
          });
        }
        const [standing] = await rows<{ members: string; capital: string | null }>(
          db(),
          sql`select (select members::text from referral_members where ancestor_id = ${referrer} and level = 1) as members,
                     (select (-sum(balance))::text from referral_capital where ancestor_id = ${referrer} and level = 1 and currency = 'ETH') as capital`,
        );
        expect({ members: standing?.members, capital: BigInt(standing?.capital ?? '0') }).toEqual({ members: '2', capital: model[0]!.balance + model[1]!.balance });
        expect(await resumDifferences()).toEqual({ accounts: [], pools: [] });
        const incremental = await checkLedgerIncremental(db());
        expect({ ok: incremental.ok, drifted: incremental.drifted }).toEqual({ ok: true, drifted: [] });
        expect((await checkLedger(db())).ok).toBe(true);
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});

describe('issue 23: the incremental ledger check', () => {
  it('goal 2: the incremental check finds a drift planted in an old row and in a new one; the full check finds both, and a posting changed under the books', async () => {
    const old = await newUser();
    await deposit(old, `test:scale:old:${old}`, 1_000n);
    expect((await checkLedgerIncremental(db())).ok).toBe(true);
    const [acct] = await rows<{ key: string; id: string }>(db(), sql`select key, id::text from ledger_accounts where user_id = ${old}`);

    // Old: a position nobody has written to since the last check moves without a posting.
    await db().execute(sql`update ledger_accounts set balance = balance - 3 where id = ${acct!.id}::bigint`);
    const fresh = await newUser();
    await deposit(fresh, `test:scale:new:${fresh}`, 500n);
    const first = await checkLedgerIncremental(db());
    expect(first.ok).toBe(false);
    expect(first.drifted).toEqual(
      expect.arrayContaining([
        { key: acct!.key, balance: '-1003', entries: '-1000' },
        { key: `pool_totals:${POOL}:ETH`, balance: expect.any(String), entries: String(BigInt(first.drifted.find((d) => d.key.startsWith('pool_totals'))!.balance) + 3n) },
      ]),
    );
    const full = await checkLedger(db());
    expect(full.ok).toBe(false);
    expect(full.drifted).toEqual(expect.arrayContaining([{ key: acct!.key, balance: '-1003', entries: '-1000' }]));
    await db().execute(sql`update ledger_accounts set balance = balance + 3 where id = ${acct!.id}::bigint`);
    // The checkpoint stayed: put back, the same check passes.
    expect((await checkLedgerIncremental(db())).ok).toBe(true);

    // New: a position written to since the last check, whose kept interest is off by one.
    const newer = await newUser();
    await deposit(newer, `test:scale:newer:${newer}`, 700n);
    const [nacct] = await rows<{ key: string; id: string }>(db(), sql`select key, id::text from ledger_accounts where user_id = ${newer}`);
    await db().execute(sql`update ledger_accounts set interest = interest + 1 where id = ${nacct!.id}::bigint`);
    const second = await checkLedgerIncremental(db());
    expect(second.ok).toBe(false);
    expect(second.drifted.map((d) => d.key)).toEqual([nacct!.key]);
    expect((await checkLedger(db())).drifted.map((d) => d.key)).toEqual([nacct!.key]);
    await db().execute(sql`update ledger_accounts set interest = interest - 1 where id = ${nacct!.id}::bigint`);
    expect((await checkLedgerIncremental(db())).ok).toBe(true);

    // A posting changed under the books (its guard switched off): only the full check reads old postings.
    const [leg] = await rows<{ transaction_id: string }>(
      db(),
      sql`select transaction_id::text from ledger_postings where account_id = ${acct!.id}::bigint limit 1`,
    );
    await db().execute(sql`alter table ledger_postings disable trigger ledger_postings_immutable`);
    try {
      await db().execute(sql`update ledger_postings set amount = amount - 1 where account_id = ${acct!.id}::bigint`);
      const tampered = await checkLedger(db(), 2);
      expect(tampered.unbalanced).toEqual([{ transactionId: Number(leg!.transaction_id), currency: 'ETH', sum: '-1' }]);
      expect(tampered.drifted).toEqual(expect.arrayContaining([{ key: acct!.key, balance: '-1000', entries: '-1001' }]));
      await db().execute(sql`update ledger_postings set amount = amount + 1 where account_id = ${acct!.id}::bigint`);
    } finally {
      await db().execute(sql`alter table ledger_postings enable trigger ledger_postings_immutable`);
    }
    expect((await checkLedger(db(), 2)).ok).toBe(true);
  });

  // Every way the check can go: one statement probing each account written to (a few legs), one
  // statement hashing them all, and a pass of steps walking the accounts a few at a time (a day of
  // interest); thresholds of one leg force the last two here.
  for (const [plan, opts] of [
    ['probing', {}],
    ['hashing', { manyLegs: 1 }],
    ['in steps', { passLegs: 1, stepAccounts: 2 }],
  ] as const) {
    it(`goal 2: the incremental check (${plan}) finds an unbalanced transaction and a liability below zero written since its last run`, async () => {
      const check = () => checkLedgerIncremental(db(), opts);
      const u = await newUser();
      await deposit(u, `test:scale:unbalanced:${u}`, 100n);
      expect((await check()).ok).toBe(true);
      const [ids] = await rows<{ reserves: string; position: string; key: string }>(
        db(),
        sql`select (select id::text from ledger_accounts where kind = 'reserves' and address = ${reserves.address} and currency = 'ETH') as reserves,
                   (select id::text from ledger_accounts where user_id = ${u}) as position, (select key from ledger_accounts where user_id = ${u}) as key`,
      );
      // One leg of a deposit written without its other: the reserves moved by 5 with nothing against them.
      const tx = await db().transaction(async (t) => {
        const [created] = await rows<{ id: string }>(t, sql`insert into ledger_transactions (reference, kind, at) values (${`test:scale:half:${u}`}, 'deposit', now()) returning id::text`);
        await t.execute(sql`insert into ledger_postings (transaction_id, account_id, amount) values (${created!.id}::bigint, ${ids!.reserves}::bigint, 5)`);
        await t.execute(sql`update ledger_accounts set balance = balance + 5 where id = ${ids!.reserves}::bigint`);
        return created;
      });
      const half = await check();
      expect({ ok: half.ok, unbalanced: half.unbalanced, drifted: half.drifted, negative: half.negative }).toEqual({
        ok: false,
        unbalanced: [{ transactionId: Number(tx!.id), currency: 'ETH', sum: '5' }],
        drifted: [],
        negative: [],
      });
      expect((await checkLedger(db())).unbalanced).toEqual([{ transactionId: Number(tx!.id), currency: 'ETH', sum: '5' }]);
      // Its other leg, on the position: the same transaction now balances, and the checkpoint had stayed, so it is read whole.
      // The postings' guard refuses a leg added to a written transaction: switched off for the plant.
      await db().execute(sql`alter table ledger_postings disable trigger ledger_postings_references`);
      try {
        await db().execute(sql`insert into ledger_postings (transaction_id, account_id, amount) values (${tx!.id}::bigint, ${ids!.position}::bigint, -5)`);
      } finally {
        await db().execute(sql`alter table ledger_postings enable trigger ledger_postings_references`);
      }
      await db().execute(sql`update ledger_accounts set balance = balance - 5, deposited = deposited + 5 where id = ${ids!.position}::bigint`);
      expect(await check()).toMatchObject({ ok: true, unbalanced: [], drifted: [] });

      // A position written to since, whose balance went above zero: owed less than nothing, and out of step with its postings.
      const v = await newUser();
      await deposit(v, `test:scale:negative:${v}`, 100n);
      const [pos] = await rows<{ id: string; key: string }>(db(), sql`select id::text, key from ledger_accounts where user_id = ${v}`);
      // The table's own guard refuses it: switched off for the plant, as a fault under the books would be.
      await db().execute(sql`alter table ledger_accounts drop constraint ledger_accounts_not_overdrawn`);
      try {
        await db().execute(sql`update ledger_accounts set balance = 7 where id = ${pos!.id}::bigint`);
        const negative = await check();
        expect({ ok: negative.ok, negative: negative.negative, drifted: negative.drifted.filter((d) => d.key === pos!.key) }).toEqual({
          ok: false,
          negative: [{ key: pos!.key, balance: '-7' }],
          drifted: [{ key: pos!.key, balance: '7', entries: '-100' }],
        });
        expect((await checkLedger(db())).negative).toEqual([{ key: pos!.key, balance: '-7' }]);
        await db().execute(sql`update ledger_accounts set balance = -100 where id = ${pos!.id}::bigint`);
      } finally {
        await db().execute(sql`alter table ledger_accounts add constraint ledger_accounts_not_overdrawn
          check (kind not in ('position', 'withdrawals_in_flight', 'referral_rewards_payable') or balance <= 0)`);
      }
      expect((await check()).ok).toBe(true);

      // A kept figure off by one on a position written to since.
      const w = await newUser();
      await deposit(w, `test:scale:figure:${w}`, 300n);
      await db().execute(sql`update ledger_accounts set deposited = deposited + 1 where user_id = ${w}`);
      const [wk] = await rows<{ key: string }>(db(), sql`select key from ledger_accounts where user_id = ${w}`);
      expect((await check()).drifted).toEqual([{ key: wk!.key, balance: '-300', entries: '-300' }]);
      await db().execute(sql`update ledger_accounts set deposited = deposited - 1 where user_id = ${w}`);
      expect((await check()).ok).toBe(true);

      // An old position (nothing written to it since) moved without a posting, beside a new deposit:
      // named through its pool's total (a pass of steps holds every account it walks to its sums, so names it directly).
      const x = await newUser();
      await db().execute(sql`update ledger_accounts set balance = balance - 3 where id = ${ids!.position}::bigint`);
      await deposit(x, `test:scale:moved:${x}`, 50n);
      const moved = await check();
      expect(moved.ok).toBe(false);
      expect(moved.drifted.map((d) => d.key)).toEqual(expect.arrayContaining(plan === 'in steps' ? [ids!.key] : [ids!.key, `pool_totals:${POOL}:ETH`]));
      await db().execute(sql`update ledger_accounts set balance = balance + 3 where id = ${ids!.position}::bigint`);
      expect((await check()).ok).toBe(true);
    });
  }

  it('goal 2: a pass of steps takes in, next time, what was written between its steps, resumes after a crash, and finds a position moved behind its walk', async () => {
    const inSteps = { passLegs: 1, stepAccounts: 2 };
    const accountOf = async (u: string) => (await rows<{ id: string }>(db(), sql`select id::text from ledger_accounts where user_id = ${u}`))[0]!.id;
    const walkedPast = async (id: string) => {
      const [cp] = await rows<{ next: string | null }>(db(), sql`select pass_next_account::text as next from ledger_checkpoint where id = 1`);
      return cp?.next != null && BigInt(cp.next) > BigInt(id);
    };
    /** Every checked sum against a re-sum of its postings, and the checked pools against the kept totals: the rows that differ. */
    const takenInTwice = () =>
      rows<{ account_id: string }>(
        db(),
        sql`select c.account_id::text from ledger_checked_accounts c
            left join (select account_id, sum(amount) as total from ledger_postings group by account_id) p on p.account_id = c.account_id
            where c.entries <> coalesce(p.total, 0)
            union all
            select c.pool from ledger_checked_pools c left join pool_totals k using (pool, currency) where c.entries <> coalesce(k.balance, 0)`,
      );
    const walked = await newUser();
    await deposit(walked, `test:scale:pass:walked:${walked}`, 1_000n);
    expect((await checkLedgerIncremental(db())).ok).toBe(true);
    const walkedId = await accountOf(walked);
    const [a, b] = [await newUser(), await newUser()];
    await deposit(a, `test:scale:pass:a:${a}`, 10n);
    await deposit(b, `test:scale:pass:b:${b}`, 20n);

    // Between two steps: a deposit to an account the walk has passed, one to an account it has yet to reach (or not), one to an account made after the pass began.
    const late = await newUser();
    const kinds: string[] = [];
    let written = false;
    const first = await checkLedgerIncremental(db(), {
      ...inSteps,
      onStep: async (step) => {
        kinds.push(step.kind);
        if (written || !(await walkedPast(walkedId))) return;
        written = true;
        await deposit(walked, `test:scale:pass:between:1:${walked}`, 5n);
        await deposit(b, `test:scale:pass:between:2:${b}`, 3n);
        await deposit(late, `test:scale:pass:between:3:${late}`, 7n);
      },
    });
    expect(written).toBe(true);
    expect({ ok: first.ok, transactions: first.transactions, last: kinds.at(-1) }).toEqual({ ok: true, transactions: 2, last: 'finish' });
    expect(kinds.filter((k) => k === 'slice').length).toBeGreaterThan(1);
    // Written while the pass ran, they are the next run's.
    expect(await checkLedgerIncremental(db(), inSteps)).toMatchObject({ ok: true, transactions: 3 });
    expect(await checkLedgerIncremental(db(), inSteps)).toMatchObject({ ok: true, transactions: 0 });
    expect(await takenInTwice()).toEqual([]);

    // A crash after the first step: the next run goes on from where it stopped and takes nothing in twice.
    await deposit(a, `test:scale:pass:crash:${a}`, 4n);
    await expect(
      checkLedgerIncremental(db(), {
        ...inSteps,
        onStep: () => {
          throw new Error('the replica dies');
        },
      }),
    ).rejects.toThrow('the replica dies');
    const resumed: string[] = [];
    expect(await checkLedgerIncremental(db(), { ...inSteps, onStep: (s) => void resumed.push(s.kind) })).toMatchObject({ ok: true, transactions: 1 });
    expect(resumed[0]).toBe('slice');
    expect(await takenInTwice()).toEqual([]);

    // The same while a deposit is written meanwhile, its legs enough to put the pools' proof off
    // (as a day of interest written during a pass would): that proof waits, and the currencies'
    // proof (the positions' kept totals against the reserves) still finds the moved balance.
    await deposit(a, `test:scale:pass:defer:${a}`, 2n);
    let deferred = false;
    const put = await checkLedgerIncremental(db(), {
      ...inSteps,
      meanwhileLegs: 1,
      onStep: async () => {
        if (deferred || !(await walkedPast(walkedId))) return;
        deferred = true;
        await db().execute(sql`update ledger_accounts set balance = balance - 3 where id = ${walkedId}::bigint`);
        await deposit(late, `test:scale:pass:defer:late:${late}`, 1n);
      },
    });
    const eth = put.currencies.find((c) => c.currency === 'ETH')!;
    expect({ deferred, ok: put.ok, drifted: put.drifted, balanced: eth.balanced }).toEqual({ deferred: true, ok: false, drifted: [], balanced: false });
    expect(BigInt(eth.positions) + BigInt(eth.inFlight) + BigInt(eth.referralPayable) - (BigInt(eth.reserves) - BigInt(eth.house))).toBe(3n);
    await db().execute(sql`update ledger_accounts set balance = balance + 3 where id = ${walkedId}::bigint`);
    expect((await checkLedgerIncremental(db(), inSteps)).ok).toBe(true);
    expect(await takenInTwice()).toEqual([]);

    // A position moved without a posting behind the walk (its step already passed): the pool's total names it at the end, and the check starts over.
    await deposit(b, `test:scale:pass:moved:${b}`, 6n);
    let moved = false;
    const found = await checkLedgerIncremental(db(), {
      ...inSteps,
      onStep: async () => {
        if (moved || !(await walkedPast(walkedId))) return;
        moved = true;
        await db().execute(sql`update ledger_accounts set balance = balance - 3 where id = ${walkedId}::bigint`);
      },
    });
    expect(moved).toBe(true);
    const total = found.drifted.find((d) => d.key === `pool_totals:${POOL}:ETH`);
    expect({ ok: found.ok, drifted: found.drifted.length }).toEqual({ ok: false, drifted: 1 });
    expect(BigInt(total!.balance) - BigInt(total!.entries)).toBe(-3n);
    await db().execute(sql`update ledger_accounts set balance = balance + 3 where id = ${walkedId}::bigint`);
    const [count] = await rows<{ n: number }>(db(), sql`select count(*)::int as n from ledger_transactions`);
    expect(await rows(db(), sql`select 1 from ledger_checked_accounts union all select 1 from ledger_checked_pools`)).toEqual([]);
    expect(await checkLedgerIncremental(db(), inSteps)).toMatchObject({ ok: true, transactions: count!.n });
    expect(await takenInTwice()).toEqual([]);
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('goal 2: two incremental checks at once: one moves the checkpoint, the other waits and fails to serialize or finds nothing new, and no sum is taken in twice', async () => {
    expect((await checkLedgerIncremental(db())).ok).toBe(true);
    const u = await newUser();
    await deposit(u, `test:scale:concurrent:1:${u}`, 40n);
    await deposit(u, `test:scale:concurrent:2:${u}`, 2n);
    const both = await Promise.allSettled([checkLedgerIncremental(db()), checkLedgerIncremental(db(), { manyLegs: 1 })]);
    const done = both.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failed = both.flatMap((r) => (r.status === 'rejected' ? [r.reason as { code?: string; cause?: { code?: string } }] : []));
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(done.every((c) => c.ok)).toBe(true);
    // The one that ran second either could not serialize (PostgreSQL) or ran after the first had committed (PGlite's one connection).
    for (const f of failed) expect(f.code ?? f.cause?.code).toBe('40001');
    expect(done.map((c) => c.transactions).sort()).toEqual(done.length === 2 ? [0, 2] : [2]);
    // Every account's checked sum equals its postings: nothing taken in twice.
    const twice = await rows<{ account_id: string }>(
      db(),
      sql`select c.account_id::text from ledger_checked_accounts c
          left join (select account_id, sum(amount) as total from ledger_postings group by account_id) p on p.account_id = c.account_id
          where c.entries <> coalesce(p.total, 0)`,
    );
    expect(twice).toEqual([]);
    expect(await checkLedgerIncremental(db())).toMatchObject({ ok: true, transactions: 0 });
  });

  it('goal 2: the incremental check reads only what was written since its last run', async () => {
    expect((await checkLedgerIncremental(db())).ok).toBe(true);
    const quiet = await checkLedgerIncremental(db());
    expect(quiet).toMatchObject({ ok: true, mode: 'incremental', transactions: 0 });
    const u = await newUser();
    await deposit(u, `test:scale:since:1:${u}`, 10n);
    await deposit(u, `test:scale:since:2:${u}`, 20n);
    expect(await checkLedgerIncremental(db())).toMatchObject({ ok: true, transactions: 2 });
    expect(await checkLedgerIncremental(db())).toMatchObject({ ok: true, transactions: 0 });
  });
});

describe('issue 23: job leases', () => {
  it('goal 2: an exclusive job\'s lease is renewed while it works, so a second replica never starts it meanwhile', async () => {
    const log = { warn: () => undefined } as never;
    const a = createJobRunner(db(), log);
    const b = createJobRunner(db(), log);
    let bRan = 0;
    const name = `test-lease-${randomUUID()}`;
    // A one-second lease, and work that lasts three times as long.
    a.define({ name, exclusive: true, intervalMs: 0, leaseSeconds: 1, run: () => new Promise((r) => setTimeout(r, 3_000)) });
    b.define({ name, exclusive: true, intervalMs: 0, leaseSeconds: 1, run: async () => void bRan++ });
    const working = a.runNow(name);
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 500));
      expect(await b.runNow(name)).toEqual({ skipped: 'another replica holds the lease' });
    }
    await working;
    expect(bRan).toBe(0);
    await b.runNow(name);
    expect(bRan).toBe(1);
  });
});

describe('issue 23: activity by keyset', () => {
  it('goal 1: activity pages follow a cursor (keyset) through the whole list, the same items as by page number, newest first', async () => {
    const u = await newUser();
    const first = '2040-03-01';
    await deposit(u, `test:scale:activity:${u}`, 10n ** 18n, new Date(`${first}T00:00:00Z`));
    const days = Array.from({ length: 7 }, (_, i) => addDays(first, i));
    for (const day of days) await accrueDay(db(), POOL, day, '0.05', 1);
    // The interest of each day, shown on the day it is for, newest first: the test's own list.
    const expected = [...days].reverse().map((d) => `interest ${d}`);
    const required = { deposit: 1, withdrawal: 1 };
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 1; ; page++) {
      const byCursor = await activityPage(db(), u, { page, size: 3, after }, required);
      const byNumber = await activityPage(db(), u, { page, size: 3 }, required);
      expect(byCursor.items).toEqual(byNumber.items);
      expect(byCursor.total).toBe(7);
      seen.push(...byCursor.items.map((i) => `${i.kind} ${i.at.slice(0, 10)}`));
      if (!byCursor.next) break;
      after = byCursor.next;
    }
    expect(seen).toEqual(expected);
  });
});
