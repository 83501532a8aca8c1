import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { Interface, Transaction, type Wallet } from 'ethers';
import { ERC20_ABI, TOKENS } from '@app/web3';
import type { Db } from '../db/client';
import { hotWalletNonces, poolAddresses, users, withdrawals } from '../db/schema';
import type { ChainReader } from '../deposits/chain';
import { post, type LedgerTransaction } from '../ledger';
import { mailReturned, type ReturnNotice } from './notice';
import { returnTransaction, returnWithdrawal, type WithdrawalRow } from './requests';

export type PayoutSettings = { chainId: number; confirmations: number; rebroadcastSeconds: number; batchSize: number };
export type PayoutResult = { signed: number; broadcast: number; paid: number; returned: number; waiting: number };

const erc20 = new Interface(ERC20_ABI as unknown as string[]);
const TOKEN_GAS_LIMIT = 120_000n;
const ETH_GAS_LIMIT = 21_000n;

/**
 * A withdrawal not yet signed waits while its account is held: a recent change of the e-mail,
 * password or wallet (issue 21, finding 1) leaves the owner time to react before money leaves.
 */
const notHeld = sql`(${withdrawals.status} <> 'requested' or not exists (
  select 1 from ${users} where ${users.id} = ${withdrawals.userId} and ${users.withdrawalsHeldUntil} > now()))`;

type RawReceipt = { status: string; blockNumber: string; blockHash: string; gasUsed: string; effectiveGasPrice: string } | null;

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

/** Gas paid by the hot wallet: the house's expense, out of the address's ETH reserves. */
function gasTransaction(w: WithdrawalRow, gas: bigint): LedgerTransaction {
  return {
    reference: `withdrawal:${w.id}:gas`,
    kind: 'payout_gas',
    detail: { withdrawal: w.id, tx: w.txHash },
    postings: [
      { account: { kind: 'house', currency: 'ETH' }, amount: gas },
      { account: { kind: 'reserves', chainId: w.chainId, address: w.fromAddress!, pool: w.pool, currency: 'ETH' }, amount: -gas },
    ],
  };
}

/**
 * Pays withdrawals on chain from the pool's hot wallet (the pool's receiving address), in three
 * idempotent steps, each safe to repeat after a crash (the job runs in one replica at a time):
 *
 * 1. sign: a nonce from the nonce manager (`hot_wallet_nonces`, under a row lock), the transaction
 *    signed and stored with its hash, status `sending`, all in one database transaction, before
 *    anything reaches the node. A crash after this point re-sends the same bytes: never twice.
 * 2. broadcast: the stored raw transaction, again whenever it is not mined after a while (same
 *    nonce, same hash; "already known" is fine).
 * 3. settle: with N confirmations, paid (the hash, ledger: in flight → reserves, fee and gas to the
 *    house). A reverted payout, or one whose nonce was taken by another transaction (dropped), is
 *    returned to the user's balance with a reason the API shows.
 */
