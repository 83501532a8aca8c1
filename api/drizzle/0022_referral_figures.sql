-- The referral page's figures kept per referrer (issue 23), so a referrer with a large downline
-- reads a few rows, not their downline: members per level (moved with the tree, which is written
-- once per user), the capital their members hold per level and currency in base units (moved with
-- every change of a member's position balance, in the same statement), and their rewards per
-- currency and status (moved with every reward written or changing state). Statement triggers, so
-- no writer can forget them; `ledger check --full` holds them to a re-sum.
CREATE TABLE "referral_members" (
	"ancestor_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"members" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "referral_members_pk" PRIMARY KEY ("ancestor_id", "level")
);--> statement-breakpoint
-- Signed like the balances: what the members hold is its negation.
CREATE TABLE "referral_capital" (
	"ancestor_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"currency" text NOT NULL,
	"balance" numeric(78, 0) DEFAULT '0' NOT NULL,
	CONSTRAINT "referral_capital_pk" PRIMARY KEY ("ancestor_id", "level", "currency")
);--> statement-breakpoint
CREATE TABLE "referral_reward_totals" (
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"amount" numeric(78, 0) DEFAULT '0' NOT NULL,
	CONSTRAINT "referral_reward_totals_pk" PRIMARY KEY ("user_id", "currency", "status")
);--> statement-breakpoint
INSERT INTO "referral_members" (ancestor_id, level, members)
SELECT ancestor_id, level, count(*) FROM referral_tree GROUP BY ancestor_id, level;--> statement-breakpoint
INSERT INTO "referral_capital" (ancestor_id, level, currency, balance)
SELECT t.ancestor_id, t.level, a.currency, sum(a.balance)
FROM referral_tree t JOIN ledger_accounts a ON a.user_id = t.user_id AND a.kind = 'position'
GROUP BY t.ancestor_id, t.level, a.currency;--> statement-breakpoint
INSERT INTO "referral_reward_totals" (user_id, currency, status, amount)
SELECT user_id, currency, status, sum(amount) FROM referral_rewards GROUP BY user_id, currency, status;--> statement-breakpoint
CREATE FUNCTION "referral_members_follow_tree"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE 'INSERT INTO referral_members AS m (ancestor_id, level, members)
		SELECT ancestor_id, level, count(*) FROM new_tree GROUP BY ancestor_id, level ORDER BY 1, 2
		ON CONFLICT (ancestor_id, level) DO UPDATE SET members = m.members + excluded.members';
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_members_follow_tree" AFTER INSERT ON "referral_tree" REFERENCING NEW TABLE AS new_tree FOR EACH STATEMENT EXECUTE FUNCTION "referral_members_follow_tree"();--> statement-breakpoint
CREATE FUNCTION "referral_tree_kept"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the referral tree is written once per user, never changed' USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_tree_kept" BEFORE UPDATE OR DELETE OR TRUNCATE ON "referral_tree" FOR EACH STATEMENT EXECUTE FUNCTION "referral_tree_kept"();--> statement-breakpoint
-- A position's change moves its pool's total (0021) and the capital of each of its holder's
-- ancestors: one statement, so the changed rows are paired once for both; one row per pool and
-- currency, and per ancestor, level and currency, in key order.
CREATE FUNCTION "positions_follow_updates"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- EXECUTE: planned for this statement's rows (a deposit's two, a day's million), never a cached generic plan.
	EXECUTE 'WITH d AS MATERIALIZED (
			SELECT n.user_id, n.pool, n.currency, n.balance - o.balance AS delta
			FROM new_accounts n JOIN old_accounts o ON o.id = n.id
			WHERE n.kind = ''position'' AND n.balance <> o.balance
		),
		pools AS (
			INSERT INTO pool_totals AS t (pool, currency, balance)
			SELECT pool, currency, sum(delta) FROM d GROUP BY pool, currency ORDER BY 1, 2
			ON CONFLICT (pool, currency) DO UPDATE SET balance = t.balance + excluded.balance
		)
		INSERT INTO referral_capital AS c (ancestor_id, level, currency, balance)
		SELECT t.ancestor_id, t.level, d.currency, sum(d.delta)
		FROM d JOIN referral_tree t ON t.user_id = d.user_id
		GROUP BY t.ancestor_id, t.level, d.currency
		ORDER BY 1, 2, 3
		ON CONFLICT (ancestor_id, level, currency) DO UPDATE SET balance = c.balance + excluded.balance';
	RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "pool_totals_follow_updates" ON "ledger_accounts";--> statement-breakpoint
