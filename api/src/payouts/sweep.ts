import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { floatRefills, poolAddresses, sweeps } from '../db/schema';
import type { ChainReader } from '../chain';
import { post } from '../ledger';
import { rows } from '../db/rows';
import { raiseAlert, resolveAlert } from '../db/alerts';
import { balanceOf, estimateGas, feeCaps, nextNonce, releaseNonce, transferOf, type RawReceipt } from './chain-tx';
import type { PayoutSigner } from './signer-client';
import { GAS_RESERVE } from './treasury';

export type SweepSettings = { chainId: number; confirmations: number; rebroadcastSeconds: number };
export type SweepResult = { opened: number; signed: number; refused: number; settled: number };

type SweepRow = typeof sweeps.$inferSelect;
type Opening = { kind: 'sweep' | 'refill'; refillId: number | null; pool: string; currency: string; from: string; to: string; amount: bigint };

/**
 * Moves money out of the deposit addresses, signed by the signer (the API holds none of their
 * keys): each address's booked funds to the operator's cold address (a sweep), and the float's
 * refills two operators approved. Safe to run twice, on two replicas and after a crash:
 *
 * - a transfer is a row first (status signing), its nonce taken in the same transaction, and at
 *   most one is open per address and currency (a unique index: a second run opens none);
 * - signed bytes are stored before they are broadcast (a crash re-sends the same bytes), and a row
 *   left signing by a crash is signed again at its own nonce;
 * - once final it is booked once (references `custody:<id>:moved` and `custody:<id>:gas`): reserves
 *   from the deposit address to cold or the float, and the gas, paid by the deposit address, to the
 *   house as a payout's is.
 *
 * Only what the books hold at an address is swept, never more than is on chain: a transfer nobody
 * claimed yet stays where it is, and so does ETH for the gas of the address's next sweeps.
 */