export function createPayoutJob(db: Db, chain: ChainReader, wallets: Map<string, Wallet>, settings: PayoutSettings, notice: ReturnNotice, log: FastifyBaseLogger) {
  async function nextNonce(tx: Pick<Db, 'execute' | 'select' | 'insert' | 'update'>, address: string): Promise<number> {
    const onChain = Number(BigInt(await chain.call<string>('eth_getTransactionCount', [address, 'pending'])));
    await tx.insert(hotWalletNonces).values({ chainId: settings.chainId, address, nextNonce: onChain }).onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(hotWalletNonces)
      .where(and(eq(hotWalletNonces.chainId, settings.chainId), eq(hotWalletNonces.address, address)))
      .for('update');
    // The wallet may have been used outside the payouts (e.g. topped up by hand): never reuse a nonce the chain has seen.
    const nonce = Math.max(row!.nextNonce, onChain);
    await tx
      .update(hotWalletNonces)
      .set({ nextNonce: nonce + 1 })
      .where(and(eq(hotWalletNonces.chainId, settings.chainId), eq(hotWalletNonces.address, address)));
    return nonce;
  }

  async function sign(w: WithdrawalRow, result: PayoutResult) {
    const [pa] = await db
      .select({ address: poolAddresses.address })
      .from(poolAddresses)
      .where(and(eq(poolAddresses.pool, w.pool), eq(poolAddresses.currency, w.currency), eq(poolAddresses.chainId, settings.chainId)));
    const from = pa?.address.toLowerCase();
    const wallet = from ? wallets.get(from) : undefined;
    if (!from || !wallet) {
      log.warn({ withdrawal: w.id, pool: w.pool, currency: w.currency }, 'no hot wallet key for this pool address; the payout waits');
      result.waiting++;
      return;
    }
    const receive = BigInt(w.amount) - BigInt(w.fee);
    const token = w.currency === 'ETH' ? null : TOKENS[1][w.currency as keyof (typeof TOKENS)[1]];
    if (w.currency !== 'ETH' && !token) throw new Error(`no token contract for ${w.currency}`);
    const gasPrice = BigInt(await chain.call<string>('eth_gasPrice', []));
    await db.transaction(async (tx) => {
      // Lock the row: only a withdrawal still `requested` is signed, once.
      const [row] = await tx.select().from(withdrawals).where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'requested'))).for('update');
      if (!row) return;
      const nonce = await nextNonce(tx, from);
      const unsigned = Transaction.from({
        type: 2,
        chainId: settings.chainId,
        nonce,
        maxPriorityFeePerGas: gasPrice / 10n + 1n,
        // Room for the base fee to double before the payout is stuck.
        maxFeePerGas: gasPrice * 2n + 1n,
        ...(token
          ? { to: token.address, value: 0n, data: erc20.encodeFunctionData('transfer', [w.toAddress, receive]), gasLimit: TOKEN_GAS_LIMIT }
          : { to: w.toAddress, value: receive, data: '0x', gasLimit: ETH_GAS_LIMIT }),
      });
      const signed = await wallet.signTransaction(unsigned);
      const hash = Transaction.from(signed).hash!;
      await tx
        .update(withdrawals)
        .set({ status: 'sending', fromAddress: from, nonce, signedTx: signed, txHash: hash, updatedAt: new Date() })
        .where(eq(withdrawals.id, w.id));
      result.signed++;
    });
  }

  async function broadcast(w: WithdrawalRow, result: PayoutResult) {
    try {
      await chain.call('eth_sendRawTransaction', [w.signedTx]);
    } catch (err) {
      // Already in the pool or mined: the receipt step decides. Anything else is logged and retried.
      const msg = (err as Error).message.toLowerCase();
      if (!/already known|nonce too low|already imported|known transaction/.test(msg)) log.warn({ err, withdrawal: w.id }, 'payout broadcast failed; retried later');
    }
    await db
      .update(withdrawals)
      .set({ broadcastAt: new Date(), attempts: sql`${withdrawals.attempts} + 1`, updatedAt: new Date() })
      .where(eq(withdrawals.id, w.id));
    result.broadcast++;
  }

  async function settle(w: WithdrawalRow, latest: number, result: PayoutResult) {
    const receipt = await chain.call<RawReceipt>('eth_getTransactionReceipt', [w.txHash]);
    if (!receipt) {
      // Not mined. If the chain has moved past our nonce, another transaction took it: dropped.
      const mined = Number(BigInt(await chain.call<string>('eth_getTransactionCount', [w.fromAddress, 'latest'])));
      if (w.nonce !== null && mined > w.nonce) {
        // Look once more: the payout may have been mined between the two reads.
        if (!(await chain.call<RawReceipt>('eth_getTransactionReceipt', [w.txHash]))) {
          if (await returnWithdrawal(db, w, 'PAYOUT_DROPPED', ['sending'], notice)) result.returned++;
          return;
        }
      }
      const stale = !w.broadcastAt || Date.now() - w.broadcastAt.getTime() >= settings.rebroadcastSeconds * 1000;
      if (stale) await broadcast(w, result);
      else result.waiting++;
      return;
    }
    const blockNumber = Number(BigInt(receipt.blockNumber));
    const confirmations = Math.max(0, latest - blockNumber + 1);
    if (confirmations < settings.confirmations) {
      await db.update(withdrawals).set({ blockNumber, confirmations, updatedAt: new Date() }).where(eq(withdrawals.id, w.id));
      result.waiting++;
      return;
    }
    const gas = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
    const ok = receipt.status === '0x1';
    await db.transaction(async (tx) => {
      const done = await tx
        .update(withdrawals)
        .set(
          ok
            ? { status: 'paid', blockNumber, confirmations, paidAt: new Date(), updatedAt: new Date() }
            : { status: 'returned', reason: 'PAYOUT_REVERTED', blockNumber, confirmations, updatedAt: new Date() },
        )
        .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'sending')))
        .returning({ id: withdrawals.id });
      if (!done.length) return;
      await post(tx, ok ? paidTransaction(w) : returnTransaction({ ...w, amount: String(w.amount) }, 'PAYOUT_REVERTED'));
      if (!ok) await mailReturned(tx, notice, w, 'PAYOUT_REVERTED');
      if (gas > 0n) await post(tx, gasTransaction(w, gas));
      if (ok) result.paid++;
      else result.returned++;
    });
  }

  async function run(): Promise<PayoutResult> {
    const result: PayoutResult = { signed: 0, broadcast: 0, paid: 0, returned: 0, waiting: 0 };
    const open = await db
      .select()
      .from(withdrawals)
      .where(and(inArray(withdrawals.status, ['requested', 'sending']), notHeld))
      .orderBy(asc(withdrawals.id))
      .limit(settings.batchSize);
    if (!open.length) return result;
    const latest = await chain.blockNumber();
    // Signed in id order, so nonces follow the order of requests.
    for (const w of open.filter((x) => x.status === 'requested')) await sign(w, result);
    const sending = await db.select().from(withdrawals).where(eq(withdrawals.status, 'sending')).orderBy(asc(withdrawals.id)).limit(settings.batchSize);
    for (const w of sending) {
      if (!w.broadcastAt) await broadcast(w, result);
      else await settle(w, latest, result);
    }
    // A return queued its mail inside the transaction: send it now rather than at the next poll.
    if (result.returned) void notice.mailer.poll();
    return result;
  }

  return { run };
}
export type PayoutJob = ReturnType<typeof createPayoutJob>;
