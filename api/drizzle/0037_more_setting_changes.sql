-- Issue 26: the withdrawal limits and the referral programme's versions change with four eyes too.
-- A 'limits' change (target 'withdrawals') applies on approval; a 'referral' change (target: the
-- day it starts) adds a version from a future day, so it has its day as an APY change has.
ALTER TABLE "setting_changes" DROP CONSTRAINT IF EXISTS "setting_changes_kind_check";--> statement-breakpoint
ALTER TABLE "setting_changes" ADD CONSTRAINT "setting_changes_kind_check" CHECK ("kind" IN ('apy', 'payout', 'limits', 'referral'));--> statement-breakpoint
ALTER TABLE "setting_changes" DROP CONSTRAINT IF EXISTS "setting_changes_apy_day";--> statement-breakpoint
ALTER TABLE "setting_changes" ADD CONSTRAINT "setting_changes_effective_day" CHECK (("kind" IN ('apy', 'referral')) = ("effective_from" IS NOT NULL));
