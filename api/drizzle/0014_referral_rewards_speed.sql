-- Speed of the daily referral rewards (three rows per referee: three million for a million): the
-- references of a reward (its referrer, its referee, its claim) are checked once per statement over
-- its new rows, as the ledger's are (0010), instead of three foreign-key triggers per row. What the
-- foreign keys also forbade stays forbidden: deleting a user or a withdrawal a reward names.
ALTER TABLE "referral_rewards" DROP CONSTRAINT "referral_rewards_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "referral_rewards" DROP CONSTRAINT "referral_rewards_from_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "referral_rewards" DROP CONSTRAINT "referral_rewards_withdrawal_id_fkey";--> statement-breakpoint
CREATE FUNCTION "referral_rewards_references"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing boolean; many boolean; nestloop text := current_setting('enable_nestloop');
BEGIN
	-- A day's rewards: hash the users once rather than probe their index for every row.
	SELECT count(*) > 10000 INTO many FROM new_rewards;
	IF many THEN PERFORM set_config('enable_nestloop', 'off', true); END IF;
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM (SELECT user_id AS id FROM new_rewards UNION SELECT from_user_id FROM new_rewards) n WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = n.id))
		OR EXISTS (SELECT 1 FROM (SELECT DISTINCT withdrawal_id FROM new_rewards WHERE withdrawal_id IS NOT NULL) n WHERE NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.id = n.withdrawal_id))' INTO missing;
	IF many THEN PERFORM set_config('enable_nestloop', nestloop, true); END IF;
	IF missing THEN
		RAISE EXCEPTION 'a referral reward refers to a missing user or withdrawal' USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_rewards_references" AFTER INSERT ON "referral_rewards" REFERENCING NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_rewards_references"();--> statement-breakpoint
CREATE TRIGGER "referral_rewards_references_updated" AFTER UPDATE ON "referral_rewards" REFERENCING NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_rewards_references"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "users_keep_accounts"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE referenced boolean;
BEGIN
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM gone_users g JOIN ledger_accounts a ON a.user_id = g.id)
		OR EXISTS (SELECT 1 FROM gone_users g JOIN referral_rewards r ON r.user_id = g.id OR r.from_user_id = g.id)' INTO referenced;
	IF referenced THEN
		RAISE EXCEPTION 'a user with ledger accounts or referral rewards cannot be deleted' USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "withdrawals_keep_rewards"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE referenced boolean;
BEGIN
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM gone_withdrawals g JOIN referral_rewards r ON r.withdrawal_id = g.id)' INTO referenced;
	IF referenced THEN
		RAISE EXCEPTION 'a withdrawal that pays referral rewards cannot be deleted' USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "withdrawals_keep_rewards" AFTER DELETE ON "withdrawals" REFERENCING OLD TABLE AS gone_withdrawals FOR EACH STATEMENT EXECUTE FUNCTION "withdrawals_keep_rewards"();
