-- Reads bounded by the reader's own data (issue 23). What the cabinet and the pools showed by
-- re-summing postings (or every position) is kept beside the balances instead, in the same
-- statement or transaction that moves them, and `ledger check` holds it equal to the entries:
-- - each position's all-time deposited, withdrawn and interest, on its account row;
-- - each pool's total per currency (its TVL), in `pool_totals`, moved by a statement trigger from
--   whatever changes position balances, so no writer can forget it.
ALTER TABLE "ledger_accounts" ADD COLUMN "deposited" numeric(78, 0) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "withdrawn" numeric(78, 0) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "interest" numeric(78, 0) DEFAULT '0' NOT NULL;--> statement-breakpoint
UPDATE "ledger_accounts" a SET "deposited" = s.deposited, "withdrawn" = s.withdrawn, "interest" = s.interest
FROM (
	SELECT p.account_id,
		coalesce(sum(-p.amount) FILTER (WHERE t.kind = 'deposit'), 0) AS deposited,
		coalesce(sum(p.amount) FILTER (WHERE t.kind IN ('withdrawal_reserve', 'withdrawal_return')), 0) AS withdrawn,
		coalesce(sum(-p.amount) FILTER (WHERE t.kind = 'interest'), 0) AS interest
	FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id JOIN ledger_accounts pa ON pa.id = p.account_id
	WHERE pa.kind = 'position'
	GROUP BY p.account_id
) s
WHERE a.id = s.account_id;--> statement-breakpoint
-- Signed like the balances (a credit: what the pool's positions hold is its negation).
CREATE TABLE "pool_totals" (
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"balance" numeric(78, 0) DEFAULT '0' NOT NULL,
	CONSTRAINT "pool_totals_pk" PRIMARY KEY ("pool", "currency")
);--> statement-breakpoint
INSERT INTO "pool_totals" (pool, currency, balance)
SELECT pool, currency, sum(balance) FROM ledger_accounts WHERE kind = 'position' GROUP BY pool, currency;--> statement-breakpoint
-- One row per pool and currency moved per statement, in key order (concurrent writers wait on it,
-- never deadlock on it). Each statement is planned for its own rows (EXECUTE): a cached generic plan
-- does not know how many rows the transition tables hold, and joined them row by row.
CREATE FUNCTION "pool_totals_follow_updates"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- EXECUTE: planned for this statement's rows (a deposit's two, a day's million), never a cached generic plan.
	EXECUTE 'INSERT INTO pool_totals AS t (pool, currency, balance)
		SELECT n.pool, n.currency, sum(n.balance - o.balance)
		FROM new_accounts n JOIN old_accounts o ON o.id = n.id
		WHERE n.kind = ''position'' AND n.balance <> o.balance
		GROUP BY n.pool, n.currency
		ORDER BY 1, 2
		ON CONFLICT (pool, currency) DO UPDATE SET balance = t.balance + excluded.balance';
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "pool_totals_follow_inserts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE 'INSERT INTO pool_totals AS t (pool, currency, balance)
		SELECT n.pool, n.currency, sum(n.balance)
		FROM new_accounts n
		WHERE n.kind = ''position''
		GROUP BY n.pool, n.currency
		ORDER BY 1, 2
		ON CONFLICT (pool, currency) DO UPDATE SET balance = t.balance + excluded.balance';
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "pool_totals_follow_updates" AFTER UPDATE ON "ledger_accounts" REFERENCING OLD TABLE AS old_accounts NEW TABLE AS new_accounts FOR EACH STATEMENT EXECUTE FUNCTION "pool_totals_follow_updates"();--> statement-breakpoint
CREATE TRIGGER "pool_totals_follow_inserts" AFTER INSERT ON "ledger_accounts" REFERENCING NEW TABLE AS new_accounts FOR EACH STATEMENT EXECUTE FUNCTION "pool_totals_follow_inserts"();--> statement-breakpoint
-- The incremental check (issue 23): each transaction carries the id of the database transaction
-- that wrote it, so the check can tell what committed since its last run from what it has seen
-- (the writer's id, not the serial id: serial ids are drawn before commit, out of commit order).
-- Rows written before this migration have none: the first check reads them all.
ALTER TABLE "ledger_transactions" ADD COLUMN "written_by" xid8;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ALTER COLUMN "written_by" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE INDEX "ledger_transactions_written_by_idx" ON "ledger_transactions" USING btree ("written_by");--> statement-breakpoint
-- Where the last check stopped: every transaction written by a database transaction below the
-- horizon is in the sums kept here, per account and per pool and currency.
CREATE TABLE "ledger_checkpoint" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL CHECK ("id" = 1),
	"horizon" xid8 NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "ledger_checked_accounts" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"entries" numeric(78, 0) NOT NULL,
	"deposited" numeric(78, 0) NOT NULL,
	"withdrawn" numeric(78, 0) NOT NULL,
	"interest" numeric(78, 0) NOT NULL
);--> statement-breakpoint
CREATE TABLE "ledger_checked_pools" (
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"entries" numeric(78, 0) NOT NULL,
	CONSTRAINT "ledger_checked_pools_pk" PRIMARY KEY ("pool", "currency")
);
--> statement-breakpoint
-- The accounts other than positions (house, reserves, in flight, payable) are a handful per currency: the checks read them all, by this index.
CREATE INDEX "ledger_accounts_books_idx" ON "ledger_accounts" USING btree ("kind", "currency") WHERE "kind" <> 'position';
--> statement-breakpoint
-- Nothing is lost: the kept totals start equal to the books, or the migration refuses to run. Each
-- pool's total equals its positions' postings (a balance already out of step with its entries stops
-- it here, for a person to look at), and the positions' figures add up to what was posted of each kind.
DO $$
BEGIN
	IF EXISTS (
		SELECT 1 FROM pool_totals k
		FULL JOIN (SELECT a.pool, a.currency, sum(p.amount) AS total FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id WHERE a.kind = 'position' GROUP BY a.pool, a.currency) e USING (pool, currency)
		WHERE coalesce(k.balance, 0) <> coalesce(e.total, 0)
	) OR EXISTS (
		SELECT 1 FROM (SELECT sum(deposited) AS d, sum(withdrawn) AS w, sum(interest) AS i FROM ledger_accounts WHERE kind = 'position') f,
			(SELECT coalesce(sum(-p.amount) FILTER (WHERE t.kind = 'deposit'), 0) AS d,
			        coalesce(sum(p.amount) FILTER (WHERE t.kind IN ('withdrawal_reserve', 'withdrawal_return')), 0) AS w,
			        coalesce(sum(-p.amount) FILTER (WHERE t.kind = 'interest'), 0) AS i
			 FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id JOIN ledger_accounts a ON a.id = p.account_id WHERE a.kind = 'position') e
		WHERE (coalesce(f.d, 0), coalesce(f.w, 0), coalesce(f.i, 0)) <> (e.d, e.w, e.i)
	) THEN
		RAISE EXCEPTION 'the kept totals differ from the ledger''s postings: not migrated';
	END IF;
END $$;
