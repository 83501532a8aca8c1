import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { Transaction } from 'ethers';
import type { Db } from '../db/client';
import { treasuryTransfers } from '../db/schema';
import type { ChainReader } from '../chain';
import { liabilities, movedToCustody, post } from '../ledger';
import { raiseAlert, resolveAlert } from '../db/alerts';
import { balanceOf, estimateGas, feeCaps, nextNonce, transferOf, type RawReceipt } from './chain-tx';
import type { PayoutSigner } from './signer-client';

/**
 * ETH each paying address keeps beyond what it owes in ETH: the gas of its payouts, funded by the
 * house like the interest, so a pool never pays gas out of money it owes.
 */
export const GAS_RESERVE = 5n * 10n ** 16n;

/** `stuckAfterSeconds`: a transfer not mined this long is alerted (it holds its address's funding). */
export type TreasurySettings = { chainId: number; confirmations: number; rebroadcastSeconds: number; stuckAfterSeconds: number };
export type Coverage = { pool: string; currency: string; address: string; liabilities: string; onChain: string; incoming: string; shortfall: string };
export type TreasuryResult = { funded: number; settled: number; short: number; checked: Coverage[] };

/**
 * Money owed is money on chain. The interest and rewards the books credit are owed by the house;
 * this job moves them from the operator's treasury (yield) address to the paying address, so every
 * pool and currency holds at least what it owes (reserves ≥ liabilities), and alerts the operator
 * of every pool and currency that does not, and when the treasury cannot pay.
 *
 * The treasury's key is the signer's (issue 26): each transfer is a `treasury` request, which the
 * signer signs only to a house address (a deposit address, the float, cold) within the treasury's
 * caps, or refuses; a refusal is alerted (`treasury-refused:<pool>:<currency>`) and funds nothing.
 *
 * A transfer is signed and stored before it is broadcast (a crash re-sends the same bytes), at most
 * one is open per address and currency (a unique index: a second run funds nothing twice), and it
 * counts as incoming until mined. Once final it is booked: reserves of the address +a, house −a.
 */
