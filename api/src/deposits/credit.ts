import type { LedgerTransaction } from '../ledger';

export type CreditableDeposit = {
  id: number;
  user_id: string;
  pool: string;
  currency: string;
  amount: string;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  to_address: string | null;
};

/**
 * The ledger transaction of a credited deposit: the pool address's reserves grow, and so does the
 * user's position. Its reference is the transfer's identity on the chain, so however many times
 * (and by whom: the job, the watcher) it is credited, it counts once.
 */
export function depositTransaction(d: CreditableDeposit, at = new Date()): LedgerTransaction {
  const amount = BigInt(d.amount);
  return {
    reference: `deposit:${d.chain_id}:${d.tx_hash}:${d.log_index}`,
    kind: 'deposit',
    at,
    detail: { deposit: d.id },
    postings: [
      { account: { kind: 'reserves', chainId: d.chain_id, address: d.to_address ?? '', pool: d.pool, currency: d.currency }, amount },
      { account: { kind: 'position', userId: d.user_id, pool: d.pool, currency: d.currency }, amount: -amount },
    ],
  };
}
