-- Issue 23, goal 3: referral rewards grow by bytes, not rows. A day's rewards were one row per
-- (day, pool, referee, level): three million a day for a million referees. They become one row per
-- (referrer, day) in the day's payout currency, and what each member gave a referrer is kept per
-- (referrer, member, month) for the affiliates page, both written in the reward's own statement.
-- The audit trail stays: each pool's day keeps its marker, its ledger transaction (which now names
-- the interest transactions it was computed from) and the referees it withheld nothing from, so a
-- day's rewards, and any member's share of them, can be recomputed from the interest postings.
CREATE TABLE "referral_day_rewards" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"currency" text NOT NULL,
	-- The rank bonus the day's rewards used, so a member's share can be recomputed (vesting, audit).
	"bonus_bps" smallint NOT NULL DEFAULT 0,
	-- vesting (until the day's period has closed), earned (available), in_payment, paid, or
	-- forfeited (all of the day's rewards went back to the house).
	"status" text NOT NULL,
	-- What is still the referrer's, in base units of the currency; the forfeited part beside it.
	"amount" numeric(78, 0) NOT NULL,
	"forfeited" numeric(78, 0) NOT NULL DEFAULT 0,
	-- The claim paying it (a withdrawal of kind 'referral').
	"withdrawal_id" bigint,
	CONSTRAINT "referral_day_rewards_pk" PRIMARY KEY ("user_id", "day"),
	CONSTRAINT "referral_day_rewards_status_check" CHECK ("status" IN ('vesting', 'earned', 'in_payment', 'paid', 'forfeited')),
	CONSTRAINT "referral_day_rewards_forfeited_check" CHECK ("forfeited" >= 0 AND ("status" = 'forfeited') = ("amount" = 0 AND "forfeited" > 0))
);--> statement-breakpoint
-- Claims and sums read by user, currency and status; the daily vesting reads a day's rows still vesting.
CREATE INDEX "referral_day_rewards_claimable_idx" ON "referral_day_rewards" USING btree ("user_id", "currency", "status");--> statement-breakpoint
CREATE INDEX "referral_day_rewards_vesting_idx" ON "referral_day_rewards" USING btree ("day") WHERE "status" = 'vesting';--> statement-breakpoint
CREATE INDEX "referral_day_rewards_withdrawal_idx" ON "referral_day_rewards" USING btree ("withdrawal_id") WHERE "withdrawal_id" IS NOT NULL;--> statement-breakpoint
-- What each member gave each of their referrers, per month: the referrer at level L is the member's
-- ancestor at L (`referral_tree`, one per level), so one row per member and month holds every
-- level's share (`amounts[L]`), forfeits taken off. Added to daily, so half of each page is left
-- free for the day's new versions (HOT updates: no index write).
CREATE TABLE "referral_member_rewards" (
	"member_id" uuid NOT NULL,
	"month" date NOT NULL,
	"currency" text NOT NULL,
	"amounts" numeric(78, 0)[] NOT NULL,
	CONSTRAINT "referral_member_rewards_pk" PRIMARY KEY ("member_id", "month", "currency")
) WITH (fillfactor = 50);--> statement-breakpoint
-- Per-level shares added element by element; a missing level is 0.
CREATE FUNCTION "referral_levels_add"(a numeric[], b numeric[]) RETURNS numeric[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT coalesce(array_agg(coalesce(a[i], 0) + coalesce(b[i], 0) ORDER BY i), '{}')
	FROM generate_series(1, greatest(coalesce(cardinality(a), 0), coalesce(cardinality(b), 0))) i
$$;--> statement-breakpoint
-- One level's share as a per-level array: zeros below it.
CREATE FUNCTION "referral_level_share"(level integer, amount numeric) RETURNS numeric[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT array_fill(0::numeric, ARRAY[level - 1]) || amount
$$;--> statement-breakpoint
CREATE AGGREGATE "referral_levels_sum"(numeric[]) (SFUNC = "referral_levels_add", STYPE = numeric[], INITCOND = '{}');--> statement-breakpoint
-- A pool's day: when its rewards vest, whether that is decided, and the day's earners who gave
-- nothing (no proved e-mail, or an address shared with an ancestor), which a recomputation leaves out.
ALTER TABLE "referral_reward_days" ADD COLUMN "vests_on" date;--> statement-breakpoint
ALTER TABLE "referral_reward_days" ADD COLUMN "decided" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "referral_reward_days" ADD COLUMN "withheld" uuid[];--> statement-breakpoint
CREATE INDEX "referral_reward_days_undecided_idx" ON "referral_reward_days" USING btree ("vests_on") WHERE NOT "decided";--> statement-breakpoint
UPDATE "referral_reward_days" d SET "vests_on" = d."day" + c."vesting_days",
	"decided" = NOT EXISTS (SELECT 1 FROM "referral_rewards" r WHERE r."pool" = d."pool" AND r."day" = d."day" AND r."status" = 'vesting')
FROM "referral_config" c WHERE c."id" = d."config_id";--> statement-breakpoint
-- The earners of a day still vesting who gave no reward while an ancestor could have had one.
UPDATE "referral_reward_days" d SET "withheld" = (
	SELECT array_agg(DISTINCT a."user_id" ORDER BY a."user_id") FROM "interest_accruals" a
	WHERE a."pool" = d."pool" AND a."day" = d."day" AND a."amount" > 0
	  AND EXISTS (SELECT 1 FROM "referral_tree" t WHERE t."user_id" = a."user_id")
	  AND NOT EXISTS (SELECT 1 FROM "referral_rewards" r WHERE r."pool" = d."pool" AND r."day" = d."day" AND r."from_user_id" = a."user_id"))
WHERE NOT d."decided";--> statement-breakpoint
-- One row per referrer and day holds one currency, one state and one claim in payment (a paid
-- day keeps its latest claim; the ledger keeps every one): anything else is refused.
DO $$
BEGIN
	IF EXISTS (
		SELECT 1 FROM "referral_rewards"
		GROUP BY "user_id", coalesce("day", "created_at"::date)
		HAVING count(DISTINCT "currency") > 1
		    OR count(DISTINCT "status") FILTER (WHERE "status" <> 'forfeited') > 1
		    OR count(DISTINCT "withdrawal_id") FILTER (WHERE "status" = 'in_payment') > 1
	) THEN
		RAISE EXCEPTION 'a referrer''s rewards of one day are in more than one currency, state or claim: not migrated';
	END IF;
END $$;
--> statement-breakpoint
INSERT INTO "referral_day_rewards" ("user_id", "day", "currency", "bonus_bps", "status", "amount", "forfeited", "withdrawal_id")
SELECT r."user_id", coalesce(r."day", r."created_at"::date), min(r."currency"),
	coalesce(max(r."rate_bps" - lv."reward_bps"), 0),
	coalesce(min(r."status") FILTER (WHERE r."status" <> 'forfeited'), 'forfeited'),
	coalesce(sum(r."amount") FILTER (WHERE r."status" <> 'forfeited'), 0),
	coalesce(sum(r."amount") FILTER (WHERE r."status" = 'forfeited'), 0),
	max(r."withdrawal_id")
FROM "referral_rewards" r
LEFT JOIN "referral_reward_days" d ON d."pool" = r."pool" AND d."day" = r."day"
LEFT JOIN "referral_config_levels" lv ON lv."config_id" = d."config_id" AND lv."level" = r."level"
GROUP BY r."user_id", coalesce(r."day", r."created_at"::date);--> statement-breakpoint
INSERT INTO "referral_member_rewards" ("member_id", "month", "currency", "amounts")
SELECT "from_user_id", date_trunc('month', coalesce("day", "created_at"::date))::date, "currency", referral_levels_sum(referral_level_share("level", "amount"))
FROM "referral_rewards" WHERE "status" <> 'forfeited' AND "from_user_id" IS NOT NULL
GROUP BY 1, 2, 3;--> statement-breakpoint
-- Nothing is lost: every referrer's rewards per currency, per currency and state, and the grand
-- total per currency, what each member gave each referrer, and the kept totals (0022) equal the
-- old rows', or the migration refuses to run.
DO $$
BEGIN
	IF EXISTS (
		SELECT 1 FROM (SELECT "user_id", "currency", sum("amount") AS total FROM "referral_rewards" GROUP BY 1, 2) o
		FULL JOIN (SELECT "user_id", "currency", sum("amount" + "forfeited") AS total FROM "referral_day_rewards" GROUP BY 1, 2) n USING ("user_id", "currency")
		WHERE o.total IS DISTINCT FROM n.total
	) OR EXISTS (
		SELECT 1 FROM (SELECT "user_id", "currency", "status", sum("amount") AS total FROM "referral_rewards" GROUP BY 1, 2, 3) o
		FULL JOIN (
			SELECT "user_id", "currency", "status", sum(v) AS total FROM (
				SELECT "user_id", "currency", "status", "amount" AS v FROM "referral_day_rewards" WHERE "status" <> 'forfeited'
				UNION ALL SELECT "user_id", "currency", 'forfeited', "forfeited" FROM "referral_day_rewards" WHERE "forfeited" > 0
			) x GROUP BY 1, 2, 3
		) n USING ("user_id", "currency", "status")
		WHERE o.total IS DISTINCT FROM n.total
	) OR EXISTS (
		SELECT 1 FROM (SELECT "currency", sum("amount") AS total FROM "referral_rewards" GROUP BY 1) o
		FULL JOIN (SELECT "currency", sum("amount" + "forfeited") AS total FROM "referral_day_rewards" GROUP BY 1) n USING ("currency")
		WHERE o.total IS DISTINCT FROM n.total
	) OR EXISTS (
		SELECT 1 FROM (SELECT "user_id", "from_user_id" AS "member_id", "currency", sum("amount") AS total FROM "referral_rewards"
		               WHERE "status" <> 'forfeited' AND "from_user_id" IS NOT NULL GROUP BY 1, 2, 3 HAVING sum("amount") <> 0) o
		FULL JOIN (
			SELECT t."ancestor_id" AS "user_id", m."member_id", m."currency", sum(l.amount) AS total
			FROM "referral_member_rewards" m CROSS JOIN unnest(m."amounts") WITH ORDINALITY l(amount, level)
			JOIN "referral_tree" t ON t."user_id" = m."member_id" AND t."level" = l.level
			WHERE l.amount <> 0 GROUP BY 1, 2, 3
		) n USING ("user_id", "member_id", "currency")
		WHERE o.total IS DISTINCT FROM n.total
	) OR EXISTS (
		SELECT 1 FROM (SELECT "user_id", "currency", "status", "amount" AS total FROM "referral_reward_totals" WHERE "amount" <> 0) k
		FULL JOIN (
			SELECT "user_id", "currency", "status", sum(v) AS total FROM (
				SELECT "user_id", "currency", "status", "amount" AS v FROM "referral_day_rewards" WHERE "status" <> 'forfeited'
				UNION ALL SELECT "user_id", "currency", 'forfeited', "forfeited" FROM "referral_day_rewards" WHERE "forfeited" > 0
			) x GROUP BY 1, 2, 3 HAVING sum(v) <> 0
		) n USING ("user_id", "currency", "status")
		WHERE k.total IS DISTINCT FROM n.total
	) THEN
		RAISE EXCEPTION 'the referral rewards moved differ from the rewards of before: not migrated';
	END IF;
END $$;
--> statement-breakpoint
-- The kept totals per referrer, currency and state now follow the day rows: the state's amount, and the forfeited part.
CREATE OR REPLACE FUNCTION "referral_reward_totals_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	one_side text := 'SELECT user_id, currency, status, amount FROM %1$s WHERE status <> ''forfeited'' UNION ALL SELECT user_id, currency, ''forfeited'', forfeited FROM %1$s WHERE forfeited <> 0';
	gone text := 'SELECT user_id, currency, status, -amount FROM %1$s WHERE status <> ''forfeited'' UNION ALL SELECT user_id, currency, ''forfeited'', -forfeited FROM %1$s WHERE forfeited <> 0';
	moved text := CASE TG_OP
		WHEN 'INSERT' THEN format(one_side, 'new_rewards')
		WHEN 'UPDATE' THEN format(one_side, 'new_rewards') || ' UNION ALL ' || format(gone, 'old_rewards')
		ELSE format(gone, 'old_rewards') END;
BEGIN
	EXECUTE 'INSERT INTO referral_reward_totals AS r (user_id, currency, status, amount)
		SELECT user_id, currency, status, sum(amount) FROM (' || moved || ') x(user_id, currency, status, amount) GROUP BY 1, 2, 3 HAVING sum(amount) <> 0 ORDER BY 1, 2, 3
		ON CONFLICT (user_id, currency, status) DO UPDATE SET amount = r.amount + excluded.amount';
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_reward_totals_inserted" AFTER INSERT ON "referral_day_rewards" REFERENCING NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_reward_totals_follow"();--> statement-breakpoint
CREATE TRIGGER "referral_reward_totals_updated" AFTER UPDATE ON "referral_day_rewards" REFERENCING OLD TABLE AS old_rewards NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_reward_totals_follow"();--> statement-breakpoint
CREATE TRIGGER "referral_reward_totals_deleted" AFTER DELETE ON "referral_day_rewards" REFERENCING OLD TABLE AS old_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_reward_totals_follow"();--> statement-breakpoint
-- A reward's users and claim, checked once per statement as before (0014).
CREATE OR REPLACE FUNCTION "referral_rewards_references"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing boolean;
BEGIN
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM (SELECT DISTINCT user_id AS id FROM new_rewards) n WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = n.id))
		OR EXISTS (SELECT 1 FROM (SELECT DISTINCT withdrawal_id FROM new_rewards WHERE withdrawal_id IS NOT NULL) n WHERE NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.id = n.withdrawal_id))' INTO missing;
	IF missing THEN
		RAISE EXCEPTION 'a referral reward refers to a missing user or withdrawal' USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_day_rewards_references" AFTER INSERT ON "referral_day_rewards" REFERENCING NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_rewards_references"();--> statement-breakpoint
