export { CLAIM_OPEN, claimRewards, claimReserveTransaction, latestClaim } from './claims';
export { MAX_LEVELS, MAX_TOTAL_BPS, configHistory, configInForce, configOn, lastRewardedDay, plainUsd, rankFor, setConfig, versionOf, writeConfig, type ReferralConfig, type ReferralVersion } from './config';
export { affiliatesPage, downline, fromE8, priceTable, rewardsUsd, toE8, usd2 } from './network';
export { accrueAndReward, accrueAsOperator, rewardAccruedDays, rewardDay, type RewardDay, type RewardRun } from './rewards';
export { affiliates, claimNext, harvest, inviteValid, rankProgress, referralOverview } from './standing';
