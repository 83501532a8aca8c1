-- Issue 21, finding 1: a change of the login e-mail, the password or the payout wallet starts a
-- hold during which the account's withdrawals wait; the time of the last e-mail change decides
-- whether a code may be mailed to that address as a proof of the owner.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "withdrawals_held_until" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "email_changed_at" timestamp with time zone;
