import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/rows';
import { accountKey, positionFigures, type AccountRef } from './accounts';

/** Anything that runs SQL: the database or a transaction on it. */
export type Conn = Pick<Db, 'execute' | 'transaction'>;

/**
 * Every kind of ledger transaction. The column is text; this list is what the code may write,
 * including the kinds that interest and referral rewards write in SQL of their own.
 */
export const TRANSACTION_KINDS = [
  'deposit',
  'withdrawal_reserve',
  'withdrawal_paid',
  'withdrawal_return',
  'payout_gas',
  'interest',
  'referral_reward',
  'referral_claim',
  'referral_forfeit',
  'treasury_funding',
  // Custody (issue 26): a deposit address swept to cold or refilling the float, and its gas.
  'custody_transfer',
  'custody_gas',
] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** One leg of a transaction: a signed amount (debit positive, credit negative) on an account. */
export type Posting = { account: AccountRef; amount: bigint };

export type LedgerTransaction = {
  /** The idempotency key: a second post with the same reference changes nothing. */
  reference: string;
  kind: TransactionKind;
  /** When it takes effect; defaults to now. */
  at?: Date;
  detail?: Record<string, unknown>;
  postings: Posting[];
};

/** The postings do not sum to zero in a currency, or an amount is zero. A programming error. */
export class UnbalancedTransaction extends Error {}

/**
 * The reference was already posted with other contents (kind, accounts or amounts): two different
 * movements were given one idempotency key. Answering it as a retry would drop the second movement
 * without a trace, so it is refused; which one is right is for a person to decide.
 */
export class LedgerReferenceConflict extends Error {
  readonly code = 'LEDGER_REFERENCE_CONFLICT';
}

/** A liability would go below zero (e.g. a withdrawal larger than the position). */
export class InsufficientBalance extends Error {}

const CHECK_VIOLATION = '23514';
const isOverdrawn = (err: unknown): boolean => {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === CHECK_VIOLATION) return true;
  return false;
};

function currencyOf(a: AccountRef) {
  return a.currency;
}

export function assertBalanced(t: LedgerTransaction) {
  if (!t.reference || t.reference.length > 200) throw new UnbalancedTransaction('a transaction needs a reference of at most 200 characters');
  if (t.postings.length < 2) throw new UnbalancedTransaction(`${t.reference}: at least two postings`);
  const sums = new Map<string, bigint>();
  for (const p of t.postings) {
    if (p.amount === 0n) throw new UnbalancedTransaction(`${t.reference}: zero posting`);
    sums.set(currencyOf(p.account), (sums.get(currencyOf(p.account)) ?? 0n) + p.amount);
  }
  for (const [currency, sum] of sums) if (sum !== 0n) throw new UnbalancedTransaction(`${t.reference}: ${currency} sums to ${sum}`);
}

/**
 * Writes a balanced transaction and moves the accounts' balances, all or nothing. Answers the new
 * transaction's id, or null when the reference was already posted with the same kind, accounts and
 * amounts (a retry: nothing changes); with other contents it throws LedgerReferenceConflict.
 * Throws InsufficientBalance when a liability would be overdrawn; the whole transaction is undone.
 * Accounts are locked in key order, so concurrent posts never deadlock.
 */
