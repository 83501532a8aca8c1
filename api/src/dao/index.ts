export { personalStake, stakeAt, stakingRewards, unitsToUsd, usdToUnits, usdValues, votingPowerAt, type Stake } from './power';
export {
  VOTE_APP,
  VOTE_TIMESTAMP_WINDOW_S,
  castVote,
  closeProposal,
  createProposal,
  listProposals,
  proposalView,
  proposalsVoted,
  publicVotes,
  stateOf,
  voteDomain,
  type NewProposal,
  type ProposalRow,
  type VoteSpace,
} from './proposals';
