import { sql } from 'drizzle-orm';
import { ERC20_ABI, TOKENS } from '@app/web3';
import { Interface } from 'ethers';
import type { Db } from '../db/client';
import type { ChainReader } from '../chain';
import { rows } from '../db/rows';

export type ReconcileRow = {
  pool: string;
  currency: string;
  address: string;
  /** Base units held at the address on chain; null when the node cannot be reached. */
  onChain: string | null;
  /** The ledger's reserves account of that address and currency. */
  books: string;
  /** onChain − books; null when the node cannot be reached. Reported, never corrected. */
  difference: string | null;
  /** What the books owe at this address in this pool and currency (positions and unpaid withdrawals). */
  liabilities: string;
  /** Reserves ≥ liabilities on chain; null when the node cannot be reached. */
  covered: boolean | null;
};

/** Withdrawals whose amount is still owed at the paying address (not paid, not returned). */
const UNPAID = sql`('requested', 'awaiting_approval', 'waiting_funds', 'sending', 'cancelling')`;

/**
 * What the books owe at each paying address, per pool and currency: the positions (principal and
 * interest credited) and the withdrawals not yet paid; and ETH at every paying address, for gas.
 */
export async function liabilities(db: Pick<Db, 'execute'>, chainId: number) {
  return rows<{ pool: string; currency: string; address: string; owed: string }>(
    db,
    sql`with pa as (select pool, currency, lower(address) as address from pool_addresses where chain_id = ${chainId}),
             pos as (select pool, currency, -balance as owed from pool_totals),
             fl as (select pool, currency, sum(amount) as owed from withdrawals where status in ${UNPAID} group by pool, currency)
        select pa.pool, pa.currency, pa.address, (coalesce(pos.owed, 0) + coalesce(fl.owed, 0))::text as owed
        from pa left join pos using (pool, currency) left join fl using (pool, currency)
        union all
        -- A token pool's paying address owes no ETH, but pays gas in it.
        select min(pool), 'ETH', address, '0' from pa where address not in (select address from pa where currency = 'ETH') group by address
        order by 1, 2`,
  );
}

/**
 * What custody moved out of each address (to cold, or to refill the float), per currency: money the
 * house still holds for that address's liabilities, at another of its addresses.
 */
export async function movedToCustody(db: Pick<Db, 'execute'>, chainId: number): Promise<Map<string, bigint>> {
  const found = await rows<{ address: string; currency: string; moved: string }>(
    db,
    sql`select a.address, a.currency, (-sum(p.amount))::text as moved
        from ledger_postings p join ledger_transactions t on t.id = p.transaction_id join ledger_accounts a on a.id = p.account_id
        where t.kind = 'custody_transfer' and p.amount < 0 and a.key like ${`reserves:${chainId}:%`}
        group by a.address, a.currency`,
  );
  return new Map(found.map((r) => [`${r.address}:${r.currency}`, BigInt(r.moved)]));
}

const erc20 = new Interface(ERC20_ABI as unknown as string[]);

async function onChainBalance(chain: ChainReader, address: string, currency: string): Promise<bigint | null> {
  try {
    if (currency === 'ETH') return BigInt(await chain.call<string>('eth_getBalance', [address, 'latest']));
    const token = TOKENS[1][currency as keyof (typeof TOKENS)[1]];
    if (!token) return null;
    const data = erc20.encodeFunctionData('balanceOf', [address]);
    return BigInt(await chain.call<string>('eth_call', [{ to: token.address, data }, 'latest']));
  } catch {
    return null;
  }
}

/**
 * For each pool address and currency (the operator's receiving addresses, and any address the
 * ledger holds reserves at, e.g. gas at a hot wallet), the on-chain balance against the ledger's
 * reserves account, and what the books owe there (reserves ≥ liabilities, which the treasury job
 * keeps and alerts on). A difference is reported, never fixed: the hot wallets' gas money, or a
 * transfer nobody has claimed yet, shows here.
 */
export async function reconcile(db: Pick<Db, 'execute'>, chain: ChainReader, chainId: number, pool?: string): Promise<ReconcileRow[]> {
  const found = await rows<{ pool: string; currency: string; address: string; books: string }>(
    db,
    sql`with places as (
          select pool, currency, lower(address) as address from pool_addresses where chain_id = ${chainId}
          union
          select pool, currency, address from ledger_accounts where kind = 'reserves' and key like ${`reserves:${chainId}:%`}
        )
        select p.pool, p.currency, p.address, coalesce(a.balance, 0)::text as books
        from places p
        left join ledger_accounts a on a.key = 'reserves:' || ${chainId}::text || ':' || p.address || ':' || p.currency
        ${pool ? sql`where p.pool = ${pool}` : sql``}
        order by p.pool, p.currency, p.address`,
  );
  const owed = new Map((await liabilities(db, chainId)).map((l) => [`${l.pool}:${l.currency}:${l.address}`, l.owed]));
  const moved = await movedToCustody(db, chainId);
  // An address shared by pools is one balance on chain: listed once per pool, compared once.
  const seen = new Set<string>();
  const out: ReconcileRow[] = [];
  for (const r of found) {
    const key = `${r.address}:${r.currency}`;
    if (seen.has(key) && !pool) continue;
    seen.add(key);
    const onChain = await onChainBalance(chain, r.address, r.currency);
    out.push({
      pool: r.pool,
      currency: r.currency,
      address: r.address,
      onChain: onChain === null ? null : String(onChain),
      books: r.books,
      difference: onChain === null ? null : String(onChain - BigInt(r.books)),
      liabilities: owed.get(`${r.pool}:${r.currency}:${r.address}`) ?? '0',
      // What was swept to cold or refilled the float still covers what the address owes.
      covered: onChain === null ? null : onChain + (moved.get(key) ?? 0n) >= BigInt(owed.get(`${r.pool}:${r.currency}:${r.address}`) ?? '0'),
    });
  }
  return out;
}
