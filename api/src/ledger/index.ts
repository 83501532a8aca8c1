export { accountKey, naturalBalance, type AccountKind, type AccountRef } from './accounts';
export { checkLedger, type CurrencyTotals, type LedgerCheck } from './check';
export { liabilities, reconcile, type ReconcileRow } from './reconcile';
export { InsufficientBalance, UnbalancedTransaction, post, positionsOf, rows, type Conn, type LedgerTransaction, type Posting } from './post';
