/** The ledger's accounts. Each has a stable text key, so postings name accounts without a lookup. */
export type AccountRef =
  | { kind: 'position'; userId: string; pool: string; currency: string }
  | { kind: 'house'; currency: string }
  | { kind: 'reserves'; chainId: number; address: string; pool: string; currency: string }
  | { kind: 'withdrawals_in_flight'; currency: string }
  | { kind: 'referral_rewards_payable'; currency: string };

export type AccountKind = AccountRef['kind'];

/** Kinds whose natural balance is a credit (the negated sum of postings): what is owed, and the house. */
export const CREDIT_NORMAL: readonly AccountKind[] = ['position', 'house', 'withdrawals_in_flight', 'referral_rewards_payable'];

export function accountKey(a: AccountRef): string {
  switch (a.kind) {
    case 'position':
      return `position:${a.pool}:${a.currency}:${a.userId}`;
    case 'reserves':
      return `reserves:${a.chainId}:${a.address.toLowerCase()}:${a.currency}`;
    default:
      return `${a.kind}:${a.currency}`;
  }
}

/** The balance as people read it: assets as debits, everything else as credits. */
export const naturalBalance = (kind: string, signedSum: bigint) => (CREDIT_NORMAL.includes(kind as AccountKind) ? -signedSum : signedSum);

/**
 * What a leg adds to a position's all-time figures kept beside its balance (issue 23): deposits and
 * interest credited as the user reads them, withdrawals as requested less returned. Other legs add nothing.
 */
export function positionFigures(transactionKind: string, accountKind: AccountKind, amount: bigint) {
  const none = { deposited: 0n, withdrawn: 0n, interest: 0n };
  if (accountKind !== 'position') return none;
  if (transactionKind === 'deposit') return { ...none, deposited: -amount };
  if (transactionKind === 'withdrawal_reserve' || transactionKind === 'withdrawal_return') return { ...none, withdrawn: amount };
  if (transactionKind === 'interest') return { ...none, interest: -amount };
  return none;
}
