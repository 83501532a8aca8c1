-- Issue 21, finding 9: a proposal's voting power is the positions at its snapshot, which must be a
-- settled moment when voting opens. Rows made before the rule keep their dates (votes were cast
-- under them); the API keeps such a proposal pending until its snapshot has passed.
ALTER TABLE "dao_proposals" ADD CONSTRAINT "dao_proposals_snapshot_by_start" CHECK ("snapshot_at" <= "starts_at") NOT VALID;
--> statement-breakpoint
-- Finding 10: a reward is earned only on funds that stay. Each configuration version says how many
-- whole days after the day that earned it a reward waits ("vesting"); it then becomes available
-- ("earned") or, when the referee's funds left the pool meanwhile or the referee shares an address
-- with an ancestor, is returned to the house ("forfeited", with the reason). Rows written before
-- keep their status and have no vesting day.
ALTER TABLE "referral_config" ADD COLUMN "vesting_days" integer DEFAULT 30 NOT NULL CHECK ("vesting_days" BETWEEN 0 AND 365);--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD COLUMN "vests_on" date;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD COLUMN "forfeit_reason" text;--> statement-breakpoint
ALTER TABLE "referral_rewards" DROP CONSTRAINT "referral_rewards_status_check";--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_status_check" CHECK ("status" IN ('vesting', 'earned', 'in_payment', 'paid', 'forfeited'));--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_forfeit_reason_check" CHECK (("status" = 'forfeited') = ("forfeit_reason" IS NOT NULL) AND "forfeit_reason" IN ('funds_left', 'shared_address'));--> statement-breakpoint
-- The daily vesting run reads the rewards whose day has come.
CREATE INDEX "referral_rewards_vesting_idx" ON "referral_rewards" USING btree ("vests_on") WHERE "status" = 'vesting';