CREATE TRIGGER "referral_day_rewards_references_updated" AFTER UPDATE ON "referral_day_rewards" REFERENCING NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_rewards_references"();--> statement-breakpoint
CREATE FUNCTION "referral_member_rewards_references"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing boolean;
BEGIN
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM new_members n WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = n.member_id))' INTO missing;
	IF missing THEN
		RAISE EXCEPTION 'a referral reward refers to a missing user or withdrawal' USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_member_rewards_references" AFTER INSERT ON "referral_member_rewards" REFERENCING NEW TABLE AS new_members FOR EACH STATEMENT EXECUTE FUNCTION "referral_member_rewards_references"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "users_keep_accounts"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE referenced boolean;
BEGIN
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM gone_users g JOIN ledger_accounts a ON a.user_id = g.id)
		OR EXISTS (SELECT 1 FROM gone_users g JOIN referral_day_rewards r ON r.user_id = g.id)
		OR EXISTS (SELECT 1 FROM gone_users g JOIN referral_member_rewards m ON m.member_id = g.id)' INTO referenced;
	IF referenced THEN
		RAISE EXCEPTION 'a user with ledger accounts or referral rewards cannot be deleted' USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "withdrawals_keep_rewards"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE referenced boolean;
BEGIN
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM gone_withdrawals g JOIN referral_day_rewards r ON r.withdrawal_id = g.id)' INTO referenced;
	IF referenced THEN
		RAISE EXCEPTION 'a withdrawal that pays referral rewards cannot be deleted' USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "referral_claim_settled"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."kind" = 'referral' AND NEW."status" IS DISTINCT FROM OLD."status" THEN
		IF NEW."status" = 'paid' THEN
			UPDATE "referral_day_rewards" SET "status" = 'paid' WHERE "withdrawal_id" = NEW."id" AND "status" = 'in_payment';
		ELSIF NEW."status" = 'returned' THEN
			UPDATE "referral_day_rewards" SET "status" = 'earned', "withdrawal_id" = NULL WHERE "withdrawal_id" = NEW."id" AND "status" = 'in_payment';
		END IF;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
DROP TABLE "referral_rewards";
