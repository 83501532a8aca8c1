-- Issue 23: the API keeps a signed-in user's reads in memory for a few seconds (api/src/http/user-reads.ts).
-- Every replica drops a user's answers as soon as that user's own rows change: these statement-level
-- triggers send the distinct user ids a statement touched on the channel `user_reads`, or `*` (drop
-- everything) when it touched more than a few users (the daily accrual moves every position: one
-- notify, not one per position). Raised by the database itself, so no write path can forget it.
-- A notify is delivered at commit, and identical ones in a transaction are sent once.
CREATE FUNCTION "user_reads_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	"col" text := TG_ARGV[0];
	"ids" text[] := '{}';
	"id" text;
	"payload" text;
BEGIN
	-- A loop that stops at the first user past the bound: a statement over a million rows reads a few of them.
	FOR "id" IN EXECUTE format('SELECT %I::text FROM "changed" WHERE %I IS NOT NULL', "col", "col") LOOP
		CONTINUE WHEN "id" = ANY("ids");
		IF cardinality("ids") >= 16 THEN
			PERFORM pg_notify('user_reads', '*');
			RETURN NULL;
		END IF;
		"ids" := "ids" || "id";
	END LOOP;
	-- 16 uuids and their commas fit well inside pg_notify's 8000-byte payload.
	IF cardinality("ids") > 0 THEN
		"payload" := array_to_string("ids", ',');
		PERFORM pg_notify('user_reads', "payload");
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "user_reads_watch"("tbl" text, "col" text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	-- A trigger with transition tables serves one event: three per table.
	EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "user_reads_notify"(%L)', "tbl" || '_reads_ins', "tbl", "col");
	EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "user_reads_notify"(%L)', "tbl" || '_reads_upd', "tbl", "col");
	EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "user_reads_notify"(%L)', "tbl" || '_reads_del', "tbl", "col");
END
$$;
--> statement-breakpoint
-- Balances, positions, all-time figures and the referral payable (deposits, withdrawals, interest, claims).
SELECT "user_reads_watch"('ledger_accounts', 'user_id');
--> statement-breakpoint
-- The status and confirmations the activity list and the revision show.
SELECT "user_reads_watch"('deposits', 'user_id');
--> statement-breakpoint
SELECT "user_reads_watch"('withdrawals', 'user_id');
--> statement-breakpoint
-- DAO: the proposals a user voted on.
SELECT "user_reads_watch"('dao_votes', 'user_id');
--> statement-breakpoint
-- The referral page: members per level, capital attracted, rewards by state.
SELECT "user_reads_watch"('referral_members', 'ancestor_id');
--> statement-breakpoint
SELECT "user_reads_watch"('referral_capital', 'ancestor_id');
--> statement-breakpoint
SELECT "user_reads_watch"('referral_reward_totals', 'user_id');
--> statement-breakpoint
SELECT "user_reads_watch"('referral_day_rewards', 'user_id');
--> statement-breakpoint
-- The dashboard's tutorial flag.
SELECT "user_reads_watch"('tutorial_dismissals', 'user_id');
--> statement-breakpoint
-- Figures everyone's answers show that change by an operator's hand, rarely: the APY in force and
-- the referral programme drop every answer at once. Prices, a pool's total value locked and its
-- history move all day and are only bounded by the cache's lifetime.
CREATE FUNCTION "user_reads_notify_everyone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('user_reads', '*');
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "pool_apy_reads" AFTER INSERT OR UPDATE OR DELETE ON "pool_apy" FOR EACH STATEMENT EXECUTE FUNCTION "user_reads_notify_everyone"();
--> statement-breakpoint
CREATE TRIGGER "referral_config_reads" AFTER INSERT OR UPDATE OR DELETE ON "referral_config" FOR EACH STATEMENT EXECUTE FUNCTION "user_reads_notify_everyone"();
--> statement-breakpoint
CREATE TRIGGER "referral_config_levels_reads" AFTER INSERT OR UPDATE OR DELETE ON "referral_config_levels" FOR EACH STATEMENT EXECUTE FUNCTION "user_reads_notify_everyone"();
--> statement-breakpoint
CREATE TRIGGER "referral_config_ranks_reads" AFTER INSERT OR UPDATE OR DELETE ON "referral_config_ranks" FOR EACH STATEMENT EXECUTE FUNCTION "user_reads_notify_everyone"();
--> statement-breakpoint
DROP FUNCTION "user_reads_watch"(text, text);
