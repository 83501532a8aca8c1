import { randomBytes } from 'node:crypto';
import { and, asc, eq, or, sql } from 'drizzle-orm';
import { getAddress, verifyMessage } from 'ethers';
import { SiweMessage } from 'siwe';
import { isBrandHost, type BrandRegistry } from '@app/contracts';
import type { Db } from '../db/client';
import { deposits, poolAddresses, unclaimedTransfers, users } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import { audit } from '../db/audit';

/** How long the sender has to sign the claim message the operator hands over. */
const CLAIM_MESSAGE_LIFETIME_MS = 7 * 86_400_000;
/** Tolerated clock difference between the signer's device and the server. */
const CLOCK_SKEW_MS = 60_000;

type Unclaimed = typeof unclaimedTransfers.$inferSelect;
export type ClaimSettings = { brands: BrandRegistry; publicUrl: string };

export async function listUnclaimed(db: Db, status = 'unclaimed') {
  const list = await db
    .select()
    .from(unclaimedTransfers)
    .where(
      and(
        eq(unclaimedTransfers.status, status),
        // Its owner reported it (the watcher and a report can cross): it is a deposit, not the operator's to place.
        sql`not exists (select 1 from ${deposits} d where d.chain_id = ${unclaimedTransfers.chainId} and d.tx_hash = ${unclaimedTransfers.txHash} and d.log_index = ${unclaimedTransfers.logIndex})`,
      ),
    )
    .orderBy(asc(unclaimedTransfers.id))
    .limit(500);
  return list.map((u) => ({
    id: u.id,
    currency: u.currency,
    amount: String(u.amount),
    from: u.fromAddress,
    to: u.toAddress,
    pool: u.pool,
    transaction: u.txHash,
    logIndex: u.logIndex,
    blockNumber: u.blockNumber,
    createdAt: u.createdAt.toISOString(),
  }));
}

/**
 * What the sender signs: the transfer (chain, transaction, log position, amount), the pool and the
 * account it goes to. Naming all of them makes a signature good for this one assignment only, and
 * the transfer is assigned once, so the message needs no server-side nonce.
 */
export function claimStatement(u: Pick<Unclaimed, 'chainId' | 'txHash' | 'logIndex' | 'amount' | 'currency'>, userId: string, pool: string): string {
  return `I sent transfer ${u.txHash.toLowerCase()} log ${u.logIndex} on chain ${u.chainId} (${String(u.amount)} ${u.currency} base units): credit it to account ${userId} in pool ${pool}.`;
}

const alphanumeric = (n: number) => Array.from(randomBytes(n), (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[b % 62]).join('');

async function transferOf(db: Db, id: number): Promise<Unclaimed> {
  const [u] = await db.select().from(unclaimedTransfers).where(eq(unclaimedTransfers.id, id));
  if (!u) throw new ApiError(404, `no unclaimed transfer ${id}`, 'NOT_FOUND');
  if (u.status !== 'unclaimed') throw badRequest(`transfer ${id} is already ${u.status}`, 'ALREADY_ASSIGNED');
  return u;
}

async function accountOf(db: Db, account: string): Promise<string> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(account);
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(uuid ? or(eq(users.id, account), eq(users.email, account.toLowerCase())) : eq(users.email, account.toLowerCase()));
  if (!user) throw badRequest(`no account '${account}'`, 'NO_ACCOUNT', { account: 'unknown account' });
  return user.id;
}

async function checkPool(db: Db, u: Unclaimed, pool: string) {
  const [accepts] = await db
    .select({ pool: poolAddresses.pool })
    .from(poolAddresses)
    .where(and(eq(poolAddresses.pool, pool), eq(poolAddresses.currency, u.currency), eq(poolAddresses.chainId, u.chainId), eq(poolAddresses.address, u.toAddress)));
  if (!accepts) throw badRequest(`${pool} does not receive ${u.currency} at ${u.toAddress}`, 'POOL_CURRENCY', { pool: 'not the pool of this address' });
}

/** The EIP-4361 message the operator hands to the sending wallet's owner to sign. */
export async function claimMessage(db: Db, settings: ClaimSettings, id: number, account: string, pool: string) {
  const u = await transferOf(db, id);
  await checkPool(db, u, pool);
  const userId = await accountOf(db, account);
  const site = new URL(settings.publicUrl);
  const issuedAt = new Date();
  const message = new SiweMessage({
    domain: site.host,
    address: getAddress(u.fromAddress),
    statement: claimStatement(u, userId, pool),
    uri: site.origin,
    version: '1',
    chainId: u.chainId,
    nonce: alphanumeric(17),
    issuedAt: issuedAt.toISOString(),
    expirationTime: new Date(issuedAt.getTime() + CLAIM_MESSAGE_LIFETIME_MS).toISOString(),
  }).prepareMessage();
  return { id, userId, pool, signer: u.fromAddress, message };
}

