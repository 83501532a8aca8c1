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
	INSERT INTO referral_members AS m (ancestor_id, level, members)
	SELECT ancestor_id, level, count(*) FROM new_tree GROUP BY ancestor_id, level ORDER BY 1, 2
	ON CONFLICT (ancestor_id, level) DO UPDATE SET members = m.members + excluded.members;
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
-- A position's change moves the capital of each of its holder's ancestors, one row per ancestor, level and currency per statement, in key order.
CREATE FUNCTION "referral_capital_follows_positions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO referral_capital AS c (ancestor_id, level, currency, balance)
	SELECT t.ancestor_id, t.level, d.currency, sum(d.delta)
	FROM (
		SELECT n.user_id, n.currency, n.balance - o.balance AS delta
		FROM new_accounts n JOIN old_accounts o ON o.id = n.id
		WHERE n.kind = 'position' AND n.balance <> o.balance
	) d
	JOIN referral_tree t ON t.user_id = d.user_id
	GROUP BY t.ancestor_id, t.level, d.currency
	ORDER BY 1, 2, 3
	ON CONFLICT (ancestor_id, level, currency) DO UPDATE SET balance = c.balance + excluded.balance;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "referral_capital_follows_new_positions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO referral_capital AS c (ancestor_id, level, currency, balance)
	SELECT t.ancestor_id, t.level, n.currency, sum(n.balance)
	FROM new_accounts n JOIN referral_tree t ON t.user_id = n.user_id
	WHERE n.kind = 'position' AND n.balance <> 0
	GROUP BY t.ancestor_id, t.level, n.currency
	ORDER BY 1, 2, 3
	ON CONFLICT (ancestor_id, level, currency) DO UPDATE SET balance = c.balance + excluded.balance;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_capital_follows_positions" AFTER UPDATE ON "ledger_accounts" REFERENCING OLD TABLE AS old_accounts NEW TABLE AS new_accounts FOR EACH STATEMENT EXECUTE FUNCTION "referral_capital_follows_positions"();--> statement-breakpoint
CREATE TRIGGER "referral_capital_follows_new_positions" AFTER INSERT ON "ledger_accounts" REFERENCING NEW TABLE AS new_accounts FOR EACH STATEMENT EXECUTE FUNCTION "referral_capital_follows_new_positions"();--> statement-breakpoint
CREATE FUNCTION "referral_reward_totals_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO referral_reward_totals AS r (user_id, currency, status, amount)
		SELECT user_id, currency, status, sum(amount) FROM new_rewards GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
		ON CONFLICT (user_id, currency, status) DO UPDATE SET amount = r.amount + excluded.amount;
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO referral_reward_totals AS r (user_id, currency, status, amount)
		SELECT user_id, currency, status, sum(amount) FROM (
			SELECT user_id, currency, status, amount FROM new_rewards
			UNION ALL
			SELECT user_id, currency, status, -amount FROM old_rewards
		) x GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
		ON CONFLICT (user_id, currency, status) DO UPDATE SET amount = r.amount + excluded.amount;
	ELSE
		INSERT INTO referral_reward_totals AS r (user_id, currency, status, amount)
		SELECT user_id, currency, status, -sum(amount) FROM old_rewards GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
		ON CONFLICT (user_id, currency, status) DO UPDATE SET amount = r.amount + excluded.amount;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_reward_totals_inserted" AFTER INSERT ON "referral_rewards" REFERENCING NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_reward_totals_follow"();--> statement-breakpoint
CREATE TRIGGER "referral_reward_totals_updated" AFTER UPDATE ON "referral_rewards" REFERENCING OLD TABLE AS old_rewards NEW TABLE AS new_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_reward_totals_follow"();--> statement-breakpoint
CREATE TRIGGER "referral_reward_totals_deleted" AFTER DELETE ON "referral_rewards" REFERENCING OLD TABLE AS old_rewards FOR EACH STATEMENT EXECUTE FUNCTION "referral_reward_totals_follow"();
