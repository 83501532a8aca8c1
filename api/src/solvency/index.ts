// Proof of solvency (docs/proof-of-solvency.md): snapshots of every user's liabilities in a Merkle
// sum tree with a signed header, the reserves at the same block, and each user's proof.
import { sql } from 'drizzle-orm';
import { getAddress } from 'ethers';
import { raiseAlert, resolveAlert } from '../db/alerts';
import { rows } from '../db/rows';
import { SignerRefused } from '../payouts';
import type { Services } from '../services';
import { takeSnapshot, type HeaderSigner, type SnapshotSettings, type SnapshotTaken } from './snapshot';

export { controlMessage, splitVector, takeSnapshot, type HeaderSigner, type SnapshotSettings, type SnapshotTaken } from './snapshot';
export { listSnapshots, mine, nonceOf, proofOf, snapshotById } from './read';
export { attestControl } from './attest';

/**
 * The solvency key's signer: the signer process, which signs only a well-formed header; a refusal
 * is alerted (`solvency-refused`), as the signer's other refusals are. Null when the signer holds
 * no solvency key or cannot be reached (no snapshot is taken then).
 */
async function headerSigner(s: Pick<Services, 'db' | 'log' | 'signer'>): Promise<HeaderSigner | null> {
  const custody = s.signer;
  const address = await signerAddress(s);
  if (!custody || !address) return null;
  return {
    address,
    // Called inside the snapshot's transaction: the alert is not awaited, since the embedded
    // database's one connection would queue it behind that very transaction.
    signMessage: async (header) => {
      const later = (p: Promise<unknown>) => void p.catch((err: unknown) => s.log.warn({ err }, 'solvency alert not updated'));
      try {
        const signature = await custody.signHeader(header);
        later(resolveAlert(s.db, 'solvency-refused'));
        return signature;
      } catch (err) {
        if (err instanceof SignerRefused) later(raiseAlert(s.db, s.log, { key: 'solvency-refused', kind: 'solvency-refused', message: err.message, detail: {} }));
        throw err;
      }
    },
  };
}

/** The snapshot settings of a running API. */
export async function snapshotSettings(s: Pick<Services, 'config' | 'signer' | 'db' | 'log'>): Promise<SnapshotSettings> {
  const c = s.config;
  return {
    chainId: c.deposits.chainId,
    confirmations: c.deposits.confirmations,
    solvency: await headerSigner(s),
    brandTitle: c.brands.defaultBrand.title,
    custody: s.signer,
  };
}

/** The published solvency signer's address (checksummed): the signer's solvency key's; null when there is none or the signer cannot be reached. */
export async function signerAddress(s: Pick<Services, 'signer'>): Promise<string | null> {
  const solvency = s.signer ? await s.signer.addresses().then((a) => a.solvency, () => null) : null;
  return solvency ? getAddress(solvency) : null;
}

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
                  and exists (select 1 from ledger_accounts a join ledger_postings lp on lp.account_id = a.id join ledger_transactions t on t.id = lp.transaction_id
                              where a.kind = 'position' and a.pool = p.name and t.at < ${day}::date + 1)) as waiting`,
  );
  if (state?.taken) return { skipped: `the snapshot of ${day} is taken` };
  if (state?.waiting) return { skipped: `the interest of ${day} has not run in every pool` };
  return takeSnapshot(s.db, s.chain, await snapshotSettings(s), { actor: 'job', day });
}
