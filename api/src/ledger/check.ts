import { sql } from 'drizzle-orm';
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
  transactions: number;
  /** Transactions whose postings do not sum to zero in some currency. */
  unbalanced: { transactionId: number; currency: string; sum: string }[];
  /** Positions (and other liabilities) below zero. */
  negative: { key: string; balance: string }[];
  /** Accounts whose maintained balance differs from the sum of their postings. */
  drifted: { key: string; balance: string; entries: string }[];
  currencies: CurrencyTotals[];
};

/**
 * The three proofs of `operator ledger check`: every transaction sums to zero per currency, no
 * position is negative (with maintained balances equal to their entries), and per currency the
 * positions plus what is in flight (and referral rewards payable) equal the reserves minus the house.
 */
export async function checkLedger(db: Pick<Db, 'execute'>): Promise<LedgerCheck> {
  const [count] = await rows<{ n: string }>(db, sql`select count(*)::text as n from ledger_transactions`);
  const unbalanced = await rows<{ transaction_id: string; currency: string; sum: string }>(
    db,
    sql`select transaction_id::text, currency, sum(amount)::text as sum from ledger_postings group by transaction_id, currency having sum(amount) <> 0 limit 100`,
  );
  const negative = await rows<{ key: string; balance: string }>(
    db,
    sql`select key, (-balance)::text as balance from ledger_accounts
        where kind in ('position', 'withdrawals_in_flight', 'referral_rewards_payable') and balance > 0 limit 100`,
  );
  const drifted = await rows<{ key: string; balance: string; entries: string }>(
    db,
    sql`select a.key, a.balance::text as balance, coalesce(p.total, 0)::text as entries
        from ledger_accounts a left join (select account_id, sum(amount) as total from ledger_postings group by account_id) p on p.account_id = a.id
        where a.balance <> coalesce(p.total, 0) limit 100`,
  );
  const totals = await rows<{ currency: string; kind: string; total: string }>(
    db,
    sql`select currency, kind, sum(balance)::text as total from ledger_accounts group by currency, kind order by currency`,
  );
  const byCurrency = new Map<string, Record<string, bigint>>();
  for (const t of totals) {
    const m = byCurrency.get(t.currency) ?? {};
    m[t.kind] = BigInt(t.total);
    byCurrency.set(t.currency, m);
  }
  const currencies: CurrencyTotals[] = [...byCurrency].map(([currency, m]) => {
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
  return {
    ok: !unbalanced.length && !negative.length && !drifted.length && currencies.every((c) => c.balanced),
    transactions: Number(count?.n ?? 0),
    unbalanced: unbalanced.map((u) => ({ transactionId: Number(u.transaction_id), currency: u.currency, sum: u.sum })),
    negative,
    drifted,
    currencies,
  };
}
