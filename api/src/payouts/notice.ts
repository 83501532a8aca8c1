import { mailMoney, type MoneyNotice, type ReturnReason } from '../mail';
import type { Db } from '../db/client';
import type { WithdrawalRow } from './requests';

/** What a payout's mail needs: the mailer, the brand's title and the public address of the site. */
export type ReturnNotice = MoneyNotice;

type Tx = Pick<Db, 'select' | 'insert'>;

/**
 * Queues the mail telling the user that a withdrawal came back to the balance, in the user's language,
 * inside the transaction that returns it: the mail goes out once, exactly when the return happened.
 * An account without an e-mail (wallet sign-in) sees the reason in the list of withdrawals only.
 */
export async function mailReturned(tx: Tx, notice: ReturnNotice, w: WithdrawalRow, reason: string) {
  // A returned claim of referral rewards goes back to the rewards, not to a pool's balance.
  const claim = w.kind === 'referral';
  await mailMoney(tx, notice, {
    userId: w.userId,
    kind: claim ? 'claim-returned' : 'withdrawal-returned',
    event: `withdrawal-returned:${w.id}`,
    amount: w.amount,
    currency: w.currency,
    pool: w.pool,
    page: `/cabinet/${claim ? 'refferal' : 'dashboard'}`,
    reason: reason.split(':')[0] as ReturnReason,
  });
}

/** The same, when a withdrawal or a claim is paid: with its transaction's explorer link. */
export async function mailPaid(tx: Tx, notice: ReturnNotice, w: WithdrawalRow) {
  const claim = w.kind === 'referral';
  await mailMoney(tx, notice, {
    userId: w.userId,
    kind: claim ? 'claim-paid' : 'withdrawal-paid',
    event: `withdrawal-paid:${w.id}`,
    amount: BigInt(w.amount) - BigInt(w.fee),
    currency: w.currency,
    pool: w.pool,
    page: `/cabinet/${claim ? 'refferal' : `pools/${w.pool}`}`,
    txHash: w.txHash,
  });
}

/** A withdrawal requested while a recent change of a credential holds the account's payouts. */
export async function mailHeld(tx: Tx, notice: ReturnNotice, w: WithdrawalRow, heldUntil: string) {
  await mailMoney(tx, notice, {
    userId: w.userId,
    kind: 'withdrawal-held',
    event: `withdrawal-held:${w.id}`,
    amount: w.amount,
    currency: w.currency,
    pool: w.pool,
    page: '/cabinet/settings',
    heldUntil,
  });
}
