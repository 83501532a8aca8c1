CREATE TABLE "coin_prices" (
	"source" text NOT NULL,
	"currency" text NOT NULL,
	"usd" numeric(38, 8) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coin_prices_source_currency_pk" PRIMARY KEY("source","currency")
);
--> statement-breakpoint
CREATE TABLE "pool_addresses" (
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pool_addresses_pool_currency_chain_id_pk" PRIMARY KEY("pool","currency","chain_id")
);
--> statement-breakpoint
DROP INDEX "deposits_tx_key";--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "chain_id" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "log_index" integer DEFAULT -1 NOT NULL;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "from_address" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "to_address" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "token_address" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "claimed_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "block_hash" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "confirmations" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "missing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "credited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "coin_prices" ADD CONSTRAINT "coin_prices_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_addresses" ADD CONSTRAINT "pool_addresses_pool_pools_name_fk" FOREIGN KEY ("pool") REFERENCES "public"."pools"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_addresses" ADD CONSTRAINT "pool_addresses_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_chain_tx_log_key" ON "deposits" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "deposits_pending_idx" ON "deposits" USING btree ("id") WHERE status = 'pending';--> statement-breakpoint
-- Rows from before verification were the client's word: never credit them; 'confirmed' is now 'credited'.
UPDATE "deposits" SET "status" = 'refused', "reason" = 'UNVERIFIED' WHERE "status" = 'pending';--> statement-breakpoint
UPDATE "deposits" SET "status" = 'credited', "credited_at" = "created_at" WHERE "status" = 'confirmed';
