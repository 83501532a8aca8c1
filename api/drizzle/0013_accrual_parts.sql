-- The day's interest is read from the ledger itself: `interest_accruals` becomes a view of the
-- interest postings instead of a second copy written beside them (a million rows a day less for a
-- million positions). The once-per-position guarantee moves onto the postings: a transaction posts
-- to an account at most once, and a pool's day is a fixed set of transactions (its parts).
DO $$
BEGIN
	-- Nothing is lost: every row of the table is an interest posting of the same amount, and back.
	IF EXISTS (
		(SELECT user_id, pool, currency, day, amount FROM interest_accruals
		 EXCEPT ALL
		 SELECT a.user_id, a.pool, a.currency, (t.detail->>'day')::date, -p.amount
		 FROM ledger_transactions t JOIN ledger_postings p ON p.transaction_id = t.id JOIN ledger_accounts a ON a.id = p.account_id
		 WHERE t.kind = 'interest' AND a.kind = 'position')
		UNION ALL
		(SELECT a.user_id, a.pool, a.currency, (t.detail->>'day')::date, -p.amount
		 FROM ledger_transactions t JOIN ledger_postings p ON p.transaction_id = t.id JOIN ledger_accounts a ON a.id = p.account_id
		 WHERE t.kind = 'interest' AND a.kind = 'position'
		 EXCEPT ALL
		 SELECT user_id, pool, currency, day, amount FROM interest_accruals)
	) THEN
		RAISE EXCEPTION 'interest_accruals and the interest postings differ: not migrated';
	END IF;
END $$;
--> statement-breakpoint
DROP TRIGGER "users_keep_accruals" ON "users";--> statement-breakpoint
DROP FUNCTION "users_keep_accruals"();--> statement-breakpoint
-- What kept a user with accruals from being deleted now keeps any user with a ledger account.
CREATE FUNCTION "users_keep_accounts"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE referenced boolean;
BEGIN
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM gone_users g JOIN ledger_accounts a ON a.user_id = g.id)' INTO referenced;
	IF referenced THEN
		RAISE EXCEPTION 'a user with ledger accounts cannot be deleted' USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_keep_accounts" AFTER DELETE ON "users" REFERENCING OLD TABLE AS gone_users FOR EACH STATEMENT EXECUTE FUNCTION "users_keep_accounts"();--> statement-breakpoint
DROP TABLE "interest_accruals";--> statement-breakpoint
DROP FUNCTION "interest_accruals_references"();--> statement-breakpoint
CREATE INDEX "ledger_transactions_interest_idx" ON "ledger_transactions" USING btree ((detail->>'pool'), (detail->>'day')) WHERE "kind" = 'interest';--> statement-breakpoint
CREATE VIEW "interest_accruals" AS
	SELECT a.user_id, a.pool, a.currency, (t.detail->>'day')::date AS day, -p.amount AS amount
	FROM ledger_transactions t
	JOIN ledger_postings p ON p.transaction_id = t.id
	JOIN ledger_accounts a ON a.id = p.account_id
	WHERE t.kind = 'interest' AND a.kind = 'position';--> statement-breakpoint
-- A leg is named by its transaction and account (one leg per account and transaction): that key
-- replaces the serial id and the plain index on transaction_id, so a million legs draw no
-- sequence numbers and grow two indexes, not three.
ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_pkey";--> statement-breakpoint
ALTER TABLE "ledger_postings" DROP COLUMN "id";--> statement-breakpoint
DROP INDEX "ledger_postings_transaction_idx";--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_once" PRIMARY KEY ("transaction_id", "account_id");--> statement-breakpoint
-- A day's part brings half a million legs at once: probing the accounts' index for each (and the
-- heap, as the same statement has just updated those accounts) costs more than one hash of them.
CREATE OR REPLACE FUNCTION "ledger_postings_references"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing boolean; many boolean; nestloop text := current_setting('enable_nestloop');
BEGIN
	SELECT count(*) > 10000 INTO many FROM new_postings;
	IF many THEN PERFORM set_config('enable_nestloop', 'off', true); END IF;
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM new_postings n WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = n.account_id))
		OR EXISTS (SELECT 1 FROM (SELECT DISTINCT transaction_id FROM new_postings) n WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = n.transaction_id))' INTO missing;
	IF many THEN PERFORM set_config('enable_nestloop', nestloop, true); END IF;
	IF missing THEN
		RAISE EXCEPTION 'a ledger posting refers to a missing account or transaction' USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
-- How a pool's day is split between database sessions, fixed by whoever starts the day first, so a
-- rerun or a second replica splits it the same way: part k holds the positions whose account id is
-- in [bounds[k], bounds[k+1]) (the first part from the lowest id, the last to the highest).
CREATE TABLE "interest_day_parts" (
	"pool" text NOT NULL,
	"day" date NOT NULL,
	"bounds" bigint[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interest_day_parts_pk" PRIMARY KEY ("pool", "day")
);
