export { depositTransaction, type CreditableDeposit } from './credit';
export { createDepositJob, type DepositJob, type JobSettings, type TickResult } from './job';
export { createDeposits, depositStatus, poolAddressOf, type DepositRequest, type DepositRow, type DepositSettings, type Deposits } from './service';
export { submitDeposit } from './submit';
export { DepositRefused, verifyDeposit, type DepositClaim, type VerifiedDeposit } from './verify';
