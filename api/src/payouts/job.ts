import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { Transaction } from 'ethers';
import type { Db } from '../db/client';
import { audit } from '../db/audit';
import { users, withdrawals } from '../db/schema';
import type { ChainReader } from '../chain';
import { post, type LedgerTransaction } from '../ledger';
import { raiseAlert, resolveAlert } from '../db/alerts';
import { balanceOf, estimateGas, feeCaps, maxCost, nextNonce, releaseNonce, transactionAtNonce, transferOf, type RawReceipt } from './chain-tx';
import { mailPaid, type ReturnNotice } from './notice';
import type { PayoutSigner, UnsignedTx } from './signer-client';
import { returnWithdrawal, type WithdrawalRow } from './requests';

export type PayoutSettings = {
  chainId: number;
  confirmations: number;
  rebroadcastSeconds: number;
  batchSize: number;
  /** A signed payout not mined this long after signing is cancelled at its nonce, then returned. */
  cancelAfterSeconds: number;
  /** A returned payout's hash is looked up this long after the return. */
  recheckSeconds: number;
};
/** `waitingFunds`: rows that wait for funds; `newlyWaiting`: of them, those that began to wait in this run. */
export type PayoutResult = { signed: number; broadcast: number; paid: number; returned: number; waiting: number; waitingFunds: number; newlyWaiting: number; cancelling: number };

/** A recipient (or token) that refuses a payout this many times is not tried again: the amount is returned. */
export const MAX_REVERTS = 2;
const OPEN = ['requested', 'waiting_funds', 'sending', 'cancelling'];
const UNSIGNED = ['requested', 'waiting_funds'];
const SIGNED = ['sending', 'cancelling'];

/**
 * A withdrawal not yet signed waits while its account is held: a recent change of the e-mail,
 * password or wallet (issue 21, finding 1) leaves the owner time to react before money leaves.
 */
const notHeld = sql`(${withdrawals.status} not in ('requested', 'waiting_funds') or not exists (
  select 1 from ${users} where ${users.id} = ${withdrawals.userId} and ${users.withdrawalsHeldUntil} > now()))`;

/** The ledger transaction of a paid withdrawal: in flight → out of the reserves, the fee to the house. */
function paidTransaction(w: WithdrawalRow): LedgerTransaction {
  const amount = BigInt(w.amount);
  const fee = BigInt(w.fee);
  const reserves = { kind: 'reserves' as const, chainId: w.chainId, address: w.fromAddress!, pool: w.pool, currency: w.currency };
  return {
    reference: `withdrawal:${w.id}:paid`,
    kind: 'withdrawal_paid',
    detail: { withdrawal: w.id, tx: w.txHash },
    postings: [
      { account: { kind: 'withdrawals_in_flight', currency: w.currency }, amount },
      { account: reserves, amount: -(amount - fee) },
      ...(fee > 0n ? [{ account: { kind: 'house' as const, currency: w.currency }, amount: -fee }] : []),
    ],
  };
}

/** Not refused by the signer, or refused for a while that has passed (the rate, the day's cap). */
const askable = sql`(${withdrawals.signerRefusal} is null or ${withdrawals.signerRetryAt} <= now())`;

/** Gas paid by the float for one mined transaction (payout, reverted payout or cancel): the house's expense. */
function gasTransaction(w: WithdrawalRow, hash: string, gas: bigint): LedgerTransaction {
  return {
    reference: `withdrawal:${w.id}:gas:${hash}`,
    kind: 'payout_gas',
    detail: { withdrawal: w.id, tx: hash },
    postings: [
      { account: { kind: 'house', currency: 'ETH' }, amount: gas },
      { account: { kind: 'reserves', chainId: w.chainId, address: w.fromAddress!, pool: w.pool, currency: 'ETH' }, amount: -gas },
    ],
  };
}

const gasOf = (r: NonNullable<RawReceipt>) => BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
/** Back to unsigned: the nonce it held is spent (or never was), a new one is taken when it is signed again. */
const UNSIGN = { nonce: null, signedTx: null, txHash: null, signedBlock: null, signedAt: null, broadcastAt: null, blockNumber: null, confirmations: 0, cancelTx: null, cancelHash: null };

