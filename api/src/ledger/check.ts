import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/rows';

export type CurrencyTotals = {
  currency: string;
  positions: string;
  inFlight: string;
  referralPayable: string;
  reserves: string;
  house: string;
  /** positions + in flight + referral rewards payable = reserves − house */
  balanced: boolean;
};

export type LedgerCheck = {
  ok: boolean;
  /** full: every row read; incremental: what was written since the last incremental check. */
  mode: 'full' | 'incremental';
  /** Transactions read. */
  transactions: number;
  /** Transactions whose postings do not sum to zero in some currency. */
  unbalanced: { transactionId: number; currency: string; sum: string }[];
  /** Positions (and other liabilities) below zero. */
  negative: { key: string; balance: string }[];
  /**
   * Accounts whose maintained balance or all-time figures differ from their postings, and pools
   * whose kept total (`pool_totals:<pool>:<currency>`) differs from their positions' postings.
   */
  drifted: { key: string; balance: string; entries: string }[];
  currencies: CurrencyTotals[];
};

/** Rows each statement of the full check reads at most (accounts, or transactions), so its memory stays flat. */
export const FULL_CHECK_BATCH = 5000;
const LIMIT = 100;
/** New legs from which the incremental check hashes them all rather than probe each account's keys (a test lowers it to take that way with a few). */
const MANY_LEGS = 5000;

const LIABILITIES = sql`('position', 'withdrawals_in_flight', 'referral_rewards_payable')`;

/** The per-kind sums per currency, the positions' from the pools' kept totals: the third proof. */
async function currencyTotals(db: Pick<Db, 'execute'>, positions: SQL): Promise<CurrencyTotals[]> {
  const totals = await rows<{ currency: string; kind: string; total: string }>(
    db,
    sql`select currency, kind, sum(balance)::text as total from ledger_accounts where kind <> 'position' group by currency, kind
        union all
        select currency, 'position', sum(balance)::text from (${positions}) p group by currency
        order by 1`,
  );
  const byCurrency = new Map<string, Record<string, bigint>>();
  for (const t of totals) {
    const m = byCurrency.get(t.currency) ?? {};
    m[t.kind] = BigInt(t.total);
    byCurrency.set(t.currency, m);
  }
  return [...byCurrency].map(([currency, m]) => {
    const positions = -(m.position ?? 0n);
    const inFlight = -(m.withdrawals_in_flight ?? 0n);
    const referralPayable = -(m.referral_rewards_payable ?? 0n);
    const reserves = m.reserves ?? 0n;
    const house = -(m.house ?? 0n);
    return {
      currency,
      positions: String(positions),
      inFlight: String(inFlight),
      referralPayable: String(referralPayable),
      reserves: String(reserves),
      house: String(house),
      balanced: positions + inFlight + referralPayable === reserves - house,
    };
  });
}

/** What a position's postings add to its kept figures, per account (`p` postings, `t` their transactions). */
const FIGURES = sql`coalesce(sum(-p.amount) filter (where t.kind = 'deposit'), 0) as deposited,
  coalesce(sum(p.amount) filter (where t.kind in ('withdrawal_reserve', 'withdrawal_return')), 0) as withdrawn,
  coalesce(sum(-p.amount) filter (where t.kind = 'interest'), 0) as interest`;

const finish = (c: Omit<LedgerCheck, 'ok'>): LedgerCheck => ({
  ok: !c.unbalanced.length && !c.negative.length && !c.drifted.length && c.currencies.every((x) => x.balanced),
  ...c,
});

/**
 * The full proofs of `operator ledger check --full`: every transaction sums to zero per currency,
 * no liability is negative, every account's balance and kept figures equal its postings, every
 * pool's kept total equals its positions, the referral figures kept per referrer equal a re-sum,
 * and per currency the positions plus what is in flight
 * (and referral rewards payable) equal the reserves minus the house. Read in batches of
 * transactions and of accounts by their keys, so the memory stays flat whatever the history.
 */
