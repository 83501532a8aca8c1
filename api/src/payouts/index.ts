export { approveWithdrawal, cancelWithdrawal, operatorWithdrawals, rejectWithdrawal, type Approver } from './approvals';
export { localKey, localTreasuryKey } from './hot-wallets';
export { httpSigner, SignerUnavailable, type CustodyAddresses, type PayoutSigner } from './signer-client';
export { startLedgerReader } from './ledger-reader';
export { createPayoutJob, type PayoutJob, type PayoutResult, type PayoutSettings } from './job';
export { mailReturned, type ReturnNotice } from './notice';
export {
  quoteWithdrawal,
  requestWithdrawal,
  reserveTransaction,
  returnTransaction,
  returnWithdrawal,
  withdrawalAccepted,
  withdrawalList,
  withdrawalQuote,
  withdrawalStatus,
  withdrawalsOf,
  type WithdrawalRequest,
  type WithdrawalRow,
} from './requests';
export {
  payoutRules,
  quote,
  ruleFor,
  setPayoutRule,
  writePayoutRule,
  changedRule,
  approvalsNeeded,
  setWithdrawalLimits,
  writeWithdrawalLimits,
  withdrawalLimits,
  type WithdrawalLimits,
  withdrawRules,
  type PayoutRule,
  type PayoutRules,
  type PayoutRuleChange,
} from './settings';
export { createTreasuryJob } from './treasury';
export { createSweepJob, type SweepJob, type SweepResult } from './sweep';
export { custodyOperatorRoutes } from './custody-routes';
