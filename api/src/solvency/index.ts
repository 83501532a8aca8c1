// Proof of solvency (docs/proof-of-solvency.md): snapshots of every user's liabilities in a Merkle
// sum tree with a signed header, the reserves at the same block, and each user's proof.
import { sql } from 'drizzle-orm';
import { Wallet } from 'ethers';
import { rows } from '../db/rows';
import type { Services } from '../services';
import { takeSnapshot, type SnapshotSettings, type SnapshotTaken } from './snapshot';

export { controlMessage, splitVector, takeSnapshot, type SnapshotSettings, type SnapshotTaken } from './snapshot';
export { listSnapshots, mine, nonceOf, proofOf, snapshotById } from './read';
export { attestControl } from './attest';

/** The snapshot settings of a running API. */
export function snapshotSettings(s: Pick<Services, 'config' | 'signer'>): SnapshotSettings {
  const c = s.config;
  return {
    chainId: c.deposits.chainId,
    confirmations: c.deposits.confirmations,
    solvencyKey: c.solvencyKey,
    brandTitle: c.brands.defaultBrand.title,
    custody: s.signer,
    treasuryKey: c.money.treasuryKey,
  };
}

/** The published signer's address; null when no key is configured. */
export const signerAddress = (s: Pick<Services, 'config'>) => (s.config.solvencyKey ? new Wallet(s.config.solvencyKey).address : null);

/**
 * The daily snapshot: once the interest of the last closed day has run in every pool, one snapshot
 * marked with that day. A second run, or a second replica, finds the day taken (its unique key) and
 * does nothing.
 */
export async function dailySnapshot(s: Services, day: string): Promise<SnapshotTaken | { skipped: string }> {
  const [state] = await rows<{ taken: boolean; waiting: number }>(
    s.db,
    sql`select exists (select 1 from solvency_snapshots where day = ${day}) as taken,
               (select count(*)::int from pools p
                where not exists (select 1 from interest_days d where d.pool = p.name and d.day = ${day})
                  -- A pool with no position by the end of that day has no interest to run for it.
                  and exists (select 1 from ledger_accounts a join ledger_postings lp on lp.account_id = a.id
                              where a.kind = 'position' and a.pool = p.name and lp.at < ${day}::date + 1)) as waiting`,
  );
  if (state?.taken) return { skipped: `the snapshot of ${day} is taken` };
  if (state?.waiting) return { skipped: `the interest of ${day} has not run in every pool` };
  return takeSnapshot(s.db, s.chain, snapshotSettings(s), { actor: 'job', day });
}
