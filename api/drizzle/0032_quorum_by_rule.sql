-- A proposal's quorum follows the DAO's rule (issue 27): the share (quorum_bps) of the pools' value
-- locked at the snapshot (quorum_tvl_usd), kept beside it so the page shows how it was derived.
-- Proposals made before stay as they were, with no basis.
ALTER TABLE "dao_proposals" ADD COLUMN IF NOT EXISTS "quorum_bps" integer;--> statement-breakpoint
ALTER TABLE "dao_proposals" ADD COLUMN IF NOT EXISTS "quorum_tvl_usd" numeric(38, 8);--> statement-breakpoint
ALTER TABLE "dao_proposals" ADD CONSTRAINT "dao_proposals_quorum_basis" CHECK (("quorum_bps" IS NULL) = ("quorum_tvl_usd" IS NULL) AND ("quorum_bps" IS NULL OR "quorum_bps" BETWEEN 0 AND 10000));
