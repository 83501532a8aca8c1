-- Custody (issue 26): the API holds no key. Payouts are signed by the signer process, from the float;
-- a payout it refuses keeps its reason here (never paid, shown to the operator, who may cancel it).
ALTER TABLE "withdrawals" ADD COLUMN IF NOT EXISTS "signer_refusal" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN IF NOT EXISTS "signer_refused_at" timestamp with time zone;--> statement-breakpoint
-- Sweeps of a deposit address's funds to the operator's cold address, signed by the signer. One open
-- sweep per address and currency (a second run or replica opens none), its nonce taken before it is
-- signed and its signed bytes stored before they are broadcast (a crash re-sends the same bytes).
CREATE TABLE IF NOT EXISTS "sweeps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'signing' NOT NULL,
	"nonce" bigint NOT NULL,
	"signed_tx" text,
	"tx_hash" text,
	"refusal" text,
	"broadcast_at" timestamp with time zone,
	"block_number" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sweeps_sender_nonce_key" ON "sweeps" ("chain_id", "from_address", "nonce");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sweeps_open_key" ON "sweeps" ("chain_id", "from_address", "currency") WHERE status in ('signing', 'sending');
