-- Custody (issue 26): the API holds no key. Payouts are signed by the signer process, from the float;
-- a payout it refuses keeps its reason here (never paid, shown to the operator, who may cancel it).
ALTER TABLE "withdrawals" ADD COLUMN IF NOT EXISTS "signer_refusal" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN IF NOT EXISTS "signer_refused_at" timestamp with time zone;--> statement-breakpoint
-- A refusal that passes with time (the signer's rate, its day's cap) is asked again from then on.
ALTER TABLE "withdrawals" ADD COLUMN IF NOT EXISTS "signer_retry_at" timestamp with time zone;--> statement-breakpoint
-- Transfers out of a deposit address, signed by the signer: sweeps to the operator's cold address
-- and approved refills of the float. One open transfer per address and currency (a second run or replica opens none), its nonce taken before it is
-- signed and its signed bytes stored before they are broadcast (a crash re-sends the same bytes).
-- A refill of the float from a deposit address: asked for by one operator, approved by another
-- (four eyes, also checked by the signer, which reads this row before it signs the transfer).
CREATE TABLE IF NOT EXISTS "float_refills" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"from_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL CHECK ("amount" > 0),
	"status" text DEFAULT 'awaiting_approval' NOT NULL,
	"requested_by" uuid NOT NULL REFERENCES "operators"("id") ON DELETE RESTRICT,
	"approved_by" uuid REFERENCES "operators"("id") ON DELETE RESTRICT,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "float_refills_four_eyes" CHECK ("approved_by" IS NULL OR "approved_by" <> "requested_by")
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sweeps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text DEFAULT 'sweep' NOT NULL,
	"refill_id" bigint UNIQUE REFERENCES "float_refills"("id") ON DELETE RESTRICT,
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
-- A refused transfer gives its nonce back: only the others hold one.
CREATE UNIQUE INDEX IF NOT EXISTS "sweeps_sender_nonce_key" ON "sweeps" ("chain_id", "from_address", "nonce") WHERE status <> 'refused';--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sweeps_open_key" ON "sweeps" ("chain_id", "from_address", "currency") WHERE status in ('signing', 'sending');
