-- Data honesty. The pool graph showed a made-up history seeded in every environment; it is dropped,
-- and each pool's history is now its books: the APY its accrued days used (`interest_days`) and
-- what its positions held at the close of each of those days, interest of the day included
-- (`pool_days`, written by the accrual, one row per pool, day and currency held).
DROP TABLE IF EXISTS "pool_graph";--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "pool_days" (
	"pool" text NOT NULL REFERENCES "pools"("name"),
	"day" date NOT NULL,
	"currency" text NOT NULL REFERENCES "currencies"("code"),
	"tvl" numeric(78, 0) NOT NULL,
	CONSTRAINT "pool_days_pool_day_currency_pk" PRIMARY KEY("pool","day","currency")
);--> statement-breakpoint
-- The days accrued before this migration, from the ledger: every posting on the pool's positions
-- dated on or before the day (interest by the day it is for).
INSERT INTO "pool_days" ("pool", "day", "currency", "tvl")
SELECT d."pool", d."day", m."currency", -sum(m."amount")
FROM "interest_days" d
JOIN (
	SELECT a."pool", a."currency",
	       CASE WHEN t."kind" = 'interest' THEN (t."detail"->>'day')::date ELSE (p."at" AT TIME ZONE 'UTC')::date END AS "day",
	       sum(p."amount") AS "amount"
	FROM "ledger_postings" p
	JOIN "ledger_accounts" a ON a."id" = p."account_id"
	JOIN "ledger_transactions" t ON t."id" = p."transaction_id"
	WHERE a."kind" = 'position'
	GROUP BY 1, 2, 3
) m ON m."pool" = d."pool" AND m."day" <= d."day"
GROUP BY d."pool", d."day", m."currency"
HAVING sum(m."amount") <> 0
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- One source for a pool's APY: `pool_apy` (with its dated history). The cached basis points never
-- saw a change dated in the future.
INSERT INTO "pool_apy" ("pool", "effective_from", "apy", "set_by")
SELECT "name", DATE '2020-01-01', "apy_bps"::numeric / 10000, 'migration' FROM "pools" p
WHERE NOT EXISTS (SELECT 1 FROM "pool_apy" a WHERE a."pool" = p."name");--> statement-breakpoint
ALTER TABLE "pools" DROP COLUMN "apy_bps";