export function createTreasuryJob(db: Db, chain: ChainReader, signer: PayoutSigner | null, settings: TreasurySettings, log: FastifyBaseLogger) {
  /** The treasury's address, as the signer declares it; null without a signer or a treasury key. */
  async function address(): Promise<string | null> {
    return signer ? (await signer.addresses()).treasury : null;
  }

  async function settle(result: TreasuryResult, latest: number) {
    const open = await db.select().from(treasuryTransfers).where(eq(treasuryTransfers.status, 'sending')).orderBy(asc(treasuryTransfers.id));
    for (const t of open) {
      const receipt = await chain.call<RawReceipt>('eth_getTransactionReceipt', [t.txHash]);
      if (!receipt) {
        if (!t.broadcastAt || Date.now() - t.broadcastAt.getTime() >= settings.rebroadcastSeconds * 1000) {
          await chain.call('eth_sendRawTransaction', [t.signedTx]).catch((err: Error) => {
            if (!/already known|nonce too low|already imported|known transaction/i.test(err.message)) log.warn({ err, transfer: t.id }, 'treasury transfer broadcast failed; retried later');
          });
          await db.update(treasuryTransfers).set({ broadcastAt: new Date(), updatedAt: new Date() }).where(eq(treasuryTransfers.id, t.id));
        }
        if (Date.now() - t.createdAt.getTime() >= settings.stuckAfterSeconds * 1000)
          await raiseAlert(db, log, {
            key: `treasury-transfer-stuck:${t.id}`,
            kind: 'treasury-transfer-stuck',
            message: `treasury transfer ${t.id} of ${t.amount} ${t.currency} to ${t.toAddress} is not mined; no other funding goes there until it is`,
            detail: { transfer: t.id, tx: t.txHash, nonce: t.nonce },
          });
        continue;
      }
      const block = Number(BigInt(receipt.blockNumber));
      if (latest - block + 1 < settings.confirmations) continue;
      const ok = receipt.status === '0x1';
      await db.transaction(async (tx) => {
        const done = await tx
          .update(treasuryTransfers)
          .set({ status: ok ? 'done' : 'failed', blockNumber: block, updatedAt: new Date() })
          .where(and(eq(treasuryTransfers.id, t.id), eq(treasuryTransfers.status, 'sending')))
          .returning({ id: treasuryTransfers.id });
        if (!done.length) return;
        await resolveAlert(tx, `treasury-transfer-stuck:${t.id}`);
        if (ok)
          await post(tx, {
            reference: `treasury:${t.id}:fund`,
            kind: 'treasury_funding',
            detail: { transfer: t.id, tx: t.txHash },
            postings: [
              { account: { kind: 'reserves', chainId: t.chainId, address: t.toAddress, pool: t.pool, currency: t.currency }, amount: BigInt(t.amount) },
              { account: { kind: 'house', currency: t.currency }, amount: -BigInt(t.amount) },
            ],
          });
        else
          await raiseAlert(tx, log, { key: `treasury-transfer-failed:${t.id}`, kind: 'treasury-transfer-failed', message: `treasury transfer ${t.id} reverted on chain`, detail: { transfer: t.id, tx: t.txHash } });
      });
      result.settled++;
    }
  }

  async function fund(c: Coverage, need: bigint, result: TreasuryResult, treasury: string | null): Promise<boolean> {
    if (!signer || !treasury) return false;
    const transfer = transferOf(c.currency, c.address, need);
    const fees = await feeCaps(chain);
    const held = await balanceOf(chain, treasury, c.currency);
    const estimate = held >= need ? await estimateGas(chain, treasury, transfer) : ({ unfunded: true } as const);
    if (!('gasLimit' in estimate)) return false;
    const eth = await balanceOf(chain, treasury, 'ETH');
    if (eth < estimate.gasLimit * fees.maxFeePerGas + transfer.value) return false;
    const refusal = `treasury-refused:${c.pool}:${c.currency}`;
    let refused = null as string | null;
    const stored = await db.transaction(async (tx) => {
      const nonce = await nextNonce(tx, chain, settings.chainId, treasury);
      // Asked under the nonce's lock: a refusal rolls back and gives the nonce back unused.
      const answer = await signer.sign({ kind: 'treasury' }, { chainId: settings.chainId, from: treasury, nonce, gasLimit: estimate.gasLimit, ...fees, ...transfer });
      if ('refused' in answer) {
        refused = answer.refused;
        throw new Error('treasury transfer refused');
      }
      const signed = answer.signedTx;
      const [row] = await tx
        .insert(treasuryTransfers)
        .values({ chainId: settings.chainId, pool: c.pool, currency: c.currency, fromAddress: treasury, toAddress: c.address, amount: String(need), nonce, signedTx: signed, txHash: Transaction.from(signed).hash! })
        .onConflictDoNothing()
        .returning();
      // Another run opened one for this address meanwhile: its nonce goes back unused.
      if (!row) throw new Error('treasury transfer already open');
      return row;
    }).catch((err: Error) => (err.message === 'treasury transfer already open' || err.message === 'treasury transfer refused' ? null : Promise.reject(err)));
    if (refused) {
      await raiseAlert(db, log, {
        key: refusal,
        kind: 'treasury-refused',
        message: `the signer refused the treasury's transfer of ${need} ${c.currency} to ${c.address}: ${refused}`,
        detail: { ...c, need: String(need), reason: refused },
      });
      return false;
    }
    await resolveAlert(db, refusal);
    if (!stored) return true;
    await chain.call('eth_sendRawTransaction', [stored.signedTx]).catch((err: Error) => log.warn({ err, transfer: stored.id }, 'treasury transfer broadcast failed; retried later'));
    await db.update(treasuryTransfers).set({ broadcastAt: new Date() }).where(eq(treasuryTransfers.id, stored.id));
    result.funded++;
    return true;
  }

  async function run(): Promise<TreasuryResult> {
    const result: TreasuryResult = { funded: 0, settled: 0, short: 0, checked: [] };
    const latest = await chain.blockNumber();
    const treasury = await address();
    await settle(result, latest);
    const open = await db.select().from(treasuryTransfers).where(eq(treasuryTransfers.status, 'sending'));
    const moved = await movedToCustody(db, settings.chainId);
    for (const l of await liabilities(db, settings.chainId)) {
      const owed = BigInt(l.owed) + (l.currency === 'ETH' ? GAS_RESERVE : 0n);
      // Swept to cold or refilling the float, the address's money is still the house's: not funded again.
      const onChain = (await balanceOf(chain, l.address, l.currency)) + (moved.get(`${l.address}:${l.currency}`) ?? 0n);
      const pending = open.filter((t) => t.toAddress === l.address && t.currency === l.currency);
      const incoming = pending.reduce((s, t) => s + BigInt(t.amount), 0n);
      const shortfall = owed - onChain - incoming;
      const c: Coverage = { pool: l.pool, currency: l.currency, address: l.address, liabilities: l.owed, onChain: String(onChain), incoming: String(incoming), shortfall: String(shortfall > 0n ? shortfall : 0n) };
      result.checked.push(c);
      const alertKey = `reserves-short:${l.pool}:${l.currency}`;
      if (shortfall <= 0n) {
        await resolveAlert(db, alertKey);
        continue;
      }
      // One transfer at a time per address: the next run tops up what is still missing.
      if (!pending.length && (await fund(c, shortfall, result, treasury))) continue;
      if (pending.length) continue;
      result.short++;
      await raiseAlert(db, log, {
        key: alertKey,
        kind: 'reserves-short',
        message: `${l.pool} ${l.currency}: the paying address holds less than the books owe, and the treasury ${treasury ? 'cannot cover it' : 'is not configured'}`,
        detail: { ...c, treasury },
      });
    }
    return result;
  }

  return { run, address };
}
export type TreasuryJob = ReturnType<typeof createTreasuryJob>;
