import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { users } from '../src/db/schema';
import { rows } from '../src/db/rows';
import { InsufficientBalance, LedgerReferenceConflict, UnbalancedTransaction, checkLedger, post, positionsOf } from '../src/ledger';
import { runOperator } from '../src/operator/cli';
import { STRONG_PASSWORD, call, register, startTestApp, type TestApp } from './helpers';
import { operatorHeaders, testOperator } from './money-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0' });
});
afterAll(() => t?.close());

const db = () => t.app.services.db;
async function newUser() {
  const id = randomUUID();
  await db().insert(users).values({ id, email: `${id}@example.com`, referralCode: id.slice(0, 12) });
  return id;
}
const reserves = { kind: 'reserves' as const, chainId: 1, address: '0x00000000000000000000000000000000000000aa', pool: 'coin', currency: 'ETH' };
const deposit = (userId: string, reference: string, amount: bigint) =>
  post(db(), {
    reference,
    kind: 'deposit',
    postings: [
      { account: reserves, amount },
      { account: { kind: 'position', userId, pool: 'coin', currency: 'ETH' }, amount: -amount },
    ],
  });

describe('the ledger', () => {
  it('posts a balanced transaction once per reference, and balances follow', async () => {
    const u = await newUser();
    expect(await deposit(u, `test:${u}:1`, 700n)).toEqual(expect.any(Number));
    expect(await deposit(u, `test:${u}:1`, 700n)).toBeNull();
    expect(await positionsOf(db(), u)).toEqual([{ pool: 'coin', currency: 'ETH', balance: 700n }]);
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('a reused ledger reference with different postings is an error; identical contents are a retry', async () => {
    const u = await newUser();
    const other = await newUser();
    const reference = `test:${u}:reused`;
    const position = (userId: string) => ({ kind: 'position' as const, userId, pool: 'coin', currency: 'ETH' });
    expect(await deposit(u, reference, 500n)).toEqual(expect.any(Number));

    // The same kind, accounts and amounts: a retry, whatever its time, detail or order of legs.
    expect(
      await post(db(), {
        reference,
        kind: 'deposit',
        at: new Date('2020-01-01T00:00:00Z'),
        detail: { retried: true },
        postings: [
          { account: position(u), amount: -500n },
          { account: reserves, amount: 500n },
        ],
      }),
    ).toBeNull();

    const conflicts = [
      { kind: 'deposit' as const, postings: [{ account: reserves, amount: 501n }, { account: position(u), amount: -501n }] },
      { kind: 'deposit' as const, postings: [{ account: reserves, amount: 500n }, { account: position(other), amount: -500n }] },
      { kind: 'referral_claim' as const, postings: [{ account: reserves, amount: 500n }, { account: position(u), amount: -500n }] },
      {
        kind: 'deposit' as const,
        postings: [
          { account: reserves, amount: 500n },
          { account: position(u), amount: -400n },
          { account: { kind: 'house' as const, currency: 'ETH' }, amount: -100n },
        ],
      },
    ];
    for (const c of conflicts) {
      await expect(post(db(), { reference, ...c })).rejects.toMatchObject({ constructor: LedgerReferenceConflict, code: 'LEDGER_REFERENCE_CONFLICT' });
    }

    // Nothing of the refused posts was written: one transaction, the first post's two legs.
    expect(await positionsOf(db(), u)).toEqual([{ pool: 'coin', currency: 'ETH', balance: 500n }]);
    expect(await positionsOf(db(), other)).toEqual([]);
    expect(
      await rows(db(), sql`select p.amount::text as amount from ledger_postings p join ledger_transactions t on t.id = p.transaction_id where t.reference = ${reference} order by p.amount`),
    ).toEqual([{ amount: '-500' }, { amount: '500' }]);
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('refuses an unbalanced transaction or a zero leg before writing anything', async () => {
    const u = await newUser();
    await expect(
      post(db(), { reference: `bad:${u}`, kind: 'deposit', postings: [{ account: reserves, amount: 5n }, { account: { kind: 'position', userId: u, pool: 'coin', currency: 'ETH' }, amount: -4n }] }),
    ).rejects.toBeInstanceOf(UnbalancedTransaction);
    await expect(post(db(), { reference: `zero:${u}`, kind: 'deposit', postings: [{ account: reserves, amount: 0n }, { account: reserves, amount: 0n }] })).rejects.toBeInstanceOf(UnbalancedTransaction);
    expect(await rows(db(), sql`select 1 from ledger_transactions where reference in (${`bad:${u}`}, ${`zero:${u}`})`)).toEqual([]);
  });

  it('never overdraws a position: the whole transaction is undone', async () => {
    const u = await newUser();
    await deposit(u, `test:${u}:in`, 100n);
    const out = (ref: string, amount: bigint) =>
      post(db(), {
        reference: ref,
        kind: 'withdrawal_reserve',
        postings: [
          { account: { kind: 'position', userId: u, pool: 'coin', currency: 'ETH' }, amount },
          { account: { kind: 'withdrawals_in_flight', currency: 'ETH' }, amount: -amount },
        ],
      });
    await expect(out(`test:${u}:out1`, 101n)).rejects.toBeInstanceOf(InsufficientBalance);
    expect(await rows(db(), sql`select 1 from ledger_transactions where reference = ${`test:${u}:out1`}`)).toEqual([]);
    await out(`test:${u}:out2`, 100n);
    expect(await positionsOf(db(), u)).toEqual([{ pool: 'coin', currency: 'ETH', balance: 0n }]);
  });

  it('keeps written rows immutable', async () => {
    await expect(db().execute(sql`update ledger_postings set amount = amount + 1`)).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringMatching(/immutable/) }) });
    await expect(db().execute(sql`delete from ledger_transactions`)).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringMatching(/immutable/) }) });
    await expect(db().execute(sql`truncate ledger_postings`)).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringMatching(/immutable/) }) });
  });

  it('never changes an account\'s identity (key, kind, currency, owner, pool): only its balance moves', async () => {
    const refused = { cause: expect.objectContaining({ message: expect.stringMatching(/identity never changes: only its balance may/) }) };
    const u = await newUser();
    const other = await newUser();
    await deposit(u, `test:${u}:identity`, 7n);
    const [acct] = await rows<{ id: string }>(db(), sql`select id::text from ledger_accounts where user_id = ${u} and kind = 'position'`);
    const where = sql`where id = ${acct!.id}::bigint`;
    for (const set of [sql`key = key || ':x'`, sql`kind = 'house'`, sql`currency = 'USDT'`, sql`user_id = ${other}`, sql`user_id = null`, sql`pool = 'dex'`, sql`address = '0x01'`]) {
      await expect(db().execute(sql`update ledger_accounts set ${set} ${where}`)).rejects.toMatchObject(refused);
    }
    const [after] = await rows<{ key: string; kind: string; currency: string; user_id: string; pool: string; balance: string }>(db(), sql`select key, kind, currency, user_id, pool, balance::text from ledger_accounts ${where}`);
    expect(after).toEqual({ key: expect.stringContaining(u), kind: 'position', currency: 'ETH', user_id: u, pool: 'coin', balance: '-7' });
    // The balance still moves, by postings.
    await deposit(u, `test:${u}:identity2`, 5n);
    expect(await positionsOf(db(), u)).toEqual([{ pool: 'coin', currency: 'ETH', balance: 12n }]);
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('checks references once per statement: no posting without its account and transaction, one leg per account and transaction, no account or account holder removed', async () => {
    const refused = (message: RegExp) => ({ cause: expect.objectContaining({ message: expect.stringMatching(message) }) });
    const u = await newUser();
    await deposit(u, `test:${u}:refs`, 10n);
    const [leg] = await rows<{ transaction_id: string; account_id: string }>(db(), sql`select transaction_id::text, account_id::text from ledger_postings where transaction_id = (select id from ledger_transactions where reference = ${`test:${u}:refs`}) limit 1`);
    const insert = (transactionId: string, accountId: string) =>
      db().execute(sql`insert into ledger_postings (transaction_id, account_id, amount) values (${transactionId}::bigint, ${accountId}::bigint, 0)`);
    await expect(insert(leg!.transaction_id, '999999999')).rejects.toMatchObject(refused(/missing account or transaction/));
    await expect(insert('999999999', leg!.account_id)).rejects.toMatchObject(refused(/missing account or transaction/));
    await expect(db().execute(sql`delete from ledger_accounts where id = ${leg!.account_id}::bigint`)).rejects.toMatchObject(refused(/never deleted/));
    await expect(db().execute(sql`update ledger_accounts set id = id + 1000000 where id = ${leg!.account_id}::bigint`)).rejects.toMatchObject(refused(/never deleted nor renumbered/));
    // A transaction posts to an account once (the per-position leg of a day's interest), and takes no leg after it is written.
    await expect(insert(leg!.transaction_id, leg!.account_id)).rejects.toMatchObject(refused(/posts to an account once, with the transaction itself/));
    const other = await newUser();
    await deposit(other, `test:${other}:refs`, 10n);
    const [otherLeg] = await rows<{ account_id: string }>(db(), sql`select account_id::text from ledger_postings where transaction_id = (select id from ledger_transactions where reference = ${`test:${other}:refs`}) and amount < 0`);
    await expect(insert(leg!.transaction_id, otherLeg!.account_id)).rejects.toMatchObject(refused(/posts to an account once, with the transaction itself/));
    await expect(
      db().transaction(async (tx) => {
        const [t] = await rows<{ id: string }>(tx, sql`insert into ledger_transactions (reference, kind) values (${`test:${u}:twice`}, 'deposit') returning id::text`);
        await tx.execute(sql`insert into ledger_postings (transaction_id, account_id, amount) values (${t!.id}::bigint, ${leg!.account_id}::bigint, 1), (${t!.id}::bigint, ${leg!.account_id}::bigint, -1)`);
      }),
    ).rejects.toMatchObject(refused(/posts to an account once, with the transaction itself/));
    await expect(db().delete(users).where(eq(users.id, u))).rejects.toMatchObject(refused(/with ledger accounts or referral rewards cannot be deleted/));
    expect((await checkLedger(db())).ok).toBe(true);
  });

  it('checks a referral reward\'s users and withdrawal once per statement, on insert and update; a named user stays', async () => {
    const refused = (message: RegExp) => ({ cause: expect.objectContaining({ message: expect.stringMatching(message) }) });
    const [referrer, referee] = [await newUser(), await newUser()];
    // A referrer's day (0035) names the referrer and the claim; the member's share names the member.
    const reward = (userId: string, fromUserId: string, withdrawalId: string | null) =>
      db().transaction(async (tx) => {
        await tx.execute(sql`insert into referral_day_rewards (user_id, day, currency, status, amount, withdrawal_id)
          values (${userId}::uuid, '2026-01-01', 'USDT', 'earned', 5, ${withdrawalId}::bigint)`);
        await tx.execute(sql`insert into referral_member_rewards (member_id, month, currency, amounts)
          values (${fromUserId}::uuid, '2026-01-01', 'USDT', '{5}')`);
      });
    await expect(reward(randomUUID(), referee, null)).rejects.toMatchObject(refused(/missing user or withdrawal/));
    await expect(reward(referrer, randomUUID(), null)).rejects.toMatchObject(refused(/missing user or withdrawal/));
    await expect(reward(referrer, referee, '999999999')).rejects.toMatchObject(refused(/missing user or withdrawal/));
    await reward(referrer, referee, null);
    await expect(db().execute(sql`update referral_day_rewards set withdrawal_id = 999999999 where user_id = ${referrer}::uuid`)).rejects.toMatchObject(
      refused(/missing user or withdrawal/),
    );
    await expect(db().delete(users).where(eq(users.id, referee))).rejects.toMatchObject(refused(/referral rewards cannot be deleted/));
  });

  it('`operator ledger check` proves the three rules, over the API as a named operator', async () => {
    const lines: string[] = [];
    const op = await testOperator(t.app);
    const send = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const r = await call(t.app, method, url, { headers: operatorHeaders(op, method), ...(body ? { body } : {}) });
      return { status: r.status, body: r.body };
    };
    expect(await runOperator(['ledger', 'check'], send, (l) => lines.push(l))).toBe(0);
    expect(lines.join('\n')).toMatch(/ETH .*true/);
    expect(lines.at(-1)).toBe('ledger check: OK');
    // Without a key, or with a wrong one, nothing.
    expect((await call(t.app, 'GET', '/api/v1/operator/ledger/check')).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/operator/ledger/check', { headers: { 'x-operator-key': `${op.name}.${'x'.repeat(43)}` } })).status).toBe(401);
    // A signed-in user's session opens nothing here, even with the operator role: only a named operator's.
    const u = await register(t.app);
    expect((await call(t.app, 'GET', '/api/v1/operator/ledger/check', { token: u.token })).status).toBe(401);
    await db().update(users).set({ role: 'operator' }).where(eq(users.id, (u.user as { id: string }).id));
    const asUser = await call(t.app, 'POST', '/api/v1/login', { body: { login: u.email, password: STRONG_PASSWORD } });
    expect((await call(t.app, 'GET', '/api/v1/operator/ledger/check', { token: asUser.body.token as string })).status).toBe(401);
  });
});
