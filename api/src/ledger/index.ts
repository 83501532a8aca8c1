export { accountKey, naturalBalance, type AccountKind, type AccountRef } from './accounts';
export { FULL_CHECK_BATCH, checkLedger, checkLedgerIncremental, type CurrencyTotals, type LedgerCheck } from './check';
export { liabilities, movedToCustody, reconcile, type ReconcileRow } from './reconcile';
export {
  InsufficientBalance,
  LedgerReferenceConflict,
  TRANSACTION_KINDS,
  UnbalancedTransaction,
  post,
  positionsOf,
  type Conn,
  type LedgerTransaction,
  type Posting,
  type TransactionKind,
} from './post';
