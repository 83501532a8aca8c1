export { hotWallets, localHotWalletKeys } from './hot-wallets';
export { createPayoutJob, type PayoutJob, type PayoutResult, type PayoutSettings } from './job';
export { mailReturned, type ReturnNotice } from './notice';
export {
  requestWithdrawal,
  reserveTransaction,
  returnTransaction,
  returnWithdrawal,
  withdrawalStatus,
  withdrawalsOf,
  type WithdrawalRequest,
  type WithdrawalRow,
} from './requests';
export { payoutRules, quote, ruleFor, setPayoutRule, type PayoutRule, type PayoutRules } from './settings';
