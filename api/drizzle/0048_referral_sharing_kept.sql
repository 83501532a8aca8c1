-- Issue 23: who shares an address with an ancestor, kept as addresses change rather than found every
-- day. A referee who shares a wallet, a deposit's sender or a payout address with any ancestor gives
-- no rewards (finding 10). Each part of the referral step, and the vesting, gathered every user's,
-- deposit's and withdrawal's address to find them: the whole history of the platform, every day.
-- Now the few such referees are a table, which changes only when an address does (a wallet linked,
-- changed or unlinked, a deposit or withdrawal recorded) or a member joins a tree, and only for the
-- users that change can touch. `ledger check --full` holds it to the whole recomputation.
CREATE TABLE "referral_sharing_referees" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- Who holds an address, in any case: the users a new or lost address can concern.
CREATE INDEX "users_wallet_lower_idx" ON "users" USING btree (lower("wallet_address"));--> statement-breakpoint
CREATE INDEX "deposits_from_lower_idx" ON "deposits" USING btree (lower("from_address"));--> statement-breakpoint
CREATE INDEX "withdrawals_to_lower_idx" ON "withdrawals" USING btree (lower("to_address"));--> statement-breakpoint
-- Whether each of `who` shares an address with any of their ancestors, written into the kept set
-- (added or taken away). Set-based: a sign-up's one user by the indexes, a million by hashing.
CREATE FUNCTION "referral_reshare"(who uuid[]) RETURNS void LANGUAGE sql AS $$
	WITH a AS (SELECT DISTINCT u AS user_id FROM unnest(who) u),
	pairs AS (SELECT t.user_id, t.ancestor_id FROM referral_tree t JOIN a ON a.user_id = t.user_id),
	people AS (SELECT user_id FROM a UNION SELECT ancestor_id FROM pairs),
	addresses AS (
		SELECT u.id AS user_id, lower(u.wallet_address) AS address FROM users u JOIN people p ON p.user_id = u.id WHERE u.wallet_address IS NOT NULL
		UNION SELECT d.user_id, lower(d.from_address) FROM deposits d JOIN people p ON p.user_id = d.user_id WHERE d.from_address IS NOT NULL
		UNION SELECT w.user_id, lower(w.to_address) FROM withdrawals w JOIN people p ON p.user_id = w.user_id WHERE w.to_address IS NOT NULL
	),
	sharing AS (
		SELECT DISTINCT p.user_id FROM pairs p
		JOIN addresses ra ON ra.user_id = p.user_id
		JOIN addresses aa ON aa.user_id = p.ancestor_id AND aa.address = ra.address
	),
	cleared AS (
		DELETE FROM referral_sharing_referees s USING a
		WHERE s.user_id = a.user_id AND NOT EXISTS (SELECT 1 FROM sharing x WHERE x.user_id = s.user_id)
	)
	INSERT INTO referral_sharing_referees (user_id) SELECT user_id FROM sharing ORDER BY user_id ON CONFLICT (user_id) DO NOTHING;
$$;--> statement-breakpoint
-- `owners` gained or lost `addresses`: they, and their descendants who hold one of them, are found
-- again. Nobody else's answer can change: an address concerns a pair only through both its ends.
-- One writer at a time, each seeing the last one's commit (it runs at commit, in a statement of its
-- own): two transactions at once, one giving a referee an address and the other giving it to an
-- ancestor, would each miss the other's.
CREATE FUNCTION "referral_reshare_around"(owners uuid[], addresses text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(hashtext('referral_sharing_referees'));
	PERFORM referral_reshare(array(
		SELECT o FROM unnest(owners) o
		UNION
		SELECT h.user_id FROM (
			SELECT u.id AS user_id FROM users u WHERE lower(u.wallet_address) = ANY (addresses)
			UNION SELECT d.user_id FROM deposits d WHERE lower(d.from_address) = ANY (addresses)
			UNION SELECT w.user_id FROM withdrawals w WHERE lower(w.to_address) = ANY (addresses)
		) h
		WHERE EXISTS (SELECT 1 FROM referral_tree t WHERE t.user_id = h.user_id AND t.ancestor_id = ANY (owners))));
END $$;--> statement-breakpoint
-- A row's address (the column TG_ARGV[0]) came, changed or went, for its user (TG_ARGV[1]).
CREATE FUNCTION "referral_address_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	addresses text[] := ARRAY[lower(to_jsonb(NEW) ->> TG_ARGV[0])];
BEGIN
	IF TG_OP = 'UPDATE' THEN
		addresses := addresses || lower(to_jsonb(OLD) ->> TG_ARGV[0]);
	END IF;
	PERFORM referral_reshare_around(ARRAY[(to_jsonb(NEW) ->> TG_ARGV[1])::uuid], array_remove(addresses, NULL));
	RETURN NULL;
END $$;--> statement-breakpoint
-- A member joined a tree (its first level's row): it has ancestors now, and no descendants yet.
CREATE FUNCTION "referral_member_joined"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM referral_reshare_around(ARRAY[NEW.user_id], '{}');
	RETURN NULL;
END $$;--> statement-breakpoint
-- At commit (deferred), so the lock above is held only while the set is written.
CREATE CONSTRAINT TRIGGER "referral_sharing_member" AFTER INSERT ON "referral_tree" DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (NEW.level = 1) EXECUTE FUNCTION "referral_member_joined"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "referral_sharing_wallet" AFTER UPDATE OF "wallet_address" ON "users" DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (OLD.wallet_address IS DISTINCT FROM NEW.wallet_address) EXECUTE FUNCTION "referral_address_moved"('wallet_address', 'id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "referral_sharing_deposit" AFTER INSERT ON "deposits" DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (NEW.from_address IS NOT NULL) EXECUTE FUNCTION "referral_address_moved"('from_address', 'user_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "referral_sharing_deposit_sender" AFTER UPDATE OF "from_address" ON "deposits" DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (OLD.from_address IS DISTINCT FROM NEW.from_address) EXECUTE FUNCTION "referral_address_moved"('from_address', 'user_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "referral_sharing_withdrawal" AFTER INSERT ON "withdrawals" DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (NEW.to_address IS NOT NULL) EXECUTE FUNCTION "referral_address_moved"('to_address', 'user_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "referral_sharing_payout_address" AFTER UPDATE OF "to_address" ON "withdrawals" DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (OLD.to_address IS DISTINCT FROM NEW.to_address) EXECUTE FUNCTION "referral_address_moved"('to_address', 'user_id');--> statement-breakpoint
-- Today's referees who share, found once over everything.
SELECT referral_reshare(array(SELECT DISTINCT user_id FROM referral_tree));
