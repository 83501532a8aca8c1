-- Changes of the money settings (issue 26): one operator proposes (an APY schedule entry of a pool,
-- or a currency's fee, minimum and approval thresholds), another approves and it is applied in the
-- same transaction. `before` is the setting as it stood when proposed: an approval finds it changed
-- since (stale) and is refused. The proposer never applies their own (the check below); they may
-- withdraw it (rejected).
CREATE TABLE IF NOT EXISTS "setting_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL CHECK ("kind" IN ('apy', 'payout')),
	"target" text NOT NULL,
	"effective_from" date,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL CHECK ("status" IN ('pending', 'applied', 'rejected')),
	"proposed_by" uuid NOT NULL REFERENCES "operators"("id") ON DELETE RESTRICT,
	"decided_by" uuid REFERENCES "operators"("id") ON DELETE RESTRICT,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "setting_changes_four_eyes" CHECK ("status" <> 'applied' OR "decided_by" <> "proposed_by"),
	CONSTRAINT "setting_changes_apy_day" CHECK (("kind" = 'apy') = ("effective_from" IS NOT NULL))
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "setting_changes_status_idx" ON "setting_changes" ("status", "id");
