// What the cabinet reads: a user's positions, flows and interest from the ledger, valued in US dollars.
// Every amount stays a bigint; dollars are exact decimal strings (cents rounded down per position).
import { sql, type SQL } from 'drizzle-orm';
import { DAYS_PER_YEAR, RATE_SCALE, dailyRate, formatUnits, parseUnits, unitsToUsd } from '@app/web3';
import { SUPPORTED_CHAIN_ID, type ActivityItem, type ActivityQuery, type CabinetSummary, type PoolName } from '@app/contracts';
import type { Db } from '../db/client';
import { preparedByText, preparedRows, rows } from '../db/rows';
import { apysOn, utcDay } from '../interest';
import type { TransactionKind } from '../ledger';
import { firstTransactionAt, legsFrom } from '../ledger/window';
import type { PriceSource } from '../pricing';
import { noSharedFigures, type SharedFigures } from '../http/shared-figures';

export { balanceHistory } from './balance';

const DAY_MS = 86_400_000;
/** The first instant of a UTC day, as SQL. */
const dayStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'UTC'`;
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** Base units to cents at a price, rounded down; negative amounts round towards zero. */
export function unitsToCents(units: bigint, priceUsd: string, decimals: number): bigint {
  const abs = units < 0n ? -units : units;
  const cents = parseUnits(unitsToUsd(abs, priceUsd, decimals, 2), 2);
  return units < 0n ? -cents : cents;
}
/** Cents to "1234.50" (always two places). */
export const usd = (cents: bigint) => {
  const s = formatUnits(cents, 2);
  const [whole, frac = ''] = s.split('.');
  return `${whole}.${frac.padEnd(2, '0')}`;
};

/** The APR behind a daily compounded APY: 365 × r, as a decimal fraction with 6 places (rounded down). */
export function aprOf(apy: string): string {
  const scaled = (BigInt(DAYS_PER_YEAR) * dailyRate(apy) * 10n ** 6n) / RATE_SCALE;
  return formatUnits(scaled, 6);
}

type PoolRow = { name: PoolName; title: string; risk_level: string; currencies: string | null };

/** The pools in their order, with the currencies they accept on the supported chain. */
async function poolList(db: Db): Promise<PoolRow[]> {
  return rows<PoolRow>(
    db,
    sql`select p.name, p.title, p.risk_level,
          (select string_agg(pa.currency, ',' order by c.sort) from pool_addresses pa join currencies c on c.code = pa.currency where pa.pool = p.name and pa.chain_id = ${SUPPORTED_CHAIN_ID}) as currencies
        from pools p order by p.sort`,
  );
}

/** Cents of holdings per currency at the given prices, each currency rounded down, then summed. */
export function valueCents(holdings: { currency: string; units: bigint }[], prices: Map<string, string>, decimals: Map<string, number>): bigint {
  return holdings.reduce((sum, h) => sum + unitsToCents(h.units, prices.get(h.currency) ?? '0', decimals.get(h.currency) ?? 18), 0n);
}

/**
 * Each pool's value locked now, in cents at the price source's prices: what its positions hold on
 * the books. The pools' TVL cards and the DAO's pool values both read it.
 */
export async function poolsTvl(db: Db, prices: PriceSource): Promise<Map<string, bigint>> {
  const [held, decimals] = await Promise.all([poolTotals(db), currencyDecimals(db)]);
  return valuedPerPool(held, await prices.usdPrices([...decimals.keys()]), decimals);
}

/** Each pool's total per currency in base units: kept with every change of a position (0021), never a sum over the positions. */
const poolTotals = (db: Db) => rows<{ pool: string; currency: string; total: string }>(db, sql`select pool, currency, (-balance)::text as total from pool_totals`);

/**
 * Each pool's value locked at a past moment, in cents at the price source's prices now (as voting
 * power is valued): today's totals less the positions' postings dated after it, so only the window
 * since then is read. A DAO proposal's quorum is a share of it at the snapshot.
 */
export async function poolsTvlAt(db: Db, prices: PriceSource, at: Date): Promise<Map<string, bigint>> {
  const [held, decimals] = await Promise.all([
    rows<{ pool: string; currency: string; total: string }>(
      db,
      sql`select t.pool, t.currency, (-t.balance - coalesce(l.moved, 0))::text as total
          from pool_totals t
          left join (
            select a.pool, a.currency, sum(-p.amount) as moved
            from ledger_transactions x
            join ledger_postings p on p.transaction_id = x.id
            join ledger_accounts a on a.id = p.account_id
            where x.at > ${at.toISOString()}::timestamptz and p.transaction_id >= ${firstTransactionAt(sql`${at.toISOString()}::timestamptz`, true)} and a.kind = 'position'
            group by a.pool, a.currency
          ) l on l.pool = t.pool and l.currency = t.currency`,
    ),
    currencyDecimals(db),
  ]);
  return valuedPerPool(held, await prices.usdPrices([...decimals.keys()]), decimals);
}

/** Totals per pool and currency in base units as cents per pool: each currency's value rounded down, then summed. */
function valuedPerPool(held: { pool: string; currency: string; total: string }[], price: Map<string, string>, decimals: Map<string, number>): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const h of held) out.set(h.pool, (out.get(h.pool) ?? 0n) + unitsToCents(BigInt(h.total), price.get(h.currency) ?? '0', decimals.get(h.currency) ?? 18));
  return out;
}

/**
 * The figures every user's read shares, each kept by the server's shared figures (at most
 * `SHARED_FIGURES_MS` old; computed every time with `noSharedFigures`).
 */
export function sharedReads(db: Db, prices: PriceSource, figures: SharedFigures = noSharedFigures) {
  const decimals = () => figures.get('decimals', () => currencyDecimals(db));
  const usdPrices = () => figures.get(`prices:${prices.name}`, async () => prices.usdPrices([...(await decimals()).keys()]));
  return {
    decimals,
    prices: usdPrices,
    pools: () => figures.get('pools', () => poolList(db)),
    /** Each pool's receiving address per currency on a chain, in the currencies' order. */
    addresses: (chainId: number) =>
      figures.get(`addresses:${chainId}`, () =>
        rows<{ pool: string; currency: string; address: string }>(
          db,
          sql`select pa.pool, pa.currency, pa.address from pool_addresses pa join currencies c on c.code = pa.currency where pa.chain_id = ${chainId} order by c.sort`,
        ),
      ),
    apys: (day: string) => figures.get(`apys:${day}`, () => apysOn(db, day)),
    tvl: () =>
      figures.get(`tvl:${prices.name}`, async () => {
        const [held, dec, price] = await Promise.all([poolTotals(db), decimals(), usdPrices()]);
        return valuedPerPool(held, price, dec);
      }),
  };
}
export type SharedReads = ReturnType<typeof sharedReads>;

/** Each currency's decimals. */
export async function currencyDecimals(db: Db): Promise<Map<string, number>> {
  return new Map((await rows<{ code: string; decimals: number }>(db, sql`select code, decimals from currencies`)).map((d) => [d.code, d.decimals]));
}

/**
 * A statement's first part: `d`, holding `as_of`, the day figures are read at (today, or the day
 * after the last accrued day when that is later), so a read needs no round trip of its own for it.
 */
export const withAsOf = (today: string) =>
  sql`with d as materialized (select greatest(coalesce((select max(day) from interest_days) + 1, ${today}::date), ${today}::date) as as_of)`;

/** The day the figures are read at (`withAsOf`). */
export async function asOfDay(db: Db, now = new Date()): Promise<string> {
  const [r] = await rows<{ day: string }>(db, sql`${withAsOf(utcDay(now))} select as_of::text as day from d`);
  return r!.day;
}

type FlowRow = { pool: string; currency: string; balance: string; deposited: string; withdrawn: string; all: string; day: string; month: string };

/**
 * The user's part of the summary in one statement (one round trip): the day the figures are read
 * at (as `asOfDay`), the tutorial flag, whether they ever deposited, the cabinet's revision, and
 * each position's all-time figures kept beside its balance with the last day's and month's interest
 * from the account's own postings in that window (interest of day D is dated the end of D).
 */
function summaryOf(userId: string, today: string): SQL {
  const asOf = sql`(select as_of from d)`;
  // The window's first instant: the day after the month before the as-of day.
  const monthStart = sql`((${asOf}) - 29)::timestamp at time zone 'UTC'`;
  return sql`${withAsOf(today)}
    select (select as_of::text from d) as as_of,
      exists (select 1 from tutorial_dismissals where user_id = ${userId}) as dismissed,
      exists (select 1 from deposits where user_id = ${userId}) as started,
      ${revisionColumns(userId)},
      (select coalesce(json_agg(f order by f.id), '[]'::json) from (
        select a.id, a.pool, a.currency, (-a.balance)::text as balance, a.deposited::text as deposited, a.withdrawn::text as withdrawn, a.interest::text as all,
          coalesce(w.day, 0)::text as day, coalesce(w.month, 0)::text as month
        from ledger_accounts a
        left join lateral (
          select sum(-p.amount) filter (where t.at = (${asOf})::timestamp at time zone 'UTC') as day, sum(-p.amount) as month
          from ledger_postings p join ledger_transactions t on t.id = p.transaction_id
          where p.account_id = a.id and ${legsFrom('p', firstTransactionAt(monthStart))}
            and t.at >= ${monthStart} and t.kind = ${'interest' satisfies TransactionKind}
        ) w on true
        where a.kind = 'position' and a.user_id = ${userId}
      ) f) as flows`;
}

/**
 * The dashboard's figures: the user's own in one statement (`summaryOf`), the figures everyone
 * shares (pools, APYs, the pools' totals, prices, decimals) from `shared`.
 */
export async function portfolioSummary(db: Db, shared: SharedReads, userId: string, now = new Date()): Promise<CabinetSummary> {
  const [[mine], poolRows, tvl, dec, price] = await Promise.all([
    // Prepared: its plan costs more than its run, and its text never changes.
    preparedRows<{ as_of: string; dismissed: boolean; started: boolean; flows: FlowRow[] } & RevisionColumns>(db, 'cabinet_summary', summaryOf(userId, utcDay(now))),
    shared.pools(),
    shared.tvl(),
    shared.decimals(),
    shared.prices(),
  ]);
  const asOf = mine!.as_of;
  const apys = await shared.apys(asOf);
  const lastDay = addDays(asOf, -1);
  const flows = mine!.flows;
  const revision = revisionOf(mine!);
  const tutorialDismissed = mine!.dismissed;
  // A position that has earned interest, as the interest lines read it.
  const interest = flows.filter((f) => f.all !== '0');
  const cents = (units: bigint, currency: string) => unitsToCents(units, price.get(currency) ?? '0', dec.get(currency) ?? 18);

  const key = (pool: string, currency: string) => `${pool}|${currency}`;
  const interestBy = new Map(interest.map((i) => [key(i.pool, i.currency), i]));

  type Acc = { balance: bigint; deposited: bigint; withdrawn: bigint; all: bigint; day: bigint; month: bigint };
  const byCurrency = new Map<string, Acc>();
  let valueC = 0n, principalC = 0n, profitC = 0n, allC = 0n, dayC = 0n, monthC = 0n;
  for (const f of flows) {
    const i = interestBy.get(key(f.pool, f.currency));
    const a: Acc = {
      balance: BigInt(f.balance),
      deposited: BigInt(f.deposited),
      withdrawn: BigInt(f.withdrawn),
      all: BigInt(i?.all ?? '0'),
      day: BigInt(i?.day ?? '0'),
      month: BigInt(i?.month ?? '0'),
    };
    const c = byCurrency.get(f.currency) ?? { balance: 0n, deposited: 0n, withdrawn: 0n, all: 0n, day: 0n, month: 0n };
    for (const k of Object.keys(a) as (keyof Acc)[]) c[k] += a[k];
    byCurrency.set(f.currency, c);
  }
  const currencies = [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, a]) => {
      const principal = a.deposited > a.withdrawn ? a.deposited - a.withdrawn : 0n;
      const profit = a.balance + a.withdrawn - a.deposited;
      valueC += cents(a.balance, currency);
      principalC += cents(principal, currency);
      profitC += cents(profit, currency);
      allC += cents(a.all, currency);
      dayC += cents(a.day, currency);
      monthC += cents(a.month, currency);
      return {
        currency,
        balance: String(a.balance),
        principal: String(principal),
        deposited: String(a.deposited),
        withdrawn: String(a.withdrawn),
        interest: { all: String(a.all), day: String(a.day), month: String(a.month) },
        profit: String(profit),
        priceUsd: price.get(currency) ?? '0',
        valueUsd: usd(cents(a.balance, currency)),
      };
    });

  const pools = poolRows.map((p) => {
    const apy = apys.get(p.name) ?? '0';
    const mine = flows.filter((f) => f.pool === p.name);
    let poolValue = 0n;
    const positions = mine.map((f) => {
      const v = cents(BigInt(f.balance), f.currency);
      poolValue += v;
      return { currency: f.currency, balance: f.balance, earned: interestBy.get(key(f.pool, f.currency))?.all ?? '0', valueUsd: usd(v) };
    });
    const tvlC = tvl.get(p.name) ?? 0n;
    return {
      pool: p.name,
      title: p.title,
      riskLevel: p.risk_level,
      apy,
      apr: aprOf(apy),
      tvlUsd: usd(tvlC),
      currencies: p.currencies ? p.currencies.split(',') : [],
      positions,
      valueUsd: usd(poolValue),
    };
  });

  const rewards = interest
    .filter((i) => i.day !== '0')
    .map((i) => ({ pool: i.pool as PoolName, currency: i.currency, amount: i.day }))
    .sort((a, b) => a.pool.localeCompare(b.pool) || a.currency.localeCompare(b.currency));

  return {
    asOf,
    totals: { valueUsd: usd(valueC), principalUsd: usd(principalC), profitUsd: usd(profitC), interestUsd: { all: usd(allC), day: usd(dayC), month: usd(monthC) } },
    currencies,
    pools,
    dailyRewards: { day: interest.length ? lastDay : null, items: rewards },
    decimals: Object.fromEntries(dec),
    tutorialDismissed,
    empty: !mine!.started,
    revision,
  };
}

type RevisionColumns = { postings: string | null; deposits: string | null; withdrawals: string | null };

/** The revision's parts as columns of a select: read from the user's own rows, never their postings. */
const revisionColumns = (userId: string) =>
  sql`-- Every posting on a position moves its balance or one of its all-time figures (a withdrawal and its return put the balance back, not the figures' history: the withdrawal's row moves).
      (select md5(coalesce(string_agg(concat_ws(':', a.id, a.balance, a.deposited, a.withdrawn, a.interest), ',' order by a.id), '')) from ledger_accounts a where a.kind = 'position' and a.user_id = ${userId}) as postings,
      (select (count(*) || ':' || coalesce(sum(confirmations), 0) || ':' || coalesce(max(updated_at)::text, ''))::text from deposits where user_id = ${userId}) as deposits,
      (select (count(*) || ':' || coalesce(sum(confirmations), 0) || ':' || coalesce(max(updated_at)::text, ''))::text from withdrawals where user_id = ${userId}) as withdrawals`;
const revisionOf = (r: RevisionColumns | undefined) => `${r?.postings ?? 0}|${r?.deposits ?? ''}|${r?.withdrawals ?? ''}`;

/**
 * Moves whenever something the cabinet shows changes for the user: a posting on their positions, a
 * deposit's or a withdrawal's progress.
 */
export async function cabinetRevision(db: Db, userId: string): Promise<string> {
  const [r] = await preparedRows<RevisionColumns>(db, 'cabinet_revision', sql`select ${revisionColumns(userId)}`);
  return revisionOf(r);
}

type ActivityRow = {
  kind: ActivityItem['kind'];
  id: string | null;
  pool: PoolName;
  currency: string;
  amount: string;
  status: string;
  at: string;
  day: string | null;
  transaction: string | null;
  confirmations: number;
  month: string | null;
  days: number | null;
};

/** What a list of activity is narrowed to: all of it on the user's own rows. */
export type ActivityFilter = Pick<ActivityQuery, 'pool' | 'kind' | 'currency' | 'interest' | 'month'>;

const monthRange = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return { from: `${month}-01`, to: `${next}-01` };
};

// `at` orders the list (interest of D takes effect at the end of D, after D's other movements; a
// month's interest at the end of its last credited day); `day` is the date an interest credit is
// shown with: the day it is for (a month's, its first day). Every branch starts from the user's
// own rows (by user id, indexed) and narrows them, so a filter never reads anyone else's.
const activitySql = (userId: string, f: ActivityFilter = {}) => {
  const scope = sql`${f.pool ? sql`and pool = ${f.pool}` : sql``} ${f.currency ? sql`and currency = ${f.currency}` : sql``}`;
  const range = f.month ? monthRange(f.month) : null;
  const created = range ? sql`and created_at >= ${dayStart(range.from)} and created_at < ${dayStart(range.to)}` : sql``;
  const want = (kind: ActivityItem['kind']) => !f.kind || f.kind === kind;
  const parts = [];
  if (want('deposit'))
    parts.push(sql`select 'deposit' as kind, id::text as id, pool, currency, amount::text as amount, status, created_at as at, null::text as day, tx_hash as transaction, confirmations, null::text as month, null::int as days
      from deposits where user_id = ${userId} ${scope} ${created}`);
  if (want('interest'))
    parts.push(
      f.interest === 'month' && !range
        ? sql`select 'interest' as kind, null::text as id, pool, currency, sum(amount)::text as amount, 'credited' as status, ((max(day) + 1)::timestamp at time zone 'UTC') as at,
              to_char(day, 'YYYY-MM') || '-01' as day, null::text as transaction, 0 as confirmations, to_char(day, 'YYYY-MM') as month, count(*)::int as days
            from interest_accruals where user_id = ${userId} ${scope} group by pool, currency, to_char(day, 'YYYY-MM')`
        : sql`select 'interest' as kind, null::text as id, pool, currency, amount::text as amount, 'credited' as status, ((day + 1)::timestamp at time zone 'UTC') as at, day::text as day, null::text as transaction, 0 as confirmations, null::text as month, null::int as days
            from interest_accruals where user_id = ${userId} ${scope} ${range ? sql`and day >= ${range.from}::date and day < ${range.to}::date` : sql``}`,
    );
  if (want('withdrawal'))
    parts.push(sql`select 'withdrawal' as kind, id::text as id, pool, currency, amount::text as amount, status, created_at as at, null::text as day, tx_hash as transaction, confirmations, null::text as month, null::int as days
      from withdrawals where user_id = ${userId} and kind = 'position' ${scope} ${created}`);
  return sql.join(parts, sql` union all `);
};

function toItem(r: ActivityRow, required: { deposit: number; withdrawal: number }): ActivityItem {
  return {
    kind: r.kind,
    id: r.id === null ? null : Number(r.id),
    pool: r.pool,
    currency: r.currency,
    amount: r.amount,
    status: r.status,
    at: r.day ? `${r.day}T00:00:00.000Z` : new Date(r.at).toISOString(),
    transaction: r.transaction,
    confirmations: r.confirmations,
    confirmationsRequired: r.kind === 'deposit' ? required.deposit : r.kind === 'withdrawal' ? required.withdrawal : 0,
    ...(r.month ? { month: r.month, days: r.days ?? 0 } : {}),
  };
}

/**
 * Deposits, daily interest and withdrawals, newest first, one page at a time: from the cursor of
 * the page before (`after`, keyset: the rows after it in the list's order, however deep), else
 * from the page number. Answers the next page's cursor.
 */
export async function activityPage(
  db: Db,
  userId: string,
  q: ActivityFilter & { page: number; size: number; after?: string },
  required: { deposit: number; withdrawal: number },
) {
  // The list's order: at desc, kind, id desc (interest, with none, last), pool, currency; "after the cursor" spelled out in it.
  const after = q.after?.split('~');
  const from = after
    ? sql`where (at < ${after[0]}::timestamptz or (at = ${after[0]}::timestamptz and (kind > ${after[1]} or (kind = ${after[1]} and (n < ${after[2]}::bigint
          or (n = ${after[2]}::bigint and (pool > ${after[3]} or (pool = ${after[3]} and currency > ${after[4]}))))))))`
    : sql``;
  // One statement: the user's rows read once for the page and the count, prepared per filter
  // combination (planning the union costs more than running it on one user's rows).
  const [r] = await preparedByText<{ total: number; list: (ActivityRow & { cursor: string })[] }>(
    db,
    'cabinet_activity',
    sql`with m as materialized (select *, coalesce(id::bigint, 0) as n from (${activitySql(userId, q)}) u)
        select (select count(*)::int from m) as total,
          (select coalesce(json_agg(x order by x.at desc, x.kind, x.n desc, x.pool, x.currency), '[]'::json) from (
            select *, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '~' || kind || '~' || n || '~' || pool || '~' || currency as cursor
            from m ${from}
            order by at desc, kind, n desc, pool, currency limit ${q.size + 1} ${after ? sql`` : sql`offset ${(q.page - 1) * q.size}`}) x) as list`,
  );
  const list = r!.list;
  const page = list.slice(0, q.size);
  return {
    items: page.map((r) => toItem(r, required)),
    page: q.page,
    size: q.size,
    total: r!.total,
    next: list.length > q.size ? page[page.length - 1]!.cursor : null,
  };
}

const csvCell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Rows the CSV export reads at a time: its memory, whatever the length of the history. */
export const ACTIVITY_EXPORT_BATCH = 1000;

type ExportRow = ActivityRow & { at_key: string; n: string; fee: string | null; usd: string | null };

/**
 * The user's activity oldest first, a batch at a time, each row with the withdrawal's fee and the
 * USD price recorded for its day (null when none was). Batches follow the order's key (a deposit or
 * withdrawal by its id, a day's interest by its pool and currency), so none is read twice or skipped.
 * `settled`: only what moved the balance for good (credited deposits, interest, paid withdrawals).
 */
async function* activityInOrder(db: Db, userId: string, batch: number, settled = false) {
  // The key's time as text: a timestamp through a JS Date would lose its microseconds.
  let after: { at: string; kind: string; n: string; pool: string; currency: string } | null = null;
  for (;;) {
    const list: ExportRow[] = await rows(
      db,
      // The only day-by-day prices kept are the ones a day's rewards were converted with.
      sql`select m.*, m.at::text as at_key, coalesce(m.id::bigint, 0)::text as n,
            (select w.fee::text from withdrawals w where m.kind = 'withdrawal' and w.id = m.id::bigint) as fee,
            (select rp.usd::text from referral_prices rp where rp.currency = m.currency and rp.day = coalesce(m.day::date, (m.at at time zone 'UTC')::date)) as usd
          from (${activitySql(userId)}) m
          where true
          ${settled ? sql`and ((m.kind = 'deposit' and m.status = 'credited') or m.kind = 'interest' or (m.kind = 'withdrawal' and m.status = 'paid'))` : sql``}
          ${after ? sql`and (m.at, m.kind, coalesce(m.id::bigint, 0), m.pool, m.currency) > (${after.at}::timestamptz, ${after.kind}, ${after.n}::bigint, ${after.pool}, ${after.currency})` : sql``}
          order by m.at, m.kind, coalesce(m.id::bigint, 0), m.pool, m.currency limit ${batch}`,
    );
    if (!list.length) return;
    yield list;
    if (list.length < batch) return;
    const last = list[list.length - 1]!;
    after = { at: last.at_key, kind: last.kind, n: last.n, pool: last.pool, currency: last.currency };
  }
}

/**
 * Every movement, oldest first, amounts in whole units (exact), one line each: the header, then one
 * chunk per batch of rows.
 */
export async function* activityCsvChunks(db: Db, userId: string, required: { deposit: number; withdrawal: number }, batch = ACTIVITY_EXPORT_BATCH) {
  const decimals = await currencyDecimals(db);
  yield { text: `${['date', 'time_utc', 'type', 'pool', 'currency', 'amount', 'status', 'transaction'].join(',')}\r\n`, rows: 0 };
  for await (const list of activityInOrder(db, userId, batch)) {
    let text = '';
    for (const r of list) {
      const i = toItem(r, required);
      text += `${[i.at.slice(0, 10), i.at.slice(11, 19), i.kind, i.pool, i.currency, formatUnits(BigInt(i.amount), decimals.get(i.currency) ?? 18), i.status, i.transaction ?? ''].map(csvCell).join(',')}\r\n`;
    }
    yield { text, rows: list.length };
  }
}

/** Koinly's universal CSV columns, then the running balance (an extra column, in the row's currency). */
export const KOINLY_HEADER = ['Date', 'Sent Amount', 'Sent Currency', 'Received Amount', 'Received Currency', 'Fee Amount', 'Fee Currency', 'Net Worth Amount', 'Net Worth Currency', 'Label', 'Description', 'TxHash', 'Balance'];

/**
 * What moved the balance for good, oldest first, in Koinly's universal layout: deposits and
 * interest received, paid withdrawals sent (what arrived, and the fee apart), each valued in US
 * dollars at the price recorded for its day (empty when none was: never a guessed price), and the
 * running balance of that currency over all the user's pools. Interest is dated the end of the day
 * it is for, after that day's other movements, as the balance takes it.
 *
 * A tax tool takes every row as a finished transfer, so the file holds nothing else. A withdrawal
 * still in flight (or a deposit not yet credited) has no outcome yet: it may still come back, and
 * it enters the file once paid. A returned withdrawal never left the user's books, so it is no
 * disposal and has no row. Both are counted apart (`koinlyLeftOut`) and the activity says so, and
 * the Balance column is that of settled movements: below it, the dashboard also holds back what is
 * in flight.
 */
export async function* activityKoinlyChunks(db: Db, userId: string, batch = ACTIVITY_EXPORT_BATCH) {
  const decimals = await currencyDecimals(db);
  const balance = new Map<string, bigint>();
  yield { text: `${KOINLY_HEADER.join(',')}\r\n`, rows: 0 };
  for await (const list of activityInOrder(db, userId, batch, true)) {
    let text = '';
    for (const r of list) {
      const d = decimals.get(r.currency) ?? 18;
      const amount = BigInt(r.amount);
      const fee = BigInt(r.fee ?? '0');
      const moved = r.kind === 'withdrawal' ? amount - fee : amount;
      const held = (balance.get(r.currency) ?? 0n) + (r.kind === 'withdrawal' ? -amount : amount);
      balance.set(r.currency, held);
      const at = r.day ? `${r.day} 23:59 UTC` : `${new Date(r.at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      const units = formatUnits(moved, d);
      const sent = r.kind === 'withdrawal';
      const cells = [
        at,
        sent ? units : '',
        sent ? r.currency : '',
        sent ? '' : units,
        sent ? '' : r.currency,
        sent && fee > 0n ? formatUnits(fee, d) : '',
        sent && fee > 0n ? r.currency : '',
        r.usd === null ? '' : usd(unitsToCents(moved, r.usd, d)),
        r.usd === null ? '' : 'USD',
        r.kind === 'interest' ? 'reward' : '',
        `${r.kind} ${r.kind === 'deposit' ? 'to' : 'from'} the ${r.pool} pool${r.kind === 'interest' ? ` for ${r.day}` : r.id ? ` #${r.id}` : ''}`,
        r.transaction ?? '',
        formatUnits(held, d),
      ];
      text += `${cells.map(csvCell).join(',')}\r\n`;
    }
    yield { text, rows: list.length };
  }
}

