-- Each pool's APY with its history: the rate of day D is the row with the latest effective_from ≤ D.
CREATE TABLE "pool_apy" (
	"pool" text NOT NULL REFERENCES "pools"("name"),
	"effective_from" date NOT NULL,
	"apy" numeric(24, 18) NOT NULL CHECK ("apy" >= 0),
	"set_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pool_apy_pool_effective_from_pk" PRIMARY KEY("pool", "effective_from")
);
--> statement-breakpoint
INSERT INTO "pool_apy" ("pool", "effective_from", "apy", "set_by")
SELECT "name", DATE '2020-01-01', "apy_bps"::numeric / 10000, 'migration' FROM "pools";
--> statement-breakpoint
-- One row per pool and accrued day: the marker that the day is done, with the rate used.
CREATE TABLE "interest_days" (
	"pool" text NOT NULL REFERENCES "pools"("name"),
	"day" date NOT NULL,
	"apy" numeric(24, 18) NOT NULL,
	"rate" numeric(40, 0) NOT NULL,
	"transaction_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interest_days_pool_day_pk" PRIMARY KEY("pool", "day")
);
--> statement-breakpoint
-- Every operator action: who, what, when, before and after.
CREATE TABLE "operator_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"before" jsonb,
	"after" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- One runner per job at a time, across replicas: a lease that its holder renews.
CREATE TABLE "job_leases" (
	"job" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
-- Withdrawals paid on chain. Status: requested, awaiting_approval, sending, paid, returned.
ALTER TABLE "withdrawals" ADD COLUMN "fee" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "to_address" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "from_address" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "chain_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "nonce" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "signed_tx" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "tx_hash" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "confirmations" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "broadcast_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "decided_by" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_sender_nonce_key" ON "withdrawals" USING btree ("chain_id", "from_address", "nonce") WHERE "nonce" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "withdrawals_open_idx" ON "withdrawals" USING btree ("id") WHERE "status" IN ('requested', 'sending');--> statement-breakpoint
-- The nonce manager: the next nonce of each hot wallet, taken under a row lock.
CREATE TABLE "hot_wallet_nonces" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"next_nonce" bigint NOT NULL,
	CONSTRAINT "hot_wallet_nonces_pk" PRIMARY KEY("chain_id", "address")
);
