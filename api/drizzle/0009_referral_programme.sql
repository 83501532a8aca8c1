-- The referral programme (api/src/referral/README.md): configuration with history, the downline as a
-- closure table, daily rewards with their prices, claims paid as withdrawals.

-- The referrer is bound once, when the account is created, to an account that already exists and is
-- confirmed; it never changes. So the referral graph is a forest ordered by creation: no cycle, no
-- self-referral, whatever the application code does.
ALTER TABLE "users" ADD CONSTRAINT "users_referrer_fk" FOREIGN KEY ("referrer_id") REFERENCES "users"("id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_not_own_referrer" CHECK ("referrer_id" <> "id");--> statement-breakpoint
CREATE FUNCTION "users_referrer_bound"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		IF NEW."referrer_id" IS DISTINCT FROM OLD."referrer_id" THEN
			RAISE EXCEPTION 'the referrer is bound at sign-up and never changes' USING ERRCODE = 'check_violation', CONSTRAINT = 'users_referrer_fixed';
		END IF;
		RETURN NEW;
	END IF;
	-- Rows inserted earlier by the same statement are visible here, later ones are not: a referrer must come first.
	IF NEW."referrer_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "users" WHERE "id" = NEW."referrer_id" AND "role" IS NOT NULL) THEN
		RAISE EXCEPTION 'the referrer must be an existing confirmed account' USING ERRCODE = 'check_violation', CONSTRAINT = 'users_referrer_confirmed';
	END IF;
	RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_referrer_bound" BEFORE INSERT OR UPDATE OF "referrer_id" ON "users" FOR EACH ROW EXECUTE FUNCTION "users_referrer_bound"();--> statement-breakpoint

-- Every ancestor of a user up to level 10 (the deepest a configuration may go): written once with the
-- user, so rewards, members and capital attracted are joins, not recursion.
CREATE TABLE "referral_tree" (
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"level" integer NOT NULL CHECK ("level" BETWEEN 1 AND 10),
	"ancestor_id" uuid NOT NULL REFERENCES "users"("id"),
	CONSTRAINT "referral_tree_pk" PRIMARY KEY ("user_id", "level")
);
--> statement-breakpoint
CREATE INDEX "referral_tree_ancestor_idx" ON "referral_tree" USING btree ("ancestor_id", "level", "user_id");--> statement-breakpoint
CREATE FUNCTION "referral_tree_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."referrer_id" IS NOT NULL THEN
		INSERT INTO "referral_tree" ("user_id", "level", "ancestor_id")
		SELECT NEW."id", 1, NEW."referrer_id"
		UNION ALL
		SELECT NEW."id", t."level" + 1, t."ancestor_id" FROM "referral_tree" t WHERE t."user_id" = NEW."referrer_id" AND t."level" < 10;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_tree_add" AFTER INSERT ON "users" FOR EACH ROW EXECUTE FUNCTION "referral_tree_add"();--> statement-breakpoint
INSERT INTO "referral_tree" ("user_id", "level", "ancestor_id")
WITH RECURSIVE up("user_id", "level", "ancestor_id") AS (
	SELECT "id", 1, "referrer_id" FROM "users" WHERE "referrer_id" IS NOT NULL
	UNION ALL
	SELECT up."user_id", up."level" + 1, u."referrer_id" FROM up JOIN "users" u ON u."id" = up."ancestor_id" WHERE u."referrer_id" IS NOT NULL AND up."level" < 10
)
SELECT "user_id", "level", "ancestor_id" FROM up;
--> statement-breakpoint

-- The operator's configuration, one version per change: day D uses the latest version effective on
-- or before D. A version holds the payout currency, the levels' rates and the ranks.
CREATE TABLE "referral_config" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"effective_from" date NOT NULL,
	-- Checked against currencies when set (the seed adds currencies after the migrations).
	"currency" text NOT NULL,
	"set_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "referral_config_effective_idx" ON "referral_config" USING btree ("effective_from", "id");--> statement-breakpoint
CREATE TABLE "referral_config_levels" (
	"config_id" bigint NOT NULL REFERENCES "referral_config"("id"),
	"level" integer NOT NULL CHECK ("level" BETWEEN 1 AND 10),
	"reward_bps" integer NOT NULL CHECK ("reward_bps" BETWEEN 0 AND 1800),
	CONSTRAINT "referral_config_levels_pk" PRIMARY KEY ("config_id", "level")
);
--> statement-breakpoint
CREATE TABLE "referral_config_ranks" (
	"config_id" bigint NOT NULL REFERENCES "referral_config"("id"),
	"rank" integer NOT NULL CHECK ("rank" BETWEEN 1 AND 100),
	"title" text NOT NULL,
	"capital_usd" numeric(38, 8) NOT NULL CHECK ("capital_usd" >= 0),
	"bonus_bps" integer NOT NULL CHECK ("bonus_bps" BETWEEN 0 AND 1800),
	CONSTRAINT "referral_config_ranks_pk" PRIMARY KEY ("config_id", "rank")
);
--> statement-breakpoint
-- The programme's promise, "up to 18 %": the levels' rates plus the largest rank bonus at every level.
CREATE FUNCTION "referral_config_within_cap"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total bigint;
BEGIN
	SELECT coalesce((SELECT sum("reward_bps") FROM "referral_config_levels" WHERE "config_id" = NEW."config_id"), 0)
		+ (SELECT count(*) FROM "referral_config_levels" WHERE "config_id" = NEW."config_id")
		* coalesce((SELECT max("bonus_bps") FROM "referral_config_ranks" WHERE "config_id" = NEW."config_id"), 0)
	INTO total;
	IF total > 1800 THEN
		RAISE EXCEPTION 'referral rates add up to % bps, over 1800', total USING ERRCODE = 'check_violation', CONSTRAINT = 'referral_config_cap';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "referral_config_levels_cap" AFTER INSERT ON "referral_config_levels" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "referral_config_within_cap"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "referral_config_ranks_cap" AFTER INSERT ON "referral_config_ranks" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "referral_config_within_cap"();--> statement-breakpoint
CREATE FUNCTION "referral_config_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'referral configuration versions are kept as history: add a new version';
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_config_immutable" BEFORE UPDATE OR DELETE ON "referral_config" FOR EACH ROW EXECUTE FUNCTION "referral_config_immutable"();--> statement-breakpoint
CREATE TRIGGER "referral_config_levels_immutable" BEFORE UPDATE OR DELETE ON "referral_config_levels" FOR EACH ROW EXECUTE FUNCTION "referral_config_immutable"();--> statement-breakpoint
CREATE TRIGGER "referral_config_ranks_immutable" BEFORE UPDATE OR DELETE ON "referral_config_ranks" FOR EACH ROW EXECUTE FUNCTION "referral_config_immutable"();--> statement-breakpoint
-- The first version: 10 + 3 + 2 % over three levels and rank bonuses up to 1 % a level (15 + 3 = 18 %).
INSERT INTO "referral_config" ("effective_from", "currency", "set_by") VALUES (DATE '2020-01-01', 'USDT', 'migration');--> statement-breakpoint
INSERT INTO "referral_config_levels" ("config_id", "level", "reward_bps")
SELECT c."id", v."level", v."bps" FROM "referral_config" c, (VALUES (1, 1000), (2, 300), (3, 200)) v("level", "bps");
--> statement-breakpoint
INSERT INTO "referral_config_ranks" ("config_id", "rank", "title", "capital_usd", "bonus_bps")
SELECT c."id", v."rank", v."title", v."capital", v."bps" FROM "referral_config" c,
	(VALUES (1, 'Starter', 0, 0), (2, 'Bronze', 10000, 50), (3, 'Silver', 50000, 75), (4, 'Gold', 250000, 100)) v("rank", "title", "capital", "bps");
--> statement-breakpoint
DROP TABLE "referral_levels";--> statement-breakpoint
DROP TABLE "referral_ranks";--> statement-breakpoint

-- The USD prices a day's rewards were converted with, taken once: a rerun converts identically.
CREATE TABLE "referral_prices" (
	"day" date NOT NULL,
	"currency" text NOT NULL REFERENCES "currencies"("code"),
	"usd" numeric(38, 8) NOT NULL CHECK ("usd" > 0),
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_prices_pk" PRIMARY KEY ("day", "currency")
);
--> statement-breakpoint
-- One row per pool and day whose interest has been rewarded (the marker, like interest_days).
CREATE TABLE "referral_reward_days" (
	"pool" text NOT NULL REFERENCES "pools"("name"),
	"day" date NOT NULL,
	"config_id" bigint NOT NULL REFERENCES "referral_config"("id"),
	"currency" text NOT NULL,
	"rewards" integer NOT NULL,
	"total" numeric(78, 0) NOT NULL,
	"transaction_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_reward_days_pk" PRIMARY KEY ("pool", "day")
);
--> statement-breakpoint
-- Interest accrued before the programme existed earns no rewards.
INSERT INTO "referral_reward_days" ("pool", "day", "config_id", "currency", "rewards", "total")
SELECT d."pool", d."day", c."id", c."currency", 0, 0 FROM "interest_days" d, "referral_config" c;
--> statement-breakpoint

-- Claims are withdrawals of kind 'referral': the same payout job signs, sends and settles them.
ALTER TABLE "withdrawals" ADD COLUMN "kind" text DEFAULT 'position' NOT NULL CHECK ("kind" IN ('position', 'referral'));--> statement-breakpoint
-- One claim in payment per user, even with several replicas.
CREATE UNIQUE INDEX "withdrawals_one_referral_claim" ON "withdrawals" USING btree ("user_id") WHERE "kind" = 'referral' AND "status" IN ('requested', 'awaiting_approval', 'sending');--> statement-breakpoint
DROP TABLE "referral_payouts";--> statement-breakpoint
ALTER TABLE "referral_rewards" DROP COLUMN "payout_id";--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD COLUMN "pool" text;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD COLUMN "day" date;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD COLUMN "rate_bps" integer;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD COLUMN "transaction_id" bigint REFERENCES "ledger_transactions"("id");--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD COLUMN "withdrawal_id" bigint REFERENCES "withdrawals"("id");--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_status_check" CHECK ("status" IN ('earned', 'in_payment', 'paid'));--> statement-breakpoint
-- Per-row idempotency: one reward per day, pool, referee and level.
CREATE UNIQUE INDEX "referral_rewards_once" ON "referral_rewards" USING btree ("day", "pool", "from_user_id", "level");--> statement-breakpoint
CREATE INDEX "referral_rewards_claimable_idx" ON "referral_rewards" USING btree ("user_id", "currency", "status");--> statement-breakpoint
CREATE INDEX "referral_rewards_withdrawal_idx" ON "referral_rewards" USING btree ("withdrawal_id") WHERE "withdrawal_id" IS NOT NULL;--> statement-breakpoint
-- A claim's rewards follow its payout, in the same transaction as the status change, whichever
-- path settles it (paid, reverted, dropped, rejected): paid → already paid; returned → available again.
CREATE FUNCTION "referral_claim_settled"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."kind" = 'referral' AND NEW."status" IS DISTINCT FROM OLD."status" THEN
		IF NEW."status" = 'paid' THEN
			UPDATE "referral_rewards" SET "status" = 'paid' WHERE "withdrawal_id" = NEW."id" AND "status" = 'in_payment';
		ELSIF NEW."status" = 'returned' THEN
			UPDATE "referral_rewards" SET "status" = 'earned', "withdrawal_id" = NULL WHERE "withdrawal_id" = NEW."id" AND "status" = 'in_payment';
		END IF;
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "referral_claim_settled" AFTER UPDATE OF "status" ON "withdrawals" FOR EACH ROW EXECUTE FUNCTION "referral_claim_settled"();