const proofError = (why: string) => badRequest(`the proof from the sending wallet is refused: ${why}`, 'CLAIM_PROOF', { signature: why });

/** Checks that the sending wallet signed this very assignment; answers nothing, throws why not. */
function checkProof(settings: ClaimSettings, u: Unclaimed, userId: string, pool: string, proof: { message: string; signature: string }) {
  let msg: SiweMessage;
  try {
    msg = new SiweMessage(proof.message);
  } catch {
    throw proofError('the message is not an EIP-4361 message');
  }
  let signer: string;
  try {
    signer = verifyMessage(proof.message, proof.signature).toLowerCase();
  } catch {
    throw proofError('the signature is malformed');
  }
  if (signer !== u.fromAddress.toLowerCase() || msg.address.toLowerCase() !== signer) throw proofError(`it is not signed by the sending wallet ${u.fromAddress}`);
  if (msg.statement !== claimStatement(u, userId, pool)) throw proofError('it does not name this transfer, this account and this pool');
  if (msg.chainId !== u.chainId) throw proofError(`it is not for chain ${u.chainId}`);
  let uriHost = '';
  try {
    uriHost = new URL(msg.uri).host.toLowerCase();
  } catch {
    /* refused below */
  }
  if (!isBrandHost(settings.brands, msg.domain) || uriHost !== msg.domain.toLowerCase()) throw proofError('it is not for one of our sites');
  const now = Date.now();
  const issued = msg.issuedAt ? Date.parse(msg.issuedAt) : NaN;
  if (!Number.isFinite(issued) || issued > now + CLOCK_SKEW_MS) throw proofError('its issue time is missing or in the future');
  if (!msg.expirationTime || Date.parse(msg.expirationTime) <= now || Date.parse(msg.expirationTime) - issued > CLAIM_MESSAGE_LIFETIME_MS) throw proofError('it has expired or lives too long');
  if (msg.notBefore && Date.parse(msg.notBefore) > now + CLOCK_SKEW_MS) throw proofError('it is not valid yet');
  return signer;
}

/**
 * Gives an unclaimed transfer to an account in a pool, once, and only with the sending wallet's
 * signed word for it (`claimMessage`): the operator alone cannot move someone's transfer to an
 * account of their choosing. It becomes that user's pending deposit (the deposit job re-reads it
 * from the chain and credits it after N confirmations); the proof is kept in the audit row.
 */
export async function assignUnclaimed(
  db: Db,
  settings: ClaimSettings,
  actor: string,
  id: number,
  account: string,
  pool: string,
  proof: { message: string; signature: string },
) {
  const u = await transferOf(db, id);
  await checkPool(db, u, pool);
  const userId = await accountOf(db, account);
  const signer = checkProof(settings, u, userId, pool, proof);
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(unclaimedTransfers)
      .set({ status: 'assigned', assignedBy: actor })
      .where(and(eq(unclaimedTransfers.id, id), eq(unclaimedTransfers.status, 'unclaimed')))
      .returning({ id: unclaimedTransfers.id });
    if (!moved.length) throw badRequest(`transfer ${id} is already assigned`, 'ALREADY_ASSIGNED');
    const [d] = await tx
      .insert(deposits)
      .values({
        userId,
        pool,
        currency: u.currency,
        amount: String(u.amount),
        txHash: u.txHash,
        chainId: u.chainId,
        logIndex: u.logIndex,
        fromAddress: u.fromAddress,
        toAddress: u.toAddress,
        tokenAddress: u.tokenAddress,
        blockNumber: u.blockNumber,
        blockHash: u.blockHash,
      })
      .onConflictDoNothing({ target: [deposits.chainId, deposits.txHash, deposits.logIndex] })
      .returning({ id: deposits.id });
    if (!d) throw badRequest(`transfer ${id} is already a deposit`, 'DEPOSIT_DUPLICATE');
    await tx.update(unclaimedTransfers).set({ depositId: d.id }).where(eq(unclaimedTransfers.id, id));
    await audit(tx, {
      actor,
      action: 'unclaimed.assign',
      target: String(id),
      before: { status: 'unclaimed' },
      after: { status: 'assigned', userId, pool, deposit: d.id, proof: { signer, message: proof.message, signature: proof.signature } },
    });
    return { id, deposit: d.id, userId, pool };
  });
}

/**
 * The owner reported the transfer themselves (their wallet is linked now): its unclaimed row, if
 * the watcher made one, is no longer the operator's to place. In the caller's transaction.
 */
export async function markReported(tx: Pick<Db, 'update'>, chainId: number, rows: { id: number; txHash: string; logIndex: number }[]) {
  for (const r of rows) {
    await tx
      .update(unclaimedTransfers)
      .set({ status: 'reported', depositId: r.id })
      .where(and(eq(unclaimedTransfers.chainId, chainId), eq(unclaimedTransfers.txHash, r.txHash), eq(unclaimedTransfers.logIndex, r.logIndex), eq(unclaimedTransfers.status, 'unclaimed')));
  }
}