export async function checkLedger(db: Pick<Db, 'execute'>, batch = FULL_CHECK_BATCH): Promise<LedgerCheck> {
  const [range] = await rows<{ min: string | null; max: string | null; n: string }>(
    db,
    sql`select min(id)::text as min, max(id)::text as max, count(*)::text as n from ledger_transactions`,
  );
  const unbalanced: LedgerCheck['unbalanced'] = [];
  if (range?.min) {
    for (let from = BigInt(range.min); from <= BigInt(range.max!) && unbalanced.length < LIMIT; from += BigInt(batch)) {
      const found = await rows<{ transaction_id: string; currency: string; sum: string }>(
        db,
        sql`select p.transaction_id::text, a.currency, sum(p.amount)::text as sum from ledger_postings p join ledger_accounts a on a.id = p.account_id
            where p.transaction_id >= ${from.toString()}::bigint and p.transaction_id < ${(from + BigInt(batch)).toString()}::bigint
            group by p.transaction_id, a.currency having sum(p.amount) <> 0`,
      );
      unbalanced.push(...found.map((u) => ({ transactionId: Number(u.transaction_id), currency: u.currency, sum: u.sum })));
    }
  }
  const negative = await rows<{ key: string; balance: string }>(
    db,
    sql`select key, (-balance)::text as balance from ledger_accounts where kind in ${LIABILITIES} and balance > 0 limit ${LIMIT}`,
  );
  const drifted: LedgerCheck['drifted'] = [];
  const [accounts] = await rows<{ max: string | null }>(db, sql`select max(id)::text as max from ledger_accounts`);
  for (let from = 0n; accounts?.max && from <= BigInt(accounts.max) && drifted.length < LIMIT; from += BigInt(batch)) {
    const to = from + BigInt(batch);
    const found = await rows<{ key: string; balance: string; entries: string }>(
      db,
      sql`select a.key, a.balance::text as balance, coalesce(e.total, 0)::text as entries
          from ledger_accounts a
          left join (
            select p.account_id, sum(p.amount) as total, ${FIGURES}
            from ledger_postings p join ledger_transactions t on t.id = p.transaction_id
            where p.account_id >= ${from.toString()}::bigint and p.account_id < ${to.toString()}::bigint
            group by p.account_id
          ) e on e.account_id = a.id
          where a.id >= ${from.toString()}::bigint and a.id < ${to.toString()}::bigint
            and (a.balance <> coalesce(e.total, 0)
              or (a.kind = 'position' and (a.deposited, a.withdrawn, a.interest) <> (coalesce(e.deposited, 0), coalesce(e.withdrawn, 0), coalesce(e.interest, 0))))`,
    );
    drifted.push(...found);
  }
  const pools = await rows<{ key: string; balance: string; entries: string }>(
    db,
    sql`select 'pool_totals:' || coalesce(k.pool, s.pool) || ':' || coalesce(k.currency, s.currency) as key, coalesce(k.balance, 0)::text as balance, coalesce(s.total, 0)::text as entries
        from pool_totals k
        full join (select pool, currency, sum(balance) as total from ledger_accounts where kind = 'position' group by pool, currency) s using (pool, currency)
        where coalesce(k.balance, 0) <> coalesce(s.total, 0)`,
  );
  drifted.push(...pools);
  drifted.push(...(await referralDrift(db)));
  const currencies = await currencyTotals(db, sql`select currency, balance from ledger_accounts where kind = 'position'`);
  return finish({ mode: 'full', transactions: Number(range?.n ?? 0), unbalanced, negative, drifted: drifted.slice(0, LIMIT), currencies });
}