export function createSweepJob(db: Db, chain: ChainReader, signer: PayoutSigner | null, settings: SweepSettings, log: FastifyBaseLogger) {
  /** The ledger's reserves at an address, per currency. */
  async function booked(address: string) {
    const found = await rows<{ currency: string; balance: string }>(
      db,
      sql`select currency, balance::text as balance from ledger_accounts where kind = 'reserves' and key like ${`reserves:${settings.chainId}:${address}:%`}`,
    );
    return new Map(found.map((r) => [r.currency, BigInt(r.balance)]));
  }

  /** A new open transfer with its nonce, or null when one is open there already. */
  async function open(o: Opening): Promise<SweepRow | null> {
    return db
      .transaction(async (tx) => {
        const nonce = await nextNonce(tx, chain, settings.chainId, o.from);
        const [row] = await tx
          .insert(sweeps)
          .values({ kind: o.kind, refillId: o.refillId, chainId: settings.chainId, pool: o.pool, currency: o.currency, fromAddress: o.from, toAddress: o.to, amount: String(o.amount), nonce })
          .onConflictDoNothing()
          .returning();
        // Another run opened one meanwhile: its nonce goes back unused with the rollback.
        if (!row) throw new Error('sweep already open');
        return row;
      })
      .catch((err: Error) => (err.message === 'sweep already open' ? null : Promise.reject(err)));
  }

  async function sign(row: SweepRow, result: SweepResult) {
    if (!signer) return;
    const transfer = transferOf(row.currency, row.toAddress, BigInt(row.amount));
    const estimate = await estimateGas(chain, row.fromAddress, transfer);
    if (!('gasLimit' in estimate)) return log.warn({ sweep: row.id, estimate }, 'a sweep cannot be estimated now; tried again later');
    const fees = await feeCaps(chain);
    const what = row.kind === 'refill' ? { kind: 'refill' as const, refillId: row.refillId! } : { kind: 'sweep' as const };
    const answer = await signer.sign(what, { chainId: row.chainId, from: row.fromAddress, nonce: row.nonce, gasLimit: estimate.gasLimit, ...fees, ...transfer });
    if ('refused' in answer) {
      await db.transaction(async (tx) => {
        const done = await tx
          .update(sweeps)
          .set({ status: 'refused', refusal: answer.refused.slice(0, 500), updatedAt: new Date() })
          .where(and(eq(sweeps.id, row.id), eq(sweeps.status, 'signing')))
          .returning({ id: sweeps.id });
        if (!done.length) return;
        await releaseNonce(tx, row.chainId, row.fromAddress, row.nonce);
        if (row.refillId) await tx.update(floatRefills).set({ status: 'refused' }).where(eq(floatRefills.id, row.refillId));
        await raiseAlert(tx, log, {
          key: `sweep-refused:${row.id}`,
          kind: 'sweep-refused',
          message: `${row.kind} ${row.id} of ${row.amount} ${row.currency} from ${row.fromAddress}: the signer refused (${answer.refused})`,
          detail: { sweep: row.id, kind: row.kind, reason: answer.refused },
        });
      });
      result.refused++;
      return;
    }
    const stored = await db
      .update(sweeps)
      .set({ status: 'sending', signedTx: answer.signedTx, txHash: answer.hash, updatedAt: new Date() })
      .where(and(eq(sweeps.id, row.id), eq(sweeps.status, 'signing')))
      .returning();
    if (!stored.length) return;
    result.signed++;
    await broadcast(stored[0]!);
  }

  async function broadcast(row: SweepRow) {
    await chain.call('eth_sendRawTransaction', [row.signedTx]).catch((err: Error) => {
      if (!/already known|nonce too low|already imported|known transaction/i.test(err.message)) log.warn({ err, sweep: row.id }, 'sweep broadcast failed; retried later');
    });
    await db.update(sweeps).set({ broadcastAt: new Date(), updatedAt: new Date() }).where(eq(sweeps.id, row.id));
  }

  async function settle(row: SweepRow, latest: number, result: SweepResult) {
    const receipt = await chain.call<RawReceipt>('eth_getTransactionReceipt', [row.txHash]);
    if (!receipt) {
      if (!row.broadcastAt || Date.now() - row.broadcastAt.getTime() >= settings.rebroadcastSeconds * 1000) await broadcast(row);
      return;
    }
    const block = Number(BigInt(receipt.blockNumber));
    if (latest - block + 1 < settings.confirmations) return;
    const ok = receipt.status === '0x1';
    const gas = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
    await db.transaction(async (tx) => {
      const done = await tx
        .update(sweeps)
        .set({ status: ok ? 'done' : 'failed', blockNumber: block, updatedAt: new Date() })
        .where(and(eq(sweeps.id, row.id), eq(sweeps.status, 'sending')))
        .returning({ id: sweeps.id });
      if (!done.length) return;
      const reserves = (address: string, currency: string) => ({ kind: 'reserves' as const, chainId: row.chainId, address, pool: row.pool, currency });
      if (ok)
        await post(tx, {
          reference: `custody:${row.id}:moved`,
          kind: 'custody_transfer',
          detail: { sweep: row.id, kind: row.kind, tx: row.txHash },
          postings: [
            { account: reserves(row.toAddress, row.currency), amount: BigInt(row.amount) },
            { account: reserves(row.fromAddress, row.currency), amount: -BigInt(row.amount) },
          ],
        });
      if (gas > 0n)
        await post(tx, {
          reference: `custody:${row.id}:gas`,
          kind: 'custody_gas',
          detail: { sweep: row.id, tx: row.txHash },
          postings: [
            { account: { kind: 'house', currency: 'ETH' }, amount: gas },
            { account: reserves(row.fromAddress, 'ETH'), amount: -gas },
          ],
        });
      if (row.refillId) await tx.update(floatRefills).set({ status: ok ? 'done' : 'failed' }).where(eq(floatRefills.id, row.refillId));
      if (!ok) await raiseAlert(tx, log, { key: `sweep-failed:${row.id}`, kind: 'sweep-failed', message: `${row.kind} ${row.id} reverted on chain`, detail: { sweep: row.id, tx: row.txHash } });
      else await resolveAlert(tx, `sweep-failed:${row.id}`);
    });
    result.settled++;
  }

  /** What an address's sweep moves of a currency: what the books hold there, within what is on chain and its gas. */
  async function sweepable(address: string, currency: string, books: bigint): Promise<bigint> {
    if (books <= 0n) return 0n;
    const onChain = await balanceOf(chain, address, currency);
    if (currency !== 'ETH') return books < onChain ? books : onChain;
    // ETH stays for the gas of this sweep and of the address's token sweeps.
    const fees = await feeCaps(chain);
    const spare = onChain - GAS_RESERVE - 21_000n * fees.maxFeePerGas;
    return spare <= 0n ? 0n : books < spare ? books : spare;
  }

  async function run(): Promise<SweepResult> {
    const result: SweepResult = { opened: 0, signed: 0, refused: 0, settled: 0 };
    const latest = await chain.blockNumber();
    for (const row of await db.select().from(sweeps).where(eq(sweeps.status, 'sending')).orderBy(asc(sweeps.id))) await settle(row, latest, result);
    // Left signing by a crash (or a signer that could not be reached): signed again at its own nonce.
    for (const row of await db.select().from(sweeps).where(eq(sweeps.status, 'signing')).orderBy(asc(sweeps.id))) await sign(row, result);
    if (!signer) return result;
    const custody = await signer.addresses();
    const approved = await db
      .select({ refill: floatRefills })
      .from(floatRefills)
      .leftJoin(sweeps, eq(sweeps.refillId, floatRefills.id))
      .where(and(eq(floatRefills.status, 'approved'), eq(floatRefills.chainId, settings.chainId), isNull(sweeps.id)))
      .orderBy(asc(floatRefills.id));
    // Refills first: the float pays withdrawals, cold only keeps.
    for (const { refill: f } of approved) {
      const row = await open({ kind: 'refill', refillId: f.id, pool: f.pool, currency: f.currency, from: f.fromAddress, to: custody.float, amount: BigInt(f.amount) });
      if (!row) continue;
      result.opened++;
      await sign(row, result);
    }
    const places = await db
      .select({ pool: poolAddresses.pool, currency: poolAddresses.currency, address: sql<string>`lower(${poolAddresses.address})` })
      .from(poolAddresses)
      .where(and(eq(poolAddresses.chainId, settings.chainId), inArray(sql`lower(${poolAddresses.address})`, custody.deposits.length ? custody.deposits : [''])))
      .orderBy(asc(poolAddresses.pool), asc(poolAddresses.currency));
    // An address whose sweep the signer refused waits for the operator (the alert), not asked again each run.
    const refused = new Set((await db.select({ from: sweeps.fromAddress, currency: sweeps.currency }).from(sweeps).where(and(eq(sweeps.status, 'refused'), eq(sweeps.kind, 'sweep')))).map((r) => `${r.from}:${r.currency}`));
    for (const p of places) {
      if (refused.has(`${p.address}:${p.currency}`)) continue;
      const amount = await sweepable(p.address, p.currency, (await booked(p.address)).get(p.currency) ?? 0n);
      if (amount <= 0n) continue;
      const row = await open({ kind: 'sweep', refillId: null, pool: p.pool, currency: p.currency, from: p.address, to: custody.cold, amount });
      if (!row) continue;
      result.opened++;
      await sign(row, result);
    }
    return result;
  }

  return { run };
}
export type SweepJob = ReturnType<typeof createSweepJob>;
