import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import * as schema from '../src/db/schema';
import { deposits, users } from '../src/db/schema';
import type { Db } from '../src/db/client';
import { depositTransaction } from '../src/deposits/credit';
import { accrueDay } from '../src/interest';
import { post } from '../src/ledger';
import { setPrices } from '../src/pricing/prices';
import { setConfig } from '../src/referral/config';
import { rewardDay, vestRewards } from '../src/referral/rewards';
import { startTestApp, type TestApp } from './helpers';
import { addDays } from './money-helpers';

/**
 * Issue 23: the day's jobs read the postings from what is new, whatever the planner's statistics.
 * A sampled n_distinct of a long ledger can read the account column as nearly unique; a join
 * from the accounts then reads each position's whole history by the account index. The plans of
 * every statement of a day's accrual, rewards and vesting are taken (auto_explain, sent to the
 * test as notices) on a ledger whose statistics say exactly that, with sequential scans off so
 * the planner chooses between the indexes as it does at scale. PostgreSQL only: PGlite has no
 * auto_explain.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const POOL = 'stable';
const USDT = 1_000_000n;
const START = '2025-03-01';
const HISTORY_DAYS = 20;

let t: TestApp;
const db = () => t.app.services.db;
let serial = 0;

async function person(referrer?: string) {
  const id = randomUUID();
  await db().insert(users).values({ id, email: `${id}@example.com`, emailConfirmedAt: new Date(), role: 'user', walletAddress: `0x${(++serial).toString(16).padStart(40, 'b')}`, referralCode: id.slice(0, 12), referrerId: referrer ?? null });
  return id;
}

async function fund(userId: string, amount: bigint, at: Date) {
  const txHash = `0x${(++serial).toString(16).padStart(64, 'f')}`;
  const toAddress = '0x8c3229ec621644789d7f61faa82c6d0e5f97d43d';
  const [d] = await db()
    .insert(deposits)
    .values({ userId, pool: POOL, currency: 'USDT', amount: amount.toString(), txHash, fromAddress: toAddress, toAddress, status: 'credited', creditedAt: at })
    .returning();
  await post(db(), depositTransaction({ id: d!.id, user_id: userId, pool: POOL, currency: 'USDT', amount: amount.toString(), chain_id: 1, tx_hash: txHash, log_index: 0, to_address: toAddress }, at));
}

/** A pool of two sessions whose every statement's plan reaches `plans` (the test's user is the cluster's superuser). */
function explained(url: string, plans: string[]): { db: Db; close: () => Promise<void> } {
  const settings = ['session_preload_libraries=auto_explain', 'auto_explain.log_min_duration=0', 'auto_explain.log_level=notice', 'enable_seqscan=off'];
  const pool = new Pool({ connectionString: url, max: 2, options: settings.map((s) => `-c ${s}`).join(' ') });
  pool.on('connect', (client) =>
    client.on('notice', (n) => {
      if (n.message?.includes('plan:')) plans.push(n.message);
    }),
  );
  return { db: drizzle({ client: pool, schema }) as unknown as Db, close: () => pool.end() };
}

/** Each read of ledger_postings by the account index in a plan, with its index condition. */
function accountIndexReads(plan: string): string[] {
  const lines = plan.split('\n');
  const reads: string[] = [];
  lines.forEach((line, i) => {
    if (!/ledger_postings_account_idx/.test(line)) return;
    const rest = lines.slice(i + 1);
    const end = rest.findIndex((l) => l.includes('->'));
    const cond = (end < 0 ? rest : rest.slice(0, end)).find((l) => l.includes('Index Cond:')) ?? '';
    reads.push(`${line.trim()} ${cond.trim()}`);
  });
  return reads;
}

(onPostgres ? describe : describe.skip)('issue 23: the day’s jobs read what is new, whatever the statistics', () => {
  beforeAll(async () => {
    t = await startTestApp({ DEPOSIT_JOB_INTERVAL_MS: '0' });
    await setPrices(db(), t.app.services.config.priceSource, { USDT: '1' });
    await setConfig(db(), 'test', { levels: [1000, 300], ranks: [{ title: 'Starter', capitalUsd: '0', bonusBps: 0 }], currency: 'USDT', vestingDays: 2, effectiveFrom: START }, START);
  });
  afterAll(() => t?.close());

  it('goal 2: no statement of a day’s accrual, rewards or vesting reads an account’s postings without the written week bound', async () => {
    const referrer = await person();
    const referees = [];
    for (let i = 0; i < 8; i++) referees.push(await person(referrer));
    for (const [i, r] of referees.entries()) await fund(r, BigInt(100 + i) * USDT, new Date(`${START}T00:00:00Z`));
    // A history of days: every position holds a leg a day.
    for (let i = 0; i < HISTORY_DAYS; i++) {
      expect((await accrueDay(db(), POOL, addDays(START, i), '0.1')).created).toBe(true);
      expect((await rewardDay(db(), t.app.services.prices, POOL, addDays(START, i))).created).toBe(true);
    }
    const day = addDays(START, HISTORY_DAYS);
    // The day has a movement inside it and one after its close, so every read of what moved has rows.
    await fund(referees[0]!, 5n * USDT, new Date(`${day}T12:00:00Z`));
    await fund(referees[1]!, 7n * USDT, new Date(`${addDays(day, 1)}T06:00:00Z`));
    // The statistics a long ledger's sample gives: one leg per account.
    await db().execute(sql`alter table ledger_postings alter column account_id set (n_distinct = 100000000)`);
    await db().execute(sql`analyze ledger_postings`);

    const plans: string[] = [];
    const jobs = explained(t.db.url!, plans);
    try {
      expect((await accrueDay(jobs.db, POOL, day, '0.1')).created).toBe(true);
      expect((await rewardDay(jobs.db, t.app.services.prices, POOL, day)).created).toBe(true);
      await vestRewards(jobs.db, addDays(day, 3));
    } finally {
      await jobs.close();
    }
    const reads = plans.flatMap(accountIndexReads);
    // The plans were taken, and the jobs did read the postings (by the transaction index).
    expect(plans.some((p) => p.includes('ledger_postings_transaction_idx'))).toBe(true);
    expect(reads.filter((r) => !r.includes('written_week'))).toEqual([]);
  });
});
