-- The DAO's staked amount and rewards are read from the ledger (position postings and the daily
-- interest credited); the static member table they once came from is retired.
DROP TABLE IF EXISTS "dao_members";
