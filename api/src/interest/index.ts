export { accrueDay, accrueUntil, apyOn, dayAfter, utcDay, type AccrualRun } from './accrual';
export { setApy, apyHistory } from './apy';
