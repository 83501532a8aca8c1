-- The double-entry ledger. A posting's amount is signed: positive = debit, negative = credit; the
-- postings of a transaction sum to zero per currency. Assets (reserves) are debit-normal; positions,
-- withdrawals in flight, referral rewards payable and the house are credit-normal, so their natural
-- balance is the negated sum.
CREATE TABLE "ledger_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"user_id" uuid,
	"pool" text,
	"address" text,
	"balance" numeric(78, 0) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind_check" CHECK ("kind" IN ('position', 'house', 'reserves', 'withdrawals_in_flight', 'referral_rewards_payable')),
	-- A liability can never be overdrawn (TigerBeetle's debits_must_not_exceed_credits).
	CONSTRAINT "ledger_accounts_not_overdrawn" CHECK ("kind" NOT IN ('position', 'withdrawals_in_flight', 'referral_rewards_payable') OR "balance" <= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_key" ON "ledger_accounts" USING btree ("key");--> statement-breakpoint
CREATE INDEX "ledger_accounts_position_idx" ON "ledger_accounts" USING btree ("pool", "currency") WHERE "kind" = 'position';--> statement-breakpoint
CREATE INDEX "ledger_accounts_user_idx" ON "ledger_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_reference" ON "ledger_transactions" USING btree ("reference");--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL REFERENCES "ledger_transactions"("id"),
	"account_id" bigint NOT NULL REFERENCES "ledger_accounts"("id"),
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ledger_postings_account_idx" ON "ledger_postings" USING btree ("account_id", "at");--> statement-breakpoint
CREATE INDEX "ledger_postings_transaction_idx" ON "ledger_postings" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_at_idx" ON "ledger_postings" USING btree ("at");--> statement-breakpoint
-- Written once: a correction is a new transaction.
CREATE FUNCTION "ledger_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'ledger rows are immutable: post a correcting transaction';
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_transactions_immutable" BEFORE UPDATE OR DELETE ON "ledger_transactions" FOR EACH ROW EXECUTE FUNCTION "ledger_immutable"();--> statement-breakpoint
CREATE TRIGGER "ledger_postings_immutable" BEFORE UPDATE OR DELETE ON "ledger_postings" FOR EACH ROW EXECUTE FUNCTION "ledger_immutable"();--> statement-breakpoint
-- Today's credited deposits and requested withdrawals become ledger transactions: nothing is lost.
INSERT INTO "ledger_accounts" ("key", "kind", "currency", "user_id", "pool")
SELECT DISTINCT 'position:' || m.pool || ':' || m.currency || ':' || m.user_id, 'position', m.currency, m.user_id, m.pool
FROM (
	SELECT "user_id", "pool", "currency" FROM "deposits" WHERE "status" = 'credited'
	UNION SELECT "user_id", "pool", "currency" FROM "withdrawals" WHERE "status" = 'requested'
) m;
--> statement-breakpoint
CREATE TEMP TABLE "ledger_seed_deposits" AS
SELECT d.id, d.user_id, d.pool, d.currency, d.amount, d.chain_id, d.tx_hash, d.log_index,
	coalesce(d.credited_at, d.created_at) AS at,
	lower(coalesce(d.to_address, pa.address, '0x0000000000000000000000000000000000000000')) AS address
FROM "deposits" d
LEFT JOIN "pool_addresses" pa ON pa.pool = d.pool AND pa.currency = d.currency AND pa.chain_id = d.chain_id
WHERE d.status = 'credited';
--> statement-breakpoint
INSERT INTO "ledger_accounts" ("key", "kind", "currency", "pool", "address")
SELECT DISTINCT 'reserves:' || chain_id || ':' || address || ':' || currency, 'reserves', currency, pool, address FROM "ledger_seed_deposits"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "ledger_accounts" ("key", "kind", "currency")
SELECT DISTINCT 'withdrawals_in_flight:' || currency, 'withdrawals_in_flight', currency FROM "withdrawals" WHERE "status" = 'requested'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "ledger_transactions" ("reference", "kind", "at", "detail")
SELECT 'deposit:' || chain_id || ':' || tx_hash || ':' || log_index, 'deposit', at, jsonb_build_object('deposit', id) FROM "ledger_seed_deposits";
--> statement-breakpoint
INSERT INTO "ledger_postings" ("transaction_id", "account_id", "currency", "amount", "at")
SELECT t.id, a.id, d.currency, CASE WHEN a.kind = 'reserves' THEN d.amount ELSE -d.amount END, d.at
FROM "ledger_seed_deposits" d
JOIN "ledger_transactions" t ON t.reference = 'deposit:' || d.chain_id || ':' || d.tx_hash || ':' || d.log_index
JOIN "ledger_accounts" a ON a.key IN ('reserves:' || d.chain_id || ':' || d.address || ':' || d.currency, 'position:' || d.pool || ':' || d.currency || ':' || d.user_id);
--> statement-breakpoint
INSERT INTO "ledger_transactions" ("reference", "kind", "at", "detail")
SELECT 'withdrawal:' || id || ':reserve', 'withdrawal_reserve', created_at, jsonb_build_object('withdrawal', id) FROM "withdrawals" WHERE "status" = 'requested';
--> statement-breakpoint
INSERT INTO "ledger_postings" ("transaction_id", "account_id", "currency", "amount", "at")
SELECT t.id, a.id, w.currency, CASE WHEN a.kind = 'position' THEN w.amount ELSE -w.amount END, w.created_at
FROM "withdrawals" w
JOIN "ledger_transactions" t ON t.reference = 'withdrawal:' || w.id || ':reserve'
JOIN "ledger_accounts" a ON a.key IN ('position:' || w.pool || ':' || w.currency || ':' || w.user_id, 'withdrawals_in_flight:' || w.currency)
WHERE w.status = 'requested';
--> statement-breakpoint
UPDATE "ledger_accounts" a SET "balance" = s.total
FROM (SELECT account_id, sum(amount) AS total FROM "ledger_postings" GROUP BY account_id) s
WHERE s.account_id = a.id;
--> statement-breakpoint
DROP TABLE "ledger_seed_deposits";
