-- Issue 23, goal 3: a position-day of interest costs bytes, not a wide row and two wide indexes.
-- A posting's currency is its account's and its time its transaction's: both copies go, and a leg
-- is (transaction, account, amount). One btree on (account_id, transaction_id) keeps a leg once per
-- account and transaction and serves every read by account (a window of history by a transaction-id
-- lower bound taken from `ledger_transactions_at_idx`); the reads by transaction (the checks'
-- batches, a transaction's legs) go by a BRIN index on transaction_id, as legs are appended in
-- transaction order and never updated or deleted. Today's legs move into the new table in that order.
--
-- Nothing is lost: the copies dropped must equal what they copied (each leg's currency its
-- account's, its time its transaction's), and every account's sum and count of legs, every
-- currency's sum, and the number of legs must be the same after as before, or the migration refuses.
DO $$
BEGIN
	IF EXISTS (
		SELECT 1 FROM ledger_postings p
		LEFT JOIN ledger_accounts a ON a.id = p.account_id
		LEFT JOIN ledger_transactions t ON t.id = p.transaction_id
		WHERE a.currency IS DISTINCT FROM p.currency OR t.at IS DISTINCT FROM p.at
	) THEN
		RAISE EXCEPTION 'a ledger posting''s currency or time differs from its account''s or transaction''s: not migrated';
	END IF;
END $$;
--> statement-breakpoint
CREATE TABLE "ledger_postings_narrow" (
	"transaction_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"amount" numeric(78, 0) NOT NULL
);
--> statement-breakpoint
INSERT INTO "ledger_postings_narrow" ("transaction_id", "account_id", "amount")
SELECT "transaction_id", "account_id", "amount" FROM "ledger_postings" ORDER BY "transaction_id", "account_id";
--> statement-breakpoint
DO $$
BEGIN
	IF EXISTS (
		SELECT 1 FROM (SELECT account_id, currency, sum(amount) AS total, count(*) AS n FROM ledger_postings GROUP BY 1, 2) o
		FULL JOIN (SELECT p.account_id, a.currency, sum(p.amount) AS total, count(*) AS n
		           FROM ledger_postings_narrow p JOIN ledger_accounts a ON a.id = p.account_id GROUP BY 1, 2) n USING (account_id, currency)
		WHERE o.total IS DISTINCT FROM n.total OR o.n IS DISTINCT FROM n.n
	) OR EXISTS (
		SELECT 1 FROM (SELECT currency, sum(amount) AS total FROM ledger_postings GROUP BY 1) o
		FULL JOIN (SELECT a.currency, sum(p.amount) AS total FROM ledger_postings_narrow p JOIN ledger_accounts a ON a.id = p.account_id GROUP BY 1) n USING (currency)
		WHERE o.total IS DISTINCT FROM n.total
	) OR (SELECT count(*) FROM ledger_postings) <> (SELECT count(*) FROM ledger_postings_narrow) THEN
		RAISE EXCEPTION 'the narrowed ledger postings differ from the postings of before: not migrated';
	END IF;
END $$;
--> statement-breakpoint
DROP VIEW "interest_accruals";--> statement-breakpoint
DROP TABLE "ledger_postings";--> statement-breakpoint
ALTER TABLE "ledger_postings_narrow" RENAME TO "ledger_postings";--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_once" PRIMARY KEY ("account_id", "transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_transaction_idx" ON "ledger_postings" USING brin ("transaction_id") WITH (pages_per_range = 16, autosummarize = on);--> statement-breakpoint
CREATE TRIGGER "ledger_postings_references" AFTER INSERT ON "ledger_postings" REFERENCING NEW TABLE AS new_postings FOR EACH STATEMENT EXECUTE FUNCTION "ledger_postings_references"();--> statement-breakpoint
CREATE TRIGGER "ledger_postings_immutable" BEFORE UPDATE OR DELETE OR TRUNCATE ON "ledger_postings" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_immutable"();--> statement-breakpoint
CREATE VIEW "interest_accruals" AS
	SELECT a.user_id, a.pool, a.currency, (t.detail->>'day')::date AS day, -p.amount AS amount
	FROM ledger_transactions t
	JOIN ledger_postings p ON p.transaction_id = t.id
	JOIN ledger_accounts a ON a.id = p.account_id
	WHERE t.kind = 'interest' AND a.kind = 'position';--> statement-breakpoint
ANALYZE "ledger_postings";
