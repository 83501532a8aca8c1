// Proof of control of a declared address whose key no server holds: the cold address, offline by
// design. Its holder signs the snapshot's control message away from every server and an operator
// submits the signature. It counts only if it recovers exactly that address over exactly that
// snapshot's message; the balances then counted are the chain's at the snapshot's block, never a
// figure the operator gives. The signed header holds no reserves, so it stays as it was signed.
import { sql } from 'drizzle-orm';
import { verifyMessage } from 'ethers';
import { apiMessages as M, type DeclaredAddress, type SolvencyHeader, type SolvencySnapshot } from '@app/contracts';
import { ChainUnavailable, type ChainReader } from '../chain';
import { audit } from '../db/audit';
import type { Db } from '../db/client';
import { rows } from '../db/rows';
import { ApiError } from '../http/errors';
import { snapshotById, type StoredReserve } from './read';
import { balanceAt } from './snapshot';

/** Whether `signature` is `address`'s EIP-191 signature of `message`; garbage recovers nobody. */
function signedBy(message: string, signature: string, address: string): boolean {
  try {
    return verifyMessage(message, signature) === address;
  } catch {
    return false;
  }
}

/**
 * Records an operator-submitted proof of control for an address declared in a snapshot and
 * awaiting it, and adds that address's balances at the snapshot's block to its reserves. Refused
 * (nothing changes, the refusal audited) for an address not declared there, one already proven, a
 * signature that is not that address's over that snapshot's message, or a chain that cannot be read.
 */
export async function attestControl(db: Db, chain: ChainReader, by: { actor: string }, snapshotId: number, address: string, signature: string): Promise<SolvencySnapshot> {
  const snapshot = await snapshotById(db, snapshotId);
  const target = String(snapshotId);
  const refuse = async (status: number, message: string, code: string, reason: string) => {
    await audit(db, { actor: by.actor, action: 'solvency.attest-refused', target, after: { address, reason } });
    return new ApiError(status, message, code);
  };
  const declared = snapshot.addresses.find((a) => a.address.toLowerCase() === address.toLowerCase());
  if (!declared) throw await refuse(400, M.solvencyAttestNotDeclared, 'SOLVENCY_NOT_DECLARED', 'not declared');
  if (declared.signature !== null) throw await refuse(409, M.solvencyAttestProven, 'SOLVENCY_ALREADY_PROVEN', 'already proven');
  if (!signedBy(declared.message, signature, declared.address)) throw await refuse(400, M.solvencyAttestWrongSigner, 'SOLVENCY_WRONG_SIGNER', 'signature does not recover the address over the message');

  const header: SolvencyHeader = snapshot.header;
  let balances: StoredReserve[];
  try {
    balances = [];
    for (const currency of header.currencies) {
      balances.push({ address: declared.address, currency, balance: String(await balanceAt(chain, declared.address, currency, header.blockNumber)) });
    }
  } catch (err) {
    if (err instanceof ChainUnavailable) throw await refuse(503, M.solvencyAttestChainUnreachable, 'CHAIN_UNREACHABLE', `chain unreachable: ${err.message}`);
    throw err;
  }

  await db.transaction(async (tx) => {
    // Read again under the row's lock: of two submissions at once, one records and the other is told.
    const [row] = await rows<{ addresses: DeclaredAddress[]; reserves: StoredReserve[] }>(tx, sql`select addresses, reserves from solvency_snapshots where id = ${snapshotId} for update`);
    const addresses = row!.addresses.map((a) => (a.address === declared.address && a.signature === null ? { ...a, signature } : a));
    if (!addresses.some((a, i) => a !== row!.addresses[i])) throw new ApiError(409, M.solvencyAttestProven, 'SOLVENCY_ALREADY_PROVEN');
    const reserves = [...row!.reserves.filter((r) => r.address.toLowerCase() !== declared.address.toLowerCase()), ...balances];
    await tx.execute(sql`update solvency_snapshots set addresses = ${JSON.stringify(addresses)}::jsonb, reserves = ${JSON.stringify(reserves)}::jsonb where id = ${snapshotId}`);
    await audit(tx, {
      actor: by.actor,
      action: 'solvency.attested',
      target,
      before: { address: declared.address, role: declared.role, signature: null },
      after: { address: declared.address, role: declared.role, message: declared.message, signature, blockNumber: header.blockNumber, balances: balances.map(({ currency, balance }) => ({ currency, balance })) },
    });
  });
  return snapshotById(db, snapshotId);
}