/**
 * Pays withdrawals on chain from the float, whose key only the signer holds (signer/README.md): the
 * API builds each transaction and the signer signs it after checking it against the ledger's record,
 * or refuses. Every step is idempotent and guarded by the row's status, so a second run, a
 * concurrent one or one after a crash changes nothing twice (README.md in this folder):
 *
 * 1. sign, only what the float can pay: the amount and the gas (estimated, with a margin and a
 *    cap) against its balance less what its unmined payouts may still take. Otherwise the row waits
 *    unsigned, holding no nonce (`waiting_funds`), and the operator is alerted. A recipient that
 *    refuses the transfer twice is not tried again: returned, and the operator is alerted.
 * 2. broadcast the stored bytes, again while not mined.
 * 3. settle: mined with N confirmations → paid (or, reverted, tried once more); not mined long after
 *    signing → cancelled by a zero-value self-transfer at its nonce, returned once that is final; its
 *    nonce taken by another transaction that is itself final → returned. A returned payout's hash is
 *    looked up for a while after: if it mines anyway, the operator is alerted.
 */
export function createPayoutJob(db: Db, chain: ChainReader, signer: PayoutSigner | null, settings: PayoutSettings, notice: ReturnNotice, log: FastifyBaseLogger) {
  const alert = (key: string, kind: string, message: string, detail: Record<string, unknown>) => raiseAlert(db, log, { key, kind, message, detail });

  /** What each hot wallet's unmined payouts may still take from it, by currency (ETH includes their gas). */
  async function committed(): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    const add = (k: string, v: bigint) => out.set(k, (out.get(k) ?? 0n) + v);
    const rows = await db
      .select({ from: withdrawals.fromAddress, currency: withdrawals.currency, signedTx: withdrawals.signedTx, cancelTx: withdrawals.cancelTx })
      .from(withdrawals)
      .where(and(inArray(withdrawals.status, SIGNED), sql`${withdrawals.blockNumber} is null`));
    for (const r of rows) {
      const c = maxCost(r.signedTx!, r.currency);
      add(`${r.from}:ETH`, c.eth);
      if (c.token) add(`${r.from}:${r.currency}`, c.token);
      if (r.cancelTx) add(`${r.from}:ETH`, maxCost(r.cancelTx, 'ETH').eth);
    }
    return out;
  }

  async function waitForFunds(w: WithdrawalRow, from: string, need: string, result: PayoutResult) {
    result.waitingFunds++;
    // Already waiting: nothing to write (the job looks every few seconds).
    if (w.status === 'waiting_funds') return;
    const moved = await db
      .update(withdrawals)
      .set({ status: 'waiting_funds', waitingSince: new Date(), updatedAt: new Date() })
      .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'requested')))
      .returning({ id: withdrawals.id });
    if (!moved.length) return;
    result.newlyWaiting++;
    await alert(`payout-waiting-funds:${w.id}`, 'payout-waiting-funds', `withdrawal ${w.id} waits for funds: the float cannot pay ${need}`, {
      withdrawal: w.id,
      pool: w.pool,
      currency: w.currency,
      float: from,
    });
  }

  /** The recipient (or token) refused: counted; the second time the amount is returned and the operator alerted. */
  async function refused(conn: Pick<Db, 'transaction'>, w: WithdrawalRow, from: string[], detail: string, extra: Partial<WithdrawalRow> = {}) {
    return conn.transaction(async (tx) => {
      const [row] = await tx
        .update(withdrawals)
        .set({ reverts: sql`${withdrawals.reverts} + 1`, updatedAt: new Date(), ...extra })
        .where(and(eq(withdrawals.id, w.id), inArray(withdrawals.status, from)))
        .returning({ reverts: withdrawals.reverts });
      if (!row) return false;
      const last = row.reverts >= MAX_REVERTS;
      if (!last) await tx.update(withdrawals).set({ status: 'requested', ...UNSIGN }).where(eq(withdrawals.id, w.id));
      else {
        await returnWithdrawal(tx, w, 'PAYOUT_RECIPIENT_REVERTS', [...from, 'requested'], notice);
        await raiseAlert(tx, log, {
          key: `payout-recipient-reverts:${w.id}`,
          kind: 'payout-recipient-reverts',
          message: `withdrawal ${w.id}: the recipient ${w.toAddress} refused the payout ${row.reverts} times; returned to the balance`,
          detail: { withdrawal: w.id, to: w.toAddress, why: detail },
        });
      }
      return last;
    });
  }

  /** The signer said no: recorded on the row (never signed again, never paid), audited, and the operator alerted. */
  async function refusedBySigner(w: WithdrawalRow, from: string, nonce: number, reason: string, retry: 'minute' | 'day' | undefined) {
    const now = new Date();
    const nextDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
    const retryAt = retry === 'minute' ? new Date(now.getTime() + 60_000) : retry === 'day' ? nextDay : null;
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(withdrawals)
        .set({ signerRefusal: reason.slice(0, 500), signerRefusedAt: now, signerRetryAt: retryAt, nonce: null, fromAddress: null, updatedAt: now })
        .where(and(eq(withdrawals.id, w.id), inArray(withdrawals.status, UNSIGNED), eq(withdrawals.nonce, nonce)))
        .returning({ id: withdrawals.id });
      if (!row) return;
      await releaseNonce(tx, settings.chainId, from, nonce);
      await audit(tx, { actor: 'signer', action: 'withdrawal.signer-refused', target: String(w.id), after: { reason, ...(retryAt ? { retryAt: retryAt.toISOString() } : {}) } });
      await raiseAlert(tx, log, {
        key: `payout-refused:${w.id}`,
        kind: 'payout-refused',
        message: `withdrawal ${w.id}: the signer refused the payout (${reason}); ${retryAt ? `asked again from ${retryAt.toISOString()}` : 'it is not paid until an operator acts'}`,
        detail: { withdrawal: w.id, pool: w.pool, currency: w.currency, to: w.toAddress, reason },
      });
    });
  }

  async function sign(w: WithdrawalRow, spent: Map<string, bigint>, latest: number, result: PayoutResult) {
    // A refused payout is tried again only after a pause, not in the same breath.
    if (w.reverts > 0 && Date.now() - w.updatedAt.getTime() < settings.rebroadcastSeconds * 1000) return void result.waiting++;
    if (!signer) {
      log.warn({ withdrawal: w.id }, 'no signer configured (SIGNER_URL); the payout waits');
      return void result.waiting++;
    }
    const from = (await signer.addresses()).float;
    const receive = BigInt(w.amount) - BigInt(w.fee);
    const transfer = transferOf(w.currency, w.toAddress!, receive);
    const eth = (await balanceOf(chain, from, 'ETH')) - (spent.get(`${from}:ETH`) ?? 0n);
    const held = w.currency === 'ETH' ? eth : (await balanceOf(chain, from, w.currency)) - (spent.get(`${from}:${w.currency}`) ?? 0n);
    if (held < receive) return waitForFunds(w, from, `${receive} ${w.currency}`, result);
    const estimate = await estimateGas(chain, from, transfer);
    if ('unfunded' in estimate) return waitForFunds(w, from, `${receive} ${w.currency} and its gas`, result);
    if ('refused' in estimate) {
      if (await refused(db, w, UNSIGNED, estimate.refused)) result.returned++;
      else result.waiting++;
      return;
    }
    const fees = await feeCaps(chain);
    const gas = estimate.gasLimit * fees.maxFeePerGas;
    if (eth < gas + transfer.value) return waitForFunds(w, from, `${receive} ${w.currency} and ${gas} wei of gas`, result);
    // The nonce is taken and kept on the row before the signer is asked (outside any database
    // transaction: the signer reads the ledger itself). A crash after this reuses it.
    const nonce = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(withdrawals).where(and(eq(withdrawals.id, w.id), inArray(withdrawals.status, UNSIGNED), notHeld, askable)).for('update');
      if (!row) return null;
      if (row.nonce !== null && row.fromAddress === from) return row.nonce;
      const n = await nextNonce(tx, chain, settings.chainId, from);
      await tx.update(withdrawals).set({ nonce: n, fromAddress: from }).where(eq(withdrawals.id, w.id));
      return n;
    });
    if (nonce === null) return;
    const unsigned: UnsignedTx = { chainId: settings.chainId, from, nonce, gasLimit: estimate.gasLimit, ...fees, ...transfer };
    const answer = await signer.sign({ kind: 'payout', withdrawalId: w.id }, unsigned);
    if ('refused' in answer) {
      await refusedBySigner(w, from, nonce, answer.refused, answer.retry);
      return void result.waiting++;
    }
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(withdrawals)
        .set({ status: 'sending', signedTx: answer.signedTx, txHash: answer.hash, signedBlock: latest, signedAt: new Date(), waitingSince: null, signerRefusal: null, signerRetryAt: null, updatedAt: new Date() })
        .where(and(eq(withdrawals.id, w.id), inArray(withdrawals.status, UNSIGNED), eq(withdrawals.nonce, nonce)))
        .returning({ id: withdrawals.id });
      if (!row) return;
      await resolveAlert(tx, `payout-waiting-funds:${w.id}`);
      if (w.signerRefusal) await resolveAlert(tx, `payout-refused:${w.id}`);
      spent.set(`${from}:ETH`, (spent.get(`${from}:ETH`) ?? 0n) + gas + transfer.value);
      if (w.currency !== 'ETH') spent.set(`${from}:${w.currency}`, (spent.get(`${from}:${w.currency}`) ?? 0n) + receive);
      result.signed++;
    });
  }

  async function send(raw: string, id: number) {
    try {
      await chain.call('eth_sendRawTransaction', [raw]);
    } catch (err) {
      // Already in the pool or mined: the receipt step decides. Anything else is logged and retried.
      const msg = (err as Error).message.toLowerCase();
      if (!/already known|nonce too low|already imported|known transaction|underpriced/.test(msg)) log.warn({ err, withdrawal: id }, 'payout broadcast failed; retried later');
    }
  }

  async function broadcast(w: WithdrawalRow, result: PayoutResult) {
    if (w.status === 'sending') await send(w.signedTx!, w.id);
    if (w.cancelTx) await send(w.cancelTx, w.id);
    await db
      .update(withdrawals)
      .set({ broadcastAt: new Date(), attempts: sql`${withdrawals.attempts} + 1`, updatedAt: new Date() })
      .where(eq(withdrawals.id, w.id));
    result.broadcast++;
  }

  /**
   * A zero-value transfer to itself at the payout's nonce, with fees above the payout's (a node
   * replaces a pending transaction only for a higher fee): whichever of the two is mined, the
   * nonce is used once, and the amount leaves only if the payout won.
   */
  async function signCancel(w: WithdrawalRow, result: PayoutResult) {
    if (!signer) return;
    const old = Transaction.from(w.signedTx!);
    const now = await feeCaps(chain);
    const bump = (x: bigint | null) => ((x ?? 0n) * 13n) / 10n + 1n;
    const maxPriorityFeePerGas = [bump(old.maxPriorityFeePerGas), now.maxPriorityFeePerGas].reduce((a, b) => (a > b ? a : b));
    const maxFeePerGas = [bump(old.maxFeePerGas), now.maxFeePerGas, maxPriorityFeePerGas].reduce((a, b) => (a > b ? a : b));
    const answer = await signer.sign(
      { kind: 'cancel', withdrawalId: w.id },
      { chainId: settings.chainId, from: w.fromAddress!, nonce: w.nonce!, to: w.fromAddress!, value: 0n, data: '0x', gasLimit: 21_000n, maxFeePerGas, maxPriorityFeePerGas },
    );
    if ('refused' in answer) {
      await alert(`payout-cancel-refused:${w.id}`, 'payout-refused', `withdrawal ${w.id}: the signer refused to cancel the stuck payout (${answer.refused})`, { withdrawal: w.id, reason: answer.refused });
      return;
    }
    const signed = answer.signedTx;
    const done = await db
      .update(withdrawals)
      .set({ status: 'cancelling', cancelTx: signed, cancelHash: Transaction.from(signed).hash!, broadcastAt: null, updatedAt: new Date() })
      .where(and(eq(withdrawals.id, w.id), inArray(withdrawals.status, SIGNED), sql`${withdrawals.cancelTx} is null`))
      .returning({ id: withdrawals.id });
    if (!done.length) return;
    await alert(`payout-cancelled:${w.id}`, 'payout-cancelled', `withdrawal ${w.id} was not mined in time: cancelled at nonce ${w.nonce}; returned once the cancel is final`, {
      withdrawal: w.id,
      hotWallet: w.fromAddress,
      nonce: w.nonce,
    });
    result.cancelling++;
  }

  /** Returned: its hash is looked up until `recheckUntil` in case it mines after all. */
  async function giveBack(w: WithdrawalRow, reason: string, gas?: { hash: string; amount: bigint }) {
    return db.transaction(async (tx) => {
      if (!(await returnWithdrawal(tx, w, reason, SIGNED, notice))) return false;
      await tx.update(withdrawals).set({ recheckUntil: new Date(Date.now() + settings.recheckSeconds * 1000) }).where(eq(withdrawals.id, w.id));
      if (gas && gas.amount > 0n) await post(tx, gasTransaction(w, gas.hash, gas.amount));
      return true;
    });
  }

  async function settleMined(w: WithdrawalRow, receipt: NonNullable<RawReceipt>, latest: number, result: PayoutResult) {
    const blockNumber = Number(BigInt(receipt.blockNumber));
    const confirmations = Math.max(0, latest - blockNumber + 1);
    if (confirmations < settings.confirmations) {
      await db.update(withdrawals).set({ blockNumber, confirmations, updatedAt: new Date() }).where(eq(withdrawals.id, w.id));
      return void result.waiting++;
    }
    const gas = gasOf(receipt);
    if (receipt.status !== '0x1') {
      // Reverted: the nonce is spent, the gas paid; tried once more with a new nonce, unless it was the second time.
      const last = await db.transaction(async (tx) => {
        if (gas > 0n) await post(tx, gasTransaction(w, w.txHash!, gas));
        return refused(tx, w, SIGNED, `reverted in block ${blockNumber}`);
      });
      if (last) result.returned++;
      else result.waiting++;
      return;
    }
    await db.transaction(async (tx) => {
      const done = await tx
        .update(withdrawals)
        .set({ status: 'paid', blockNumber, confirmations, paidAt: new Date(), updatedAt: new Date() })
        .where(and(eq(withdrawals.id, w.id), inArray(withdrawals.status, SIGNED)))
        .returning({ id: withdrawals.id });
      if (!done.length) return;
      await post(tx, paidTransaction(w));
      if (gas > 0n) await post(tx, gasTransaction(w, w.txHash!, gas));
      await mailPaid(tx, notice, w);
      // The payout won the race against its cancel.
      if (w.cancelHash) await resolveAlert(tx, `payout-cancelled:${w.id}`);
      result.paid++;
    });
  }

  async function settle(w: WithdrawalRow, latest: number, result: PayoutResult) {
    const receipt = await chain.call<RawReceipt>('eth_getTransactionReceipt', [w.txHash]);
    if (receipt) return settleMined(w, receipt, latest, result);
    if (w.cancelHash) {
      const cancel = await chain.call<RawReceipt>('eth_getTransactionReceipt', [w.cancelHash]);
      if (cancel) {
        // The cancel used the nonce: once final, the payout can never be mined.
        if (latest - Number(BigInt(cancel.blockNumber)) + 1 >= settings.confirmations) {
          if (await giveBack(w, 'PAYOUT_CANCELLED', { hash: w.cancelHash, amount: gasOf(cancel) })) result.returned++;
        } else result.waiting++;
        return;
      }
    }
    const mined = Number(BigInt(await chain.call<string>('eth_getTransactionCount', [w.fromAddress, 'latest'])));
    if (w.nonce !== null && mined > w.nonce) {
      // The count says the nonce is used; only the transaction that used it, found in a final block,
      // proves it was not ours (a node's count can run ahead of the blocks another node serves).
      const other = await transactionAtNonce(chain, w.fromAddress!, w.nonce, w.signedBlock ?? 0, latest);
      if (other && other.hash !== w.txHash && other.hash !== w.cancelHash && latest - other.block + 1 >= settings.confirmations) {
        const proof = await chain.call<RawReceipt>('eth_getTransactionReceipt', [other.hash]);
        if (proof && Number(BigInt(proof.blockNumber)) === other.block) {
          if (await giveBack(w, 'PAYOUT_DROPPED')) result.returned++;
          return;
        }
      }
      if (!other)
        await alert(`payout-nonce-unexplained:${w.id}`, 'payout-nonce-unexplained', `withdrawal ${w.id}: the node says nonce ${w.nonce} is used, but no block shows by what; the payout waits`, {
          withdrawal: w.id,
          hotWallet: w.fromAddress,
          nonce: w.nonce,
        });
      return void result.waiting++;
    }
    if (w.status === 'sending' && w.signedAt && Date.now() - w.signedAt.getTime() >= settings.cancelAfterSeconds * 1000) return signCancel(w, result);
    if (w.status === 'cancelling' && !w.cancelTx) return signCancel(w, result);
    const stale = !w.broadcastAt || Date.now() - w.broadcastAt.getTime() >= settings.rebroadcastSeconds * 1000;
    if (stale) await broadcast(w, result);
    else result.waiting++;
  }

  /** Returned payouts whose hash could still mine (a node that had not seen the other transaction): alerted if one does. */
  async function recheck() {
    const now = new Date();
    await db.update(withdrawals).set({ recheckUntil: null }).where(and(isNotNull(withdrawals.recheckUntil), lte(withdrawals.recheckUntil, now)));
    const due = await db
      .select()
      .from(withdrawals)
      .where(and(isNotNull(withdrawals.recheckUntil), gt(withdrawals.recheckUntil, now)))
      .orderBy(asc(withdrawals.id))
      .limit(settings.batchSize);
    for (const w of due) {
      const receipt = await chain.call<RawReceipt>('eth_getTransactionReceipt', [w.txHash]);
      if (!receipt || receipt.status !== '0x1') continue;
      await alert(`payout-mined-after-return:${w.id}`, 'payout-mined-after-return', `withdrawal ${w.id} was returned, but its payout ${w.txHash} mined: paid twice; recover the amount`, {
        withdrawal: w.id,
        userId: w.userId,
        tx: w.txHash,
        block: Number(BigInt(receipt.blockNumber)),
      });
      await db.update(withdrawals).set({ recheckUntil: null }).where(eq(withdrawals.id, w.id));
    }
  }

  async function run(): Promise<PayoutResult> {
    const result: PayoutResult = { signed: 0, broadcast: 0, paid: 0, returned: 0, waiting: 0, waitingFunds: 0, newlyWaiting: 0, cancelling: 0 };
    const open = await db.select().from(withdrawals).where(and(inArray(withdrawals.status, OPEN), notHeld)).orderBy(asc(withdrawals.id)).limit(settings.batchSize);
    if (open.length) {
      const latest = await chain.blockNumber();
      const spent = await committed();
      // Signed in id order, so nonces follow the order of requests; one that waits for funds holds none.
      // One the signer refused waits for the operator.
      for (const w of open.filter((x) => UNSIGNED.includes(x.status))) {
        if (w.signerRefusal && !(w.signerRetryAt && w.signerRetryAt <= new Date())) result.waiting++;
        else await sign(w, spent, latest, result);
      }
      const signed = await db.select().from(withdrawals).where(inArray(withdrawals.status, SIGNED)).orderBy(asc(withdrawals.id)).limit(settings.batchSize);
      for (const w of signed) {
        if (!w.broadcastAt) await broadcast(w, result);
        else await settle(w, latest, result);
      }
    }
    await recheck();
    // A return queued its mail inside the transaction: send it now rather than at the next poll.
    if (result.returned || result.paid) void notice.mailer.poll();
    return result;
  }

  return { run };
}
export type PayoutJob = ReturnType<typeof createPayoutJob>;