export type ActivityExportFormat = 'activity' | 'koinly';

/** What the Koinly file leaves out, as the export ends: movements still in flight, and returned withdrawals. */
export async function koinlyLeftOut(db: Db, userId: string): Promise<{ inFlight: number; returned: number }> {
  const [r] = await rows<{ in_flight: number; returned: number }>(
    db,
    sql`select
          (select count(*)::int from deposits where user_id = ${userId} and status = 'pending')
          + (select count(*)::int from withdrawals where user_id = ${userId} and kind = 'position' and status not in ('paid', 'returned')) as in_flight,
          (select count(*)::int from withdrawals where user_id = ${userId} and kind = 'position' and status = 'returned') as returned`,
  );
  return { inFlight: r?.in_flight ?? 0, returned: r?.returned ?? 0 };
}

/**
 * The export's answer, `{ filename, csv, rows }` as the contract has it, written as the batches are
 * read: the CSV goes out as a JSON string in pieces and the count comes last.
 */
export async function* activityExportJson(
  db: Db,
  userId: string,
  required: { deposit: number; withdrawal: number },
  filename: string,
  format: ActivityExportFormat = 'activity',
  batch = ACTIVITY_EXPORT_BATCH,
) {
  yield `{"filename":${JSON.stringify(filename)},"csv":"`;
  let count = 0;
  const chunks = format === 'koinly' ? activityKoinlyChunks(db, userId, batch) : activityCsvChunks(db, userId, required, batch);
  for await (const chunk of chunks) {
    count += chunk.rows;
    yield JSON.stringify(chunk.text).slice(1, -1);
  }
  const leftOut = format === 'koinly' ? `,"leftOut":${JSON.stringify(await koinlyLeftOut(db, userId))}` : '';
  yield `","rows":${count}${leftOut}}`;
}
