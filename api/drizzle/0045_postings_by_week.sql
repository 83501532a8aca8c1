-- Issue 23, goal 3: the reads by account go by a btree that stores a week of an account's legs as
-- one entry (btree deduplication: the key once, then a six-byte pointer per leg), instead of an
-- entry per leg keyed by the transaction. A leg carries the week its transaction was written in
-- (`written_week`, from the database transaction's start, as its transaction's `created_at`), which
-- fits in the row's alignment padding, so the heap stays the same size. A window of history is read
-- as the account's legs from a week on, less those below the window's first transaction id
-- (`api/src/ledger/window.ts`). A week, not a month: a read of the newest legs (the incremental
-- check's, every few minutes) reads the rest of their week too.
--
-- The per-row key (account, transaction) goes with it. What it guaranteed, a leg once per account
-- and transaction, the statement trigger now holds: a statement's legs name each (transaction,
-- account) once, and a transaction takes legs only in the database transaction that writes it.
--
-- Nothing is lost: every account's sum and count of legs, every currency's sum and the number of
-- legs must be the same after as before, every leg must find its transaction (whose week it takes),
-- or the migration refuses.
--
-- The reads by transaction (the checks, a pool day's interest legs) go by a btree on transaction_id,
-- where the BRIN index of 0041 was: its repeated keys are deduplicated too (a transaction's legs as
-- few entries), and a range of ids stays a range of the index, whatever the index's upkeep. The
-- BRIN index, maintained over a year of days, came to match most of the table for one day's
-- transaction while a fresh one matched a few pages, and without the per-leg key nothing else
-- served those reads.
-- Weeks since Monday 5 January 1970 (UTC): a difference of instants, the same in every time zone.
CREATE FUNCTION "ledger_week"(at timestamptz) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT floor(extract(epoch FROM at - '1970-01-05T00:00:00Z'::timestamptz) / 604800)::smallint
$$;
--> statement-breakpoint
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM ledger_postings p WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = p.transaction_id)) THEN
		RAISE EXCEPTION 'a ledger posting has no transaction to take its week from: not migrated';
	END IF;
END $$;
--> statement-breakpoint
CREATE TABLE "ledger_postings_weekly" (
	"transaction_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"written_week" smallint DEFAULT ledger_week(now()) NOT NULL
);
--> statement-breakpoint
INSERT INTO "ledger_postings_weekly" ("transaction_id", "account_id", "amount", "written_week")
SELECT p."transaction_id", p."account_id", p."amount", ledger_week(t."created_at")
FROM "ledger_postings" p JOIN "ledger_transactions" t ON t."id" = p."transaction_id"
ORDER BY p."transaction_id", p."account_id";
--> statement-breakpoint
DO $$
BEGIN
	IF EXISTS (
		SELECT 1 FROM (SELECT p.account_id, a.currency, sum(p.amount) AS total, count(*) AS n FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id GROUP BY 1, 2) o
		FULL JOIN (SELECT p.account_id, a.currency, sum(p.amount) AS total, count(*) AS n
		           FROM ledger_postings_weekly p JOIN ledger_accounts a ON a.id = p.account_id GROUP BY 1, 2) n USING (account_id, currency)
		WHERE o.total IS DISTINCT FROM n.total OR o.n IS DISTINCT FROM n.n
	) OR EXISTS (
		SELECT 1 FROM (SELECT a.currency, sum(p.amount) AS total FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id GROUP BY 1) o
		FULL JOIN (SELECT a.currency, sum(p.amount) AS total FROM ledger_postings_weekly p JOIN ledger_accounts a ON a.id = p.account_id GROUP BY 1) n USING (currency)
		WHERE o.total IS DISTINCT FROM n.total
	) OR (SELECT count(*) FROM ledger_postings) <> (SELECT count(*) FROM ledger_postings_weekly) THEN
		RAISE EXCEPTION 'the ledger postings by week differ from the postings of before: not migrated';
	END IF;
END $$;
--> statement-breakpoint
DROP VIEW "interest_accruals";--> statement-breakpoint
DROP TABLE "ledger_postings";--> statement-breakpoint
ALTER TABLE "ledger_postings_weekly" RENAME TO "ledger_postings";--> statement-breakpoint
CREATE INDEX "ledger_postings_account_idx" ON "ledger_postings" USING btree ("account_id", "written_week");--> statement-breakpoint
CREATE INDEX "ledger_postings_transaction_idx" ON "ledger_postings" USING btree ("transaction_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ledger_postings_references"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE missing boolean; twice boolean; many boolean; nestloop text := current_setting('enable_nestloop');
BEGIN
	SELECT count(*) > 10000 INTO many FROM new_postings;
	IF many THEN PERFORM set_config('enable_nestloop', 'off', true); END IF;
	EXECUTE 'SELECT EXISTS (SELECT 1 FROM new_postings n WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = n.account_id))
		OR EXISTS (SELECT 1 FROM (SELECT DISTINCT transaction_id FROM new_postings) n WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = n.transaction_id))' INTO missing;
	IF many THEN PERFORM set_config('enable_nestloop', nestloop, true); END IF;
	IF missing THEN
		RAISE EXCEPTION 'a ledger posting refers to a missing account or transaction' USING ERRCODE = 'foreign_key_violation';
	END IF;
	-- A leg once per account and transaction: within the statement, and no leg added to a transaction
	-- another database transaction wrote (every writer posts a transaction's legs with it, at once).
	SELECT EXISTS (SELECT 1 FROM (SELECT DISTINCT transaction_id FROM new_postings) n JOIN ledger_transactions t ON t.id = n.transaction_id
	               WHERE t.written_by IS DISTINCT FROM pg_current_xact_id())
	    OR EXISTS (SELECT 1 FROM new_postings GROUP BY transaction_id, account_id HAVING count(*) > 1) INTO twice;
	IF twice THEN
		RAISE EXCEPTION 'a ledger transaction posts to an account once, with the transaction itself' USING ERRCODE = 'unique_violation';
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_postings_references" AFTER INSERT ON "ledger_postings" REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION "ledger_postings_references"();--> statement-breakpoint
CREATE TRIGGER "ledger_postings_immutable" BEFORE UPDATE OR DELETE OR TRUNCATE ON "ledger_postings" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_immutable"();--> statement-breakpoint
CREATE VIEW "interest_accruals" AS
	SELECT a.user_id, a.pool, a.currency, (t.detail->>'day')::date AS day, -p.amount AS amount
	FROM ledger_transactions t
	JOIN ledger_postings p ON p.transaction_id = t.id
	JOIN ledger_accounts a ON a.id = p.account_id
	WHERE t.kind = 'interest' AND a.kind = 'position';--> statement-breakpoint
ANALYZE "ledger_postings";
