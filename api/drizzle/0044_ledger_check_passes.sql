-- Issue 23, goal 2: the incremental ledger check takes in a large batch of new legs (a day of
-- interest) in bounded steps, each its own database transaction. A pass is fixed when it starts
-- (the transactions written between the checkpoint's horizon and the pass's own), walked by ranges
-- of account ids, and finished with the per-transaction and per-pool proofs its steps add up.
-- The horizon is empty until a first pass has finished (the first run reads everything).
ALTER TABLE "ledger_checkpoint" ALTER COLUMN "horizon" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_checkpoint" ADD COLUMN "pass_horizon" xid8;--> statement-breakpoint
ALTER TABLE "ledger_checkpoint" ADD COLUMN "pass_from" bigint;--> statement-breakpoint
ALTER TABLE "ledger_checkpoint" ADD COLUMN "pass_next_account" bigint;--> statement-breakpoint
ALTER TABLE "ledger_checkpoint" ADD COLUMN "pass_last_account" bigint;--> statement-breakpoint
ALTER TABLE "ledger_checkpoint" ADD COLUMN "pass_transactions" integer;--> statement-breakpoint
CREATE TABLE "ledger_check_pass_transactions" (
	"transaction_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"sum" numeric(78, 0) NOT NULL,
	CONSTRAINT "ledger_check_pass_transactions_pk" PRIMARY KEY ("transaction_id", "currency")
);--> statement-breakpoint
CREATE TABLE "ledger_check_pass_pools" (
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"entries" numeric(78, 0) NOT NULL,
	CONSTRAINT "ledger_check_pass_pools_pk" PRIMARY KEY ("pool", "currency")
);
