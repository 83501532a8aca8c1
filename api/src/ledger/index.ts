export { accountKey, naturalBalance, type AccountKind, type AccountRef } from './accounts';
export { FULL_CHECK_BATCH, PASS_LEGS, STEP_ACCOUNTS, checkLedger, checkLedgerIncremental, type CurrencyTotals, type IncrementalCheckOptions, type LedgerCheck } from './check';
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