/** The referral figures kept per referrer (0022) against a re-sum of the tree, the positions and the rewards; each referrer's members' shares (0035) against their day rows and the sums of parts not yet in them (0046); the referees who share an address with an ancestor (0048) against every address. */
async function referralDrift(db: Pick<Db, 'execute'>) {
  return rows<{ key: string; balance: string; entries: string }>(
    db,
    sql`(select 'referral_members:' || coalesce(k.ancestor_id, s.ancestor_id) || ':' || coalesce(k.level, s.level) as key, coalesce(k.members, 0)::text as balance, coalesce(s.n, 0)::text as entries
         from referral_members k full join (select ancestor_id, level, count(*) as n from referral_tree group by ancestor_id, level) s using (ancestor_id, level)
         where coalesce(k.members, 0) <> coalesce(s.n, 0) limit ${LIMIT})
        union all
        (select 'referral_capital:' || coalesce(k.ancestor_id, s.ancestor_id) || ':' || coalesce(k.level, s.level) || ':' || coalesce(k.currency, s.currency), coalesce(k.balance, 0)::text, coalesce(s.total, 0)::text
         from referral_capital k full join (
           select t.ancestor_id, t.level, a.currency, sum(a.balance) as total from referral_tree t join ledger_accounts a on a.user_id = t.user_id and a.kind = 'position'
           group by t.ancestor_id, t.level, a.currency) s using (ancestor_id, level, currency)
         where coalesce(k.balance, 0) <> coalesce(s.total, 0) limit ${LIMIT})
        union all
        (select 'referral_reward_totals:' || coalesce(k.user_id, s.user_id) || ':' || coalesce(k.currency, s.currency) || ':' || coalesce(k.status, s.status), coalesce(k.amount, 0)::text, coalesce(s.total, 0)::text
         from referral_reward_totals k full join (
           select user_id, currency, status, sum(amount) as total from (
             select user_id, currency, status, amount from referral_day_rewards where status <> 'forfeited'
             union all select user_id, currency, 'forfeited', forfeited from referral_day_rewards where forfeited <> 0
           ) r group by user_id, currency, status) s using (user_id, currency, status)
         where coalesce(k.amount, 0) <> coalesce(s.total, 0) limit ${LIMIT})
        union all
        (select 'referral_member_rewards:' || coalesce(k.user_id, s.user_id) || ':' || coalesce(k.currency, s.currency), coalesce(k.total, 0)::text, coalesce(s.total, 0)::text
         from (select t.ancestor_id as user_id, m.currency, sum(l.amount) as total
               from referral_member_rewards m cross join unnest(m.amounts) with ordinality l(amount, level)
               join referral_tree t on t.user_id = m.member_id and t.level = l.level
               group by t.ancestor_id, m.currency) k
         full join (select user_id, currency, sum(amount) as total from (
             select user_id, currency, amount from referral_day_rewards
             -- A pool day's parts done and the day not yet marked: the members' shares are written, the referrers' day rows not yet.
             union all select user_id, currency, amount from referral_part_sums
           ) r group by user_id, currency) s using (user_id, currency)
         where coalesce(k.total, 0) <> coalesce(s.total, 0) limit ${LIMIT})
        union all
        -- The referees kept as sharing an address with an ancestor (0048), against every address found again: 1 kept, 0 not.
        (select 'referral_sharing_referees:' || coalesce(k.user_id, s.user_id), (k.user_id is not null)::int::text, (s.user_id is not null)::int::text
         from referral_sharing_referees k
         full join (
           with addresses as materialized (
             select id as user_id, lower(wallet_address) as address from users where wallet_address is not null
             union select user_id, lower(from_address) from deposits where from_address is not null
             union select user_id, lower(to_address) from withdrawals where to_address is not null
           )
           select distinct t.user_id from referral_tree t
           join addresses ra on ra.user_id = t.user_id
           join addresses aa on aa.user_id = t.ancestor_id and aa.address = ra.address) s using (user_id)
         where k.user_id is null or s.user_id is null limit ${LIMIT})`,
  );
}

/** New legs from which the incremental check goes in a pass of steps rather than one statement. */
export const PASS_LEGS = 25_000;
/** Accounts each step of a pass walks. */
export const STEP_ACCOUNTS = 20_000;

export type IncrementalCheckOptions = {
  /** New legs from which one statement hashes them all rather than probe each account's keys (a test lowers it). */
  manyLegs?: number;
  /** New legs from which the check goes in a pass of steps (a test lowers it to walk a few accounts at a time). */
  passLegs?: number;
  /** Accounts each step of a pass walks. */
  stepAccounts?: number;
  /** Legs written while a pass ran from which its last step leaves the pools' proof to the next pass. */
  meanwhileLegs?: number;
  /** Told after each of the check's database transactions, with its wall time. */
  onStep?: (step: { kind: StepKind; ms: number }) => void | Promise<void>;
};
type StepKind = 'whole' | 'slice' | 'finish';
type Checkpoint = {
  horizon: string | null;
  pass_horizon: string | null;
  pass_from: string | null;
  pass_next_account: string | null;
  pass_last_account: string | null;
  pass_transactions: number | null;
};
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What the new legs add per account: all of them, and the part written below the horizon being taken in (`settled`). */
const kinds = (where: SQL) => sql`coalesce(sum(-amount) filter (where kind = 'deposit' and ${where}), 0),
      coalesce(sum(amount) filter (where kind in ('withdrawal_reserve', 'withdrawal_return') and ${where}), 0),
      coalesce(sum(-amount) filter (where kind = 'interest' and ${where}), 0)`;
const sumsOf = (unsettled: boolean) =>
  unsettled
    ? sql`sum(amount) as total, coalesce(sum(amount) filter (where settled), 0) as settled, ${kinds(sql`true`)}, ${kinds(sql`settled`)}`
    : sql`sum(amount) as total, sum(amount) as settled, ${kinds(sql`true`)}, ${kinds(sql`true`)}`;
const SUM_COLUMNS = sql`(account_id, total, settled, n_deposited, n_withdrawn, n_interest, s_deposited, s_withdrawn, s_interest)`;

/** An account's balance or kept figures out of step with what it should be (`x` has `expected` and `e_*`), or a liability below zero. */
const DRIFTED = sql`(balance <> expected or (kind = 'position' and (deposited, withdrawn, interest) <> (e_deposited, e_withdrawn, e_interest)))`;
const NEGATIVE = sql`(kind in ${LIABILITIES} and balance > 0)`;

