-- Issue 21, finding 9: a proposal's voting power is the positions at its snapshot, which must be a
-- settled moment when voting opens. Rows made before the rule keep their dates (votes were cast
-- under them); the API keeps such a proposal pending until its snapshot has passed.
ALTER TABLE "dao_proposals" ADD CONSTRAINT "dao_proposals_snapshot_by_start" CHECK ("snapshot_at" <= "starts_at") NOT VALID;
