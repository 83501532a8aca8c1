// Refills of the payout float (issue 26): one operator asks for an amount of a currency to move
// from a pool's deposit address to the float; another approves (four eyes, as a large withdrawal's
// second approval: the requester never approves their own). The sweep job then has the signer sign
// it, and the signer checks the two approvers itself.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FloatRefillBody } from '@app/contracts';
import type { Db } from '../db/client';
import { audit } from '../db/audit';
import { floatRefills, poolAddresses } from '../db/schema';
import { rows } from '../db/rows';
import { ApiError, badRequest } from '../http/errors';
import type { Approver } from './approvals';

const shown = (f: typeof floatRefills.$inferSelect) => ({ ...f, createdAt: f.createdAt.toISOString(), decidedAt: f.decidedAt?.toISOString() ?? null });

export async function listRefills(db: Db) {
  return { items: (await db.select().from(floatRefills).orderBy(desc(floatRefills.id)).limit(200)).map(shown) };
}

/** Asks for a refill; the amount must be booked at the pool's deposit address (money the house holds there). */
export async function requestRefill(db: Db, who: Approver, chainId: number, body: FloatRefillBody) {
  const [pa] = await db
    .select({ address: sql<string>`lower(${poolAddresses.address})` })
    .from(poolAddresses)
    .where(and(eq(poolAddresses.pool, body.pool), eq(poolAddresses.currency, body.currency), eq(poolAddresses.chainId, chainId)));
  if (!pa) throw badRequest(`the ${body.pool} pool has no ${body.currency} deposit address`, 'NO_DEPOSIT_ADDRESS');
  const [held] = await rows<{ balance: string }>(db, sql`select balance::text as balance from ledger_accounts where key = ${`reserves:${chainId}:${pa.address}:${body.currency}`}`);
  const amount = BigInt(body.amount);
  if (amount <= 0n) throw badRequest('a refill moves a positive amount', 'INVALID_AMOUNT');
  if (amount > BigInt(held?.balance ?? '0')) throw badRequest(`the deposit address holds ${held?.balance ?? '0'} ${body.currency} on the books, less than ${body.amount}`, 'NOT_HELD');
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(floatRefills).values({ chainId, pool: body.pool, currency: body.currency, fromAddress: pa.address, amount: body.amount, requestedBy: who.id }).returning();
    await audit(tx, { actor: who.actor, action: 'float.refill.request', target: String(row!.id), after: { pool: body.pool, currency: body.currency, amount: body.amount, from: pa.address } });
    return shown(row!);
  });
}

/** The second operator's approval; the one who asked is refused. */
export async function approveRefill(db: Db, who: Approver, id: number) {
  return db.transaction(async (tx) => {
    const [f] = await tx.select().from(floatRefills).where(eq(floatRefills.id, id)).for('update');
    if (!f) throw new ApiError(404, `no refill ${id}`, 'NOT_FOUND');
    if (f.requestedBy === who.id) throw new ApiError(403, 'A second operator approves a refill: not the one who asked for it.', 'OWN_REQUEST');
    if (f.status !== 'awaiting_approval') throw badRequest(`refill ${id} is ${f.status}, not awaiting approval`, 'NOT_AWAITING_APPROVAL');
    const [row] = await tx.update(floatRefills).set({ status: 'approved', approvedBy: who.id, decidedAt: new Date() }).where(eq(floatRefills.id, id)).returning();
    await audit(tx, { actor: who.actor, action: 'float.refill.approve', target: String(id), before: { status: 'awaiting_approval' }, after: { status: 'approved' } });
    return shown(row!);
  });
}