type Found = { what: 'unbalanced' | 'account' | 'pool'; key: string; currency: string | null; balance: string; entries: string; drifted: boolean | null; negative: boolean | null };
const unbalancedOf = (found: Found[]) => found.filter((f) => f.what === 'unbalanced').map((u) => ({ transactionId: Number(u.key), currency: u.currency!, sum: u.balance }));
const driftedOf = (found: Found[]) => found.filter((f) => f.what === 'account' && f.drifted).map(({ key, balance, entries }) => ({ key, balance, entries }));
const negativeOf = (found: Found[]) => found.filter((f) => f.what === 'account' && f.negative).map(({ key, balance }) => ({ key, balance: String(-BigInt(balance)) }));
const poolsOf = (found: Found[]) => found.filter((f) => f.what === 'pool').map(({ key, balance, entries }) => ({ key, balance, entries }));

/**
 * The periodic check: the same proofs over what was written since the last incremental check.
 * Each ledger transaction carries the database transaction that wrote it (`written_by`); the check
 * reads the transactions written at or above its horizon (all of them the first time), and holds
 * each account they touched to its checked sums plus their postings, every book account (a few
 * per currency) likewise, and each pool's kept total to its checked sum plus the new postings on
 * its positions (which a balance moved without a posting, on any position old or new, puts out of
 * step). When all holds, the sums take in what every writer below a snapshot's horizon wrote
 * (anything above it is read again next time) and the horizon moves up. It runs under the job's
 * lease (one replica); a second run at the same moment waits on the checkpoint's row and then
 * fails to serialize, leaving the checkpoint to the first.
 *
 * A few new legs (every few minutes) are checked in one statement, in one database transaction.
 * A large batch (a day of interest writes a leg per position) is checked in a pass of steps, each
 * its own short transaction, so that no step grows with the batch: see `passStep`.
 */
export async function checkLedgerIncremental(db: Pick<Db, 'transaction'>, opts: IncrementalCheckOptions = {}): Promise<LedgerCheck> {
  for (;;) {
    const t0 = performance.now();
    const step = await db.transaction((tx) => checkStep(tx, opts));
    await opts.onStep?.({ kind: step.kind, ms: performance.now() - t0 });
    if (step.result) return step.result;
  }
}

