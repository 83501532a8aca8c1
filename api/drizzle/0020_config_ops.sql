-- A ledger account is its identity (key, kind, currency, owner, pool, address): a posting names the
-- account by id, so changing any of these would move its history to someone else. Only the balance,
-- which the postings keep, may change.
-- A trigger on the named columns only: the balance updates of posting and accrual never fire it.
CREATE FUNCTION "ledger_account_identity_fixed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'a ledger account''s identity never changes: only its balance may' USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_accounts_identity_fixed" BEFORE UPDATE OF "key", "kind", "currency", "user_id", "pool", "address", "created_at" ON "ledger_accounts" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_account_identity_fixed"();
--> statement-breakpoint
-- Transfers their owners reported before this release were left on the operator's list.
UPDATE "unclaimed_transfers" u SET "status" = 'reported', "deposit_id" = d."id"
FROM "deposits" d
WHERE u."status" = 'unclaimed' AND d."chain_id" = u."chain_id" AND d."tx_hash" = u."tx_hash" AND d."log_index" = u."log_index";
--> statement-breakpoint
-- The public vote list is read a page at a time by voter address.
CREATE INDEX "dao_votes_proposal_voter_idx" ON "dao_votes" USING btree ("proposal_id", "voter");
