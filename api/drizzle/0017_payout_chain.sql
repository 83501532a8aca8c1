-- Payouts that are funded, estimated and settled only on proof (issue 21, findings 5 to 8, "money owed
-- is money on chain"). New withdrawal states: waiting_funds (not signed: the hot wallet cannot pay it
-- yet; no nonce held) and cancelling (a zero-value self-transfer at its nonce is being sent).
ALTER TABLE "withdrawals" ADD COLUMN "reverts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "signed_block" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "signed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "cancel_tx" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "cancel_hash" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "waiting_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "recheck_until" timestamp with time zone;--> statement-breakpoint
DROP INDEX "withdrawals_open_idx";--> statement-breakpoint
CREATE INDEX "withdrawals_open_idx" ON "withdrawals" USING btree ("id") WHERE "status" IN ('requested', 'waiting_funds', 'sending', 'cancelling');--> statement-breakpoint
CREATE INDEX "withdrawals_recheck_idx" ON "withdrawals" USING btree ("id") WHERE "recheck_until" IS NOT NULL;--> statement-breakpoint
DROP INDEX "withdrawals_one_referral_claim";--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_one_referral_claim" ON "withdrawals" USING btree ("user_id") WHERE "kind" = 'referral' AND "status" IN ('requested', 'awaiting_approval', 'waiting_funds', 'sending', 'cancelling');--> statement-breakpoint
-- What the operator must look at, one row per subject (key): raised again, it counts; resolved, it stays as history.
CREATE TABLE "operator_alerts" (
	"key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"detail" jsonb,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"resolved_at" timestamp with time zone
);--> statement-breakpoint
-- Transfers from the treasury (yield) address to a pool's paying address: what the books owe there
-- beyond what it holds. Signed and stored before broadcast, like a payout.
CREATE TABLE "treasury_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"nonce" bigint NOT NULL,
	"signed_tx" text NOT NULL,
	"tx_hash" text NOT NULL,
	"broadcast_at" timestamp with time zone,
	"block_number" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "treasury_transfers_status_check" CHECK ("status" IN ('sending', 'done', 'failed'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "treasury_transfers_sender_nonce_key" ON "treasury_transfers" USING btree ("chain_id", "from_address", "nonce");--> statement-breakpoint
-- One open transfer per paying address and currency: a second run never funds the same shortfall twice.
CREATE UNIQUE INDEX "treasury_transfers_open_key" ON "treasury_transfers" USING btree ("to_address", "currency") WHERE "status" = 'sending';
