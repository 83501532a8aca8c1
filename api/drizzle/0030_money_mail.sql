-- Mail when money moves (issue 27): what each account wants mailed, and one mail per event.
CREATE TABLE IF NOT EXISTS "mail_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"deposit_credited" boolean NOT NULL DEFAULT true,
	"withdrawal_paid" boolean NOT NULL DEFAULT true,
	"withdrawal_returned" boolean NOT NULL DEFAULT true,
	"claim_paid" boolean NOT NULL DEFAULT true,
	"withdrawal_held" boolean NOT NULL DEFAULT true,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- The event a mail tells of (e.g. "deposit-credited:42"): a job that runs twice queues it once.
ALTER TABLE "outbox" ADD COLUMN IF NOT EXISTS "event_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "outbox_event_key_idx" ON "outbox" ("event_key");
