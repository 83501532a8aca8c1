import { and, asc, eq, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { deposits, poolAddresses, unclaimedTransfers, users } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import { audit } from '../db/audit';

export async function listUnclaimed(db: Db, status = 'unclaimed') {
  const list = await db.select().from(unclaimedTransfers).where(eq(unclaimedTransfers.status, status)).orderBy(asc(unclaimedTransfers.id)).limit(500);
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
 * Gives an unclaimed transfer to an account in a pool: it becomes that user's pending deposit (the
 * deposit job re-reads it from the chain and credits it after N confirmations), once.
 */
export async function assignUnclaimed(db: Db, actor: string, id: number, account: string, pool: string) {
  const [u] = await db.select().from(unclaimedTransfers).where(eq(unclaimedTransfers.id, id));
  if (!u) throw new ApiError(404, `no unclaimed transfer ${id}`, 'NOT_FOUND');
  if (u.status !== 'unclaimed') throw badRequest(`transfer ${id} is already ${u.status}`, 'ALREADY_ASSIGNED');
  const [accepts] = await db
    .select({ pool: poolAddresses.pool })
    .from(poolAddresses)
    .where(and(eq(poolAddresses.pool, pool), eq(poolAddresses.currency, u.currency), eq(poolAddresses.chainId, u.chainId), eq(poolAddresses.address, u.toAddress)));
  if (!accepts) throw badRequest(`${pool} does not receive ${u.currency} at ${u.toAddress}`, 'POOL_CURRENCY', { pool: 'not the pool of this address' });
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(account);
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(uuid ? or(eq(users.id, account), eq(users.email, account.toLowerCase())) : eq(users.email, account.toLowerCase()));
  if (!user) throw badRequest(`no account '${account}'`, 'NO_ACCOUNT', { account: 'unknown account' });
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
        userId: user.id,
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
    await audit(tx, { actor, action: 'unclaimed.assign', target: String(id), before: { status: 'unclaimed' }, after: { status: 'assigned', userId: user.id, pool, deposit: d.id } });
    return { id, deposit: d.id, userId: user.id, pool };
  });
}