async function checkStep(tx: Tx, opts: IncrementalCheckOptions): Promise<{ kind: StepKind; result?: LedgerCheck }> {
  await tx.execute(sql`set transaction isolation level repeatable read`);
  // A step's accounts are aggregated and joined in memory, not in temporary files (as the accrual does).
  await tx.execute(sql`set local work_mem = '256MB'`);
  // Its statements are costed high enough to be compiled each run, which costs more than it saves.
  await tx.execute(sql`set local jit = off`);
  const [cp] = await rows<Checkpoint>(
    tx,
    sql`select horizon::text as horizon, pass_horizon::text as pass_horizon, pass_from::text as pass_from, pass_next_account::text as pass_next_account,
          pass_last_account::text as pass_last_account, pass_transactions
        from ledger_checkpoint where id = 1 for update`,
  );
  const since = cp?.horizon ? sql`t.written_by >= ${cp.horizon}::xid8` : sql`true`;
  if (cp?.pass_horizon) return passStep(tx, cp, since, opts);

  const [snap] = await rows<{ horizon: string }>(tx, sql`select pg_snapshot_xmin(pg_current_snapshot())::text as horizon`);
  // Written below the new horizon: every writer there has finished, so nothing more can appear under it.
  const settled = sql`(t.written_by is null or t.written_by < ${snap!.horizon}::xid8)`;
  const [count] = await rows<{ n: string; unsettled: boolean; from: string | null }>(
    tx,
    sql`select count(*)::text as n, coalesce(bool_or(not ${settled}), false) as unsettled, min(t.id)::text as from from ledger_transactions t where ${since}`,
  );
  // Their postings, as one range of transaction ids (the postings' transaction index, 0045); the join keeps only theirs.
  const sinceIds = sql`p.transaction_id >= ${count!.from ?? '9223372036854775807'}::bigint`;
  const newLegs = sql`select p.transaction_id, p.account_id, p.amount, t.kind, ${settled} as settled
    from ledger_transactions t join ledger_postings p on p.transaction_id = t.id
    where ${since} and ${sinceIds}`;
  // A bounded look at how much is new: a few legs (every few minutes) are best probed by their
  // keys; more are best hashed in memory, which the planner, blind to how many legs come out of
  // the statement's parts, is told here; a day of interest is taken in steps.
  const manyLegs = opts.manyLegs ?? MANY_LEGS;
  const passLegs = opts.passLegs ?? PASS_LEGS;
  const [size] = await rows<{ n: string }>(tx, sql`select count(*)::text as n from (${newLegs} limit ${Math.max(manyLegs, passLegs)}) l`);
  const legs = Number(size!.n);
  if (legs >= passLegs) {
    // The pass is fixed here: the transactions written from the horizon up to this snapshot's, and the accounts that exist now.
    const [last] = await rows<{ id: string }>(tx, sql`select coalesce(max(id), 0)::text as id from ledger_accounts`);
    const pass: Checkpoint = {
      horizon: cp?.horizon ?? null,
      pass_horizon: snap!.horizon,
      pass_from: count!.from,
      pass_next_account: '0',
      pass_last_account: last!.id,
      pass_transactions: Number(count!.n),
    };
    await tx.execute(sql`
      insert into ledger_checkpoint (id, horizon, checked_at, pass_horizon, pass_from, pass_next_account, pass_last_account, pass_transactions)
      values (1, null, now(), ${pass.pass_horizon}::xid8, ${pass.pass_from}::bigint, 0, ${pass.pass_last_account}::bigint, ${pass.pass_transactions})
      on conflict (id) do update set pass_horizon = excluded.pass_horizon, pass_from = excluded.pass_from, pass_next_account = 0,
        pass_last_account = excluded.pass_last_account, pass_transactions = excluded.pass_transactions`);
    // Left by nothing but a pass that finished (which empties them): emptied again for certain.
    await tx.execute(sql`delete from ledger_check_pass_transactions`);
    await tx.execute(sql`delete from ledger_check_pass_pools`);
    return passStep(tx, pass, since, opts);
  }
  if (legs >= manyLegs) await tx.execute(sql`set local enable_nestloop = off`);
  const perAccount = sql`
    select a.id, a.key, a.kind, a.pool, a.currency, a.balance, a.deposited, a.withdrawn, a.interest,
      s.total, s.settled, s.n_deposited, s.n_withdrawn, s.n_interest, s.s_deposited, s.s_withdrawn, s.s_interest
    from (select account_id, ${sumsOf(count!.unsettled)} from legs group by account_id) s${SUM_COLUMNS}
    join ledger_accounts a on a.id = s.account_id`;
  // Each account written to, and every book account (a handful), against its checked sums and what came since.
  const expected = sql`coalesce(c.entries, 0) + n.total as expected, coalesce(c.deposited, 0) + n.n_deposited as e_deposited,
      coalesce(c.withdrawn, 0) + n.n_withdrawn as e_withdrawn, coalesce(c.interest, 0) + n.n_interest as e_interest`;
  await tx.execute(sql`savepoint ledger_check`);
  const found = await rows<Found>(
    tx,
    sql`
    with legs as materialized (${newLegs}),
    n as materialized (${perAccount}),
    x as (
      select n.*, c.account_id is not null as checked, ${expected}
      from n left join ledger_checked_accounts c on c.account_id = n.id
      union all
      select a.id, a.key, a.kind, a.pool, a.currency, a.balance, a.deposited, a.withdrawn, a.interest, 0, 0, 0, 0, 0, 0, 0, 0, true,
        coalesce(c.entries, 0), coalesce(c.deposited, 0), coalesce(c.withdrawn, 0), coalesce(c.interest, 0)
      from ledger_accounts a left join ledger_checked_accounts c on c.account_id = a.id
      where a.kind <> 'position' and not exists (select 1 from n where n.id = a.id)
    ),
    -- One pass over them for both proofs: a balance or kept figure out of step, a liability below zero.
    accounts as (
      select key, balance, expected, ${DRIFTED} as drifted, ${NEGATIVE} as negative
      from x where ${DRIFTED} or ${NEGATIVE}
      limit ${2 * LIMIT}
    ),
    unbalanced as (
      select l.transaction_id, n.currency, sum(l.amount) as sum from legs l join n on n.id = l.account_id
      group by l.transaction_id, n.currency having sum(l.amount) <> 0 limit ${LIMIT}
    ),
    by_pool as (select pool, currency, sum(total) as total, sum(settled) as settled from n where kind = 'position' group by pool, currency),
    pools as (
      select coalesce(k.pool, m.pool, c.pool) as pool, coalesce(k.currency, m.currency, c.currency) as currency,
        coalesce(k.balance, 0) as balance, coalesce(c.entries, 0) + coalesce(m.total, 0) as expected
      from pool_totals k
      full join by_pool m using (pool, currency)
      full join ledger_checked_pools c using (pool, currency)
      where coalesce(k.balance, 0) <> coalesce(c.entries, 0) + coalesce(m.total, 0)
    ),
    -- The sums take in the settled part; when a proof fails the savepoint undoes this.
    updated as (
      update ledger_checked_accounts c set entries = c.entries + x.settled, deposited = c.deposited + x.s_deposited,
        withdrawn = c.withdrawn + x.s_withdrawn, interest = c.interest + x.s_interest
      from n x where c.account_id = x.id and (x.settled, x.s_deposited, x.s_withdrawn, x.s_interest) <> (0, 0, 0, 0)
    ),
    inserted as (
      insert into ledger_checked_accounts (account_id, entries, deposited, withdrawn, interest)
      select id, settled, s_deposited, s_withdrawn, s_interest from x where not checked
    ),
    pooled as (
      insert into ledger_checked_pools as c (pool, currency, entries)
      select pool, currency, settled from by_pool
      on conflict (pool, currency) do update set entries = c.entries + excluded.entries
    )
    select 'unbalanced' as what, transaction_id::text as key, currency, sum::text as balance, null as entries, null::boolean as drifted, null::boolean as negative from unbalanced
    union all
    select 'account', key, null, balance::text, expected::text, drifted, negative from accounts
    union all
    select 'pool', 'pool_totals:' || pool || ':' || currency, null, balance::text, expected::text, true, false from pools`,
  );
  const drifted = driftedOf(found);
  const pools = poolsOf(found);
  if (found.length) await tx.execute(sql`rollback to savepoint ledger_check`);
  await tx.execute(sql`reset enable_nestloop`);
  // A pool out of step while none of the accounts written to is: some position moved without a
  // posting. Only then are the pool's positions read, to name it.
  const moved = pools.length
    ? await rows<{ key: string; balance: string; entries: string }>(
        tx,
        sql`select a.key, a.balance::text as balance, (coalesce(c.entries, 0) + coalesce(n.total, 0))::text as entries
            from ledger_accounts a
            left join ledger_checked_accounts c on c.account_id = a.id
            left join (
              select p.account_id, sum(p.amount) as total from ledger_transactions t join ledger_postings p on p.transaction_id = t.id
              where ${since} and ${sinceIds} group by p.account_id
            ) n on n.account_id = a.id
            where a.kind = 'position' and (a.pool, a.currency) in (${sql.join(pools.map((p) => sql`(${p.key.split(':')[1]!}, ${p.key.split(':')[2]!})`), sql`, `)})
              and a.balance <> coalesce(c.entries, 0) + coalesce(n.total, 0)
            limit ${LIMIT}`,
      )
    : [];
  const result = finish({
    mode: 'incremental',
    transactions: Number(count?.n ?? 0),
    unbalanced: unbalancedOf(found),
    negative: negativeOf(found),
    drifted: [...drifted, ...moved.filter((m) => !drifted.some((d) => d.key === m.key)), ...pools].slice(0, LIMIT),
    currencies: await currencyTotals(tx, sql`select currency, balance from pool_totals`),
  });
  // A failure keeps the checkpoint (and the sums) where they were: the next run finds the same difference again.
  if (result.ok) {
    await tx.execute(sql`
      insert into ledger_checkpoint (id, horizon, checked_at) values (1, ${snap!.horizon}::xid8, now())
      on conflict (id) do update set horizon = excluded.horizon, checked_at = excluded.checked_at`);
  } else if (!found.length) await tx.execute(sql`rollback to savepoint ledger_check`);
  return { kind: 'whole', result };
}

