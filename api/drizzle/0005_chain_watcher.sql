-- Where the chain watcher has read up to: block number and hash (a changed hash is a reorg).
CREATE TABLE "watcher_cursor" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Hashes of the blocks read recently: on a reorg the watcher rewinds to the newest one still on the chain.
CREATE TABLE "watcher_blocks" (
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	CONSTRAINT "watcher_blocks_pk" PRIMARY KEY("chain_id", "block_number")
);
--> statement-breakpoint
-- Transfers into a pool address from a wallet linked to no account: kept for the operator, never lost.
CREATE TABLE "unclaimed_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"token_address" text,
	"currency" text NOT NULL,
	"pool" text,
	"amount" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"status" text DEFAULT 'unclaimed' NOT NULL,
	"deposit_id" bigint,
	"assigned_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "unclaimed_transfers_chain_tx_log_key" ON "unclaimed_transfers" USING btree ("chain_id", "tx_hash", "log_index");