export async function post(conn: Conn, t: LedgerTransaction): Promise<number | null> {
  assertBalanced(t);
  const at = t.at ?? new Date();
  // One leg per account (a transaction posts to an account at most once: the postings' statement trigger).
  const byKey = new Map<string, { key: string; ref: AccountRef; amount: bigint }>();
  for (const p of t.postings) {
    const key = accountKey(p.account);
    const leg = byKey.get(key);
    if (leg) leg.amount += p.amount;
    else byKey.set(key, { key, ref: p.account, amount: p.amount });
  }
  const legs = [...byKey.values()];
  const keys = [...byKey.keys()].sort();
  try {
    return await conn.transaction(async (tx) => {
      const accountValues = sql.join(
        keys.map((key) => {
          const a = byKey.get(key)!.ref;
          const userId = a.kind === 'position' ? a.userId : null;
          const pool = a.kind === 'position' || a.kind === 'reserves' ? a.pool : null;
          const address = a.kind === 'reserves' ? a.address.toLowerCase() : null;
          return sql`(${key}, ${a.kind}, ${a.currency}, ${userId}::uuid, ${pool}, ${address})`;
        }),
        sql`, `,
      );
      await tx.execute(sql`insert into ledger_accounts (key, kind, currency, user_id, pool, address) values ${accountValues} on conflict (key) do nothing`);
      const [created] = await rows<{ id: string }>(
        tx,
        sql`insert into ledger_transactions (reference, kind, at, detail) values (${t.reference}, ${t.kind}, ${at.toISOString()}, ${t.detail ? JSON.stringify(t.detail) : null}::jsonb)
            on conflict (reference) do nothing returning id`,
      );
      if (!created) {
        await assertSameContents(tx, t, legs);
        return null;
      }
      const txId = created.id;
      await tx.execute(sql`select id from ledger_accounts where key in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)}) order by key for update`);
      const legValues = sql.join(legs.map((l) => sql`(${l.key}, ${l.amount.toString()}::numeric)`), sql`, `);
      await tx.execute(sql`
        insert into ledger_postings (transaction_id, account_id, amount)
        select ${txId}::bigint, a.id, v.amount
        from (values ${legValues}) v(key, amount) join ledger_accounts a on a.key = v.key`);
      const figureValues = sql.join(
        legs.map((l) => {
          const f = positionFigures(t.kind, l.ref.kind, l.amount);
          return sql`(${l.key}, ${l.amount.toString()}::numeric, ${f.deposited.toString()}::numeric, ${f.withdrawn.toString()}::numeric, ${f.interest.toString()}::numeric)`;
        }),
        sql`, `,
      );
      await tx.execute(sql`
        update ledger_accounts a set balance = a.balance + v.amount,
          deposited = a.deposited + v.deposited, withdrawn = a.withdrawn + v.withdrawn, interest = a.interest + v.interest
        from (values ${figureValues}) v(key, amount, deposited, withdrawn, interest)
        where a.key = v.key`);
      return Number(txId);
    });
  } catch (err) {
    if (isOverdrawn(err)) throw new InsufficientBalance(`${t.reference}: an account would be overdrawn`, { cause: err });
    throw err;
  }
}

/** A retry carries what was posted under its reference: the same kind, and the same amount on each account. */
async function assertSameContents(conn: Pick<Db, 'execute'>, t: LedgerTransaction, legs: { key: string; amount: bigint }[]) {
  const posted = await rows<{ kind: string; key: string | null; amount: string | null }>(
    conn,
    sql`select t.kind, a.key, p.amount::text as amount from ledger_transactions t
        left join ledger_postings p on p.transaction_id = t.id left join ledger_accounts a on a.id = p.account_id
        where t.reference = ${t.reference}`,
  );
  const before = new Map(posted.filter((p) => p.key !== null).map((p) => [p.key!, BigInt(p.amount!)]));
  const same =
    posted[0]?.kind === t.kind && before.size === legs.length && legs.every((l) => before.get(l.key) === l.amount);
  if (!same) throw new LedgerReferenceConflict(`${t.reference} was posted with other contents`);
}

/** Natural balances (what is owed to the user) of a user's positions, per pool and currency. */
export async function positionsOf(conn: Pick<Db, 'execute'>, userId: string, pool?: string) {
  const found = await rows<{ pool: string; currency: string; balance: string }>(
    conn,
    sql`select pool, currency, (-balance)::text as balance from ledger_accounts
        where kind = 'position' and user_id = ${userId} ${pool ? sql`and pool = ${pool}` : sql``}`,
  );
  return found.map((r) => ({ pool: r.pool, currency: r.currency, balance: BigInt(r.balance) }));
}