/**
 * One step of a pass. The pass was fixed when it started: the transactions written from the
 * checkpoint's horizon up to the pass's own (all finished then, so the set cannot grow), and the
 * accounts that existed then. Each step walks the next `stepAccounts` of those accounts by id,
 * reading each one's postings since the pass's first transaction by the postings' key (so a step
 * reads those accounts' recent legs, whatever the history or the batch), and holds every one of
 * them, written to or not, to its checked sums plus all its legs since the horizon (the pass's and
 * any written since it began); it takes the pass's legs into the account's sums, and adds what they
 * come to per transaction and per pool to the pass's tables. The last step holds each of the
 * pass's transactions to a sum of zero per currency, and each pool's kept total to its checked
 * sum, plus what the steps added, plus its positions' legs written since the pass began; then the
 * pool sums take in the pass and the horizon moves up to the pass's. A walking step that finds a
 * difference changes nothing, so the next run finds it again; a last step that finds one starts the
 * check over from nothing.
 */
async function passStep(tx: Tx, pass: Checkpoint, since: SQL, opts: IncrementalCheckOptions): Promise<{ kind: StepKind; result?: LedgerCheck }> {
  const passHorizon = pass.pass_horizon!;
  const from = pass.pass_from ?? '9223372036854775807';
  const next = pass.pass_next_account!;
  const last = pass.pass_last_account!;
  const inPass = sql`(t.written_by is null or t.written_by < ${passHorizon}::xid8)`;
  if (BigInt(next) <= BigInt(last)) {
    let stepAccounts = opts.stepAccounts ?? STEP_ACCOUNTS;
    if (!pass.horizon) {
      // The first pass (or one after a reset) reads every account's whole history, not a day of it:
      // fewer accounts a step, by the tables' legs per account as the planner's statistics have them.
      const [stats] = await rows<{ legs: string }>(
        tx,
        sql`select ceil(greatest(1, (select reltuples from pg_class where oid = 'ledger_postings'::regclass)
          / greatest(1, (select reltuples from pg_class where oid = 'ledger_accounts'::regclass))))::text as legs`,
      );
      stepAccounts = Math.max(1, Math.floor(stepAccounts / Number(stats!.legs)));
    }
    const [bound] = await rows<{ id: string | null }>(
      tx,
      // Cast outside: inside, "order by id" would name the text column and sort every account as text.
      sql`select (select id from ledger_accounts where id >= ${next}::bigint and id <= ${last}::bigint order by id offset ${stepAccounts} limit 1)::text as id`,
    );
    const until = bound?.id ?? String(BigInt(last) + 1n);
    await tx.execute(sql`savepoint ledger_check`);
    const found = await rows<Found>(
      tx,
      sql`
      with acc as materialized (
        select id, key, kind, pool, currency, balance, deposited, withdrawn, interest from ledger_accounts where id >= ${next}::bigint and id < ${until}::bigint
      ),
      news as materialized (select t.id, t.kind, ${inPass} as settled, ledger_week(t.created_at) as week from ledger_transactions t where ${since} and t.id >= ${from}::bigint),
      legs as materialized (
        -- Each account's new legs probed by (account, written week), from the new transactions' first week (a leg's week is its
        -- transaction's): a join would hash every leg since the pass began, in every step. (offset 0 keeps the subquery a probe
        -- per account: the planner may not fold it into a join; + 0 keeps it off the transaction index, see legsFrom.)
        select p.transaction_id, acc.id as account_id, p.amount, news.kind, news.settled
        from acc cross join lateral (
          select p.transaction_id, p.amount from ledger_postings p
          where p.account_id = acc.id and p.written_week >= (select min(week) from news) and p.transaction_id + 0 >= ${from}::bigint offset 0
        ) p
        join news on news.id = p.transaction_id
      ),
      n${SUM_COLUMNS} as (select account_id, ${sumsOf(true)} from legs group by account_id),
      x as materialized (
        select acc.*, n.account_id is not null as written, c.account_id is not null as checked,
          coalesce(n.settled, 0) as settled, coalesce(n.s_deposited, 0) as s_deposited, coalesce(n.s_withdrawn, 0) as s_withdrawn, coalesce(n.s_interest, 0) as s_interest,
          coalesce(c.entries, 0) + coalesce(n.total, 0) as expected, coalesce(c.deposited, 0) + coalesce(n.n_deposited, 0) as e_deposited,
          coalesce(c.withdrawn, 0) + coalesce(n.n_withdrawn, 0) as e_withdrawn, coalesce(c.interest, 0) + coalesce(n.n_interest, 0) as e_interest
        from acc left join n on n.account_id = acc.id
        -- The step's range stated on the checked sums too, so they are read by key, not hashed whole.
        left join ledger_checked_accounts c on c.account_id = acc.id and c.account_id >= ${next}::bigint and c.account_id < ${until}::bigint
      ),
      accounts as (
        select key, balance, expected, ${DRIFTED} as drifted, ${NEGATIVE} as negative
        from x where ${DRIFTED} or ${NEGATIVE}
        limit ${2 * LIMIT}
      ),
      -- What the pass's legs read here add to each of its transactions and each pool; the last step proves them.
      to_transactions as (
        insert into ledger_check_pass_transactions as c (transaction_id, currency, sum)
        select l.transaction_id, acc.currency, sum(l.amount) from legs l join acc on acc.id = l.account_id where l.settled
        group by l.transaction_id, acc.currency
        on conflict (transaction_id, currency) do update set sum = c.sum + excluded.sum
      ),
      to_pools as (
        insert into ledger_check_pass_pools as c (pool, currency, entries)
        select pool, currency, sum(settled) from x where kind = 'position' and written group by pool, currency
        on conflict (pool, currency) do update set entries = c.entries + excluded.entries
      ),
      updated as (
        update ledger_checked_accounts c set entries = c.entries + x.settled, deposited = c.deposited + x.s_deposited,
          withdrawn = c.withdrawn + x.s_withdrawn, interest = c.interest + x.s_interest
        from x where c.account_id = x.id and c.account_id >= ${next}::bigint and c.account_id < ${until}::bigint and x.checked and (x.settled, x.s_deposited, x.s_withdrawn, x.s_interest) <> (0, 0, 0, 0)
      ),
      inserted as (
        insert into ledger_checked_accounts (account_id, entries, deposited, withdrawn, interest)
        select id, settled, s_deposited, s_withdrawn, s_interest from x where written and not checked
      )
      select 'account' as what, key, null as currency, balance::text as balance, expected::text as entries, drifted, negative from accounts`,
    );
    if (!found.length) {
      await tx.execute(sql`update ledger_checkpoint set pass_next_account = ${until}::bigint where id = 1`);
      return { kind: 'slice' };
    }
    await tx.execute(sql`rollback to savepoint ledger_check`);
    return {
      kind: 'slice',
      result: finish({
        mode: 'incremental',
        transactions: pass.pass_transactions ?? 0,
        unbalanced: [],
        negative: negativeOf(found),
        drifted: driftedOf(found).slice(0, LIMIT),
        currencies: await currencyTotals(tx, sql`select currency, balance from pool_totals`),
      }),
    };
  }

  // The last step. The legs written since the pass began (what was written meanwhile).
  const laterLegs = sql`select p.account_id, p.amount
    from ledger_transactions t join ledger_postings p on p.transaction_id = t.id
    where t.written_by >= ${passHorizon}::xid8
      and p.transaction_id >= (select coalesce(min(t.id), 9223372036854775807) from ledger_transactions t where t.written_by >= ${passHorizon}::xid8)`;
  const later = sql`select a.pool, a.currency, sum(l.amount) as total from (${laterLegs}) l join ledger_accounts a on a.id = l.account_id
    where a.kind = 'position' group by a.pool, a.currency`;
  // A day of interest written meanwhile would make this step a pass of its own: the pools' proof
  // then waits for the next pass, whose proof holds the same kept totals to the same checked sums
  // plus everything since, so a total out of step is still found, one pass later.
  const meanwhileLegs = opts.meanwhileLegs ?? PASS_LEGS;
  const [meanwhile] = await rows<{ n: string }>(tx, sql`select count(*)::text as n from (${laterLegs} limit ${meanwhileLegs}) l`);
  const poolsNow = Number(meanwhile!.n) < meanwhileLegs;
  const poolsProof = sql`
      select coalesce(k.pool, c.pool, m.pool, l.pool) as pool, coalesce(k.currency, c.currency, m.currency, l.currency) as currency,
        coalesce(k.balance, 0) as balance, coalesce(c.entries, 0) + coalesce(m.entries, 0) + coalesce(l.total, 0) as expected
      from pool_totals k
      full join ledger_checked_pools c using (pool, currency)
      full join ledger_check_pass_pools m using (pool, currency)
      full join (${later}) l using (pool, currency)
      where coalesce(k.balance, 0) <> coalesce(c.entries, 0) + coalesce(m.entries, 0) + coalesce(l.total, 0)`;
  const found = await rows<Found>(
    tx,
    sql`
    with unbalanced as (
      select transaction_id, currency, sum from ledger_check_pass_transactions where sum <> 0 order by transaction_id limit ${LIMIT}
    ),
    pools as (${poolsNow ? poolsProof : sql`select null::text as pool, null::text as currency, 0 as balance, 0 as expected where false`})
    select 'unbalanced' as what, transaction_id::text as key, currency, sum::text as balance, null as entries, null::boolean as drifted, null::boolean as negative from unbalanced
    union all
    select 'pool', 'pool_totals:' || pool || ':' || currency, null, balance::text, expected::text, true, false from pools`,
  );
  const result = finish({
    mode: 'incremental',
    transactions: pass.pass_transactions ?? 0,
    unbalanced: unbalancedOf(found),
    negative: [],
    drifted: poolsOf(found),
    currencies: await currencyTotals(tx, sql`select currency, balance from pool_totals`),
  });
  if (result.ok) {
    await tx.execute(sql`
      insert into ledger_checked_pools as c (pool, currency, entries)
      select pool, currency, entries from ledger_check_pass_pools
      on conflict (pool, currency) do update set entries = c.entries + excluded.entries`);
    await tx.execute(sql`
      update ledger_checkpoint set horizon = pass_horizon, checked_at = now(),
        pass_horizon = null, pass_from = null, pass_next_account = null, pass_last_account = null, pass_transactions = null
      where id = 1`);
  } else {
    // The account sums have taken in the pass step by step, and the books changed under it (a
    // transaction read in part, a position moved behind the walk): no step can be undone alone, so
    // the check starts over from nothing, as its first run does, and proves everything again.
    await tx.execute(sql`delete from ledger_checked_accounts`);
    await tx.execute(sql`delete from ledger_checked_pools`);
    await tx.execute(sql`
      update ledger_checkpoint set horizon = null, checked_at = now(),
        pass_horizon = null, pass_from = null, pass_next_account = null, pass_last_account = null, pass_transactions = null
      where id = 1`);
  }
  await tx.execute(sql`delete from ledger_check_pass_transactions`);
  await tx.execute(sql`delete from ledger_check_pass_pools`);
  return { kind: 'finish', result };
}