DROP FUNCTION "pool_totals_follow_updates"();--> statement-breakpoint
CREATE FUNCTION "referral_capital_follows_new_positions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE 'INSERT INTO referral_capital AS c (ancestor_id, level, currency, balance)
		SELECT t.ancestor_id, t.level, n.currency, sum(n.balance)
		FROM new_accounts n JOIN referral_tree t ON t.user_id = n.user_id
		WHERE n.kind = ''position'' AND n.balance <> 0
		GROUP BY t.ancestor_id, t.level, n.currency
		ORDER BY 1, 2, 3
		ON CONFLICT (ancestor_id, level, currency) DO UPDATE SET balance = c.balance + excluded.balance';
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "positions_follow_updates" AFTER UPDATE ON "ledger_accounts" REFERENCING OLD TABLE AS old_accounts NEW TABLE AS new_accounts FOR EACH STATEMENT EXECUTE FUNCTION "positions_follow_updates"();--> statement-breakpoint
CREATE TRIGGER "referral_capital_follows_new_positions" AFTER INSERT ON "ledger_accounts" REFERENCING NEW TABLE AS new_accounts FOR EACH STATEMENT EXECUTE FUNCTION "referral_capital_follows_new_positions"();--> statement-breakpoint
CREATE FUNCTION "referral_reward_totals_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE moved text := CASE TG_OP
	WHEN 'INSERT' THEN 'SELECT user_id, currency, status, amount FROM new_rewards'
	WHEN 'UPDATE' THEN 'SELECT user_id, currency, status, amount FROM new_rewards UNION ALL SELECT user_id, currency, status, -amount FROM old_rewards'
	ELSE 'SELECT user_id, currency, status, -amount AS amount FROM old_rewards' END;
BEGIN
	EXECUTE 'INSERT INTO referral_reward_totals AS r (user_id, currency, status, amount)
		SELECT user_id, currency, status, sum(amount) FROM (' || moved || ') x GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
		ON CONFLICT (user_id, currency, status) DO UPDATE SET amount = r.amount + excluded.amount';
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_reward_totals_inserted" AFTER INSERT ON "referral_rewards" REFERENCING NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_reward_totals_follow"();--> statement-breakpoint
CREATE TRIGGER "referral_reward_totals_updated" AFTER UPDATE ON "referral_rewards" REFERENCING OLD TABLE AS old_rewards NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_reward_totals_follow"();--> statement-breakpoint
CREATE TRIGGER "referral_reward_totals_deleted" AFTER DELETE ON "referral_rewards" REFERENCING OLD TABLE AS old_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_reward_totals_follow"();
--> statement-breakpoint
-- Nothing is lost: the kept referral figures start equal to the tree, the positions and the rewards, or the migration refuses to run.
DO $$
BEGIN
	IF (SELECT coalesce(sum(members), 0) FROM referral_members) <> (SELECT count(*) FROM referral_tree)
	OR (SELECT coalesce(sum(balance), 0) FROM referral_capital) <> (SELECT coalesce(sum(a.balance), 0) FROM referral_tree t JOIN ledger_accounts a ON a.user_id = t.user_id AND a.kind = 'position')
	OR EXISTS (
		SELECT 1 FROM referral_reward_totals k
		FULL JOIN (SELECT currency, status, sum(amount) AS total FROM referral_rewards GROUP BY currency, status) s USING (currency, status)
		GROUP BY coalesce(k.currency, s.currency), coalesce(k.status, s.status)
		HAVING coalesce(sum(k.amount), 0) <> coalesce(max(s.total), 0)
	) THEN
		RAISE EXCEPTION 'the kept referral figures differ from the tree, the positions or the rewards: not migrated';
	END IF;
END $$;
