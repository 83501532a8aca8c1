export { accrualParts, accrueDay, holderQuantiles, interestReference, accrueUntil, apyOn, dayAfter, utcDay, type AccrualRun } from './accrual';
export { setApy, writeApy, apyEntryOn, apyHistory, apyBps, apysOn, trimApy } from './apy';
export { poolHistory, recordPoolDay, type PoolHistoryDay } from './history';
