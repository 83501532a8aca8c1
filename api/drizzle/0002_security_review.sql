-- Security review: no code rests in plain text. The outbox keeps no code column, and a body is
-- kept only while its mail waits for SMTP; a claim time lets a crashed sender's mail be retried.
ALTER TABLE "outbox" DROP COLUMN IF EXISTS "code";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "outbox" SET "status" = 'unsent' WHERE "status" = 'local';--> statement-breakpoint
UPDATE "outbox" SET "text_body" = '[redacted after sending]', "html_body" = '[redacted after sending]' WHERE "status" NOT IN ('pending', 'sending');
