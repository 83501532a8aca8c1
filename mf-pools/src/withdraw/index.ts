export { WithdrawForm } from './WithdrawForm';
