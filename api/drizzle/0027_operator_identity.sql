-- Issue 26: named operators, their short sessions, four-eyes approvals and a tamper-evident audit log.
-- An operator is a user account (role `operator`) with a TOTP secret and a key for the command line
-- (only its hash is kept).
CREATE TABLE "operators" (
	"id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE RESTRICT,
	"name" text NOT NULL,
	"totp_secret" text NOT NULL,
	"key_hash" text NOT NULL,
	-- The last TOTP time step accepted at sign-in: a code is never accepted twice there.
	"totp_last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operators_name_key" ON "operators" USING btree ("name");
--> statement-breakpoint
-- The console's sessions: only the token's hash is kept; idle ones end (api/src/operator/identity.ts).
CREATE TABLE "operator_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL REFERENCES "operators"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "operator_sessions_operator_idx" ON "operator_sessions" USING btree ("operator_id");
--> statement-breakpoint
-- One approval per operator per withdrawal: the key refuses a second approval by the same operator.
CREATE TABLE "withdrawal_approvals" (
	"withdrawal_id" bigint NOT NULL REFERENCES "withdrawals"("id") ON DELETE CASCADE,
	"operator_id" uuid NOT NULL REFERENCES "operators"("id") ON DELETE RESTRICT,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("withdrawal_id", "operator_id")
);
--> statement-breakpoint
-- The operator who asked for a withdrawal on someone's behalf: they may not approve it.
ALTER TABLE "withdrawals" ADD COLUMN "requested_by" uuid;
--> statement-breakpoint
ALTER TABLE "operator_audit" ADD COLUMN "seq" bigint;
--> statement-breakpoint
ALTER TABLE "operator_audit" ADD COLUMN "prev_hash" text;
--> statement-breakpoint
ALTER TABLE "operator_audit" ADD COLUMN "hash" text;
--> statement-breakpoint
-- The digest of a row: its fields and the previous row's digest, as one JSON array (strings escaped,
-- jsonb in its canonical text, the time in UTC), so no two different rows print the same.
CREATE FUNCTION "operator_audit_digest"(prev text, seq bigint, actor text, action text, target text, before jsonb, after jsonb, at timestamptz)
RETURNS text LANGUAGE sql STABLE AS $$
	SELECT encode(sha256(convert_to(json_build_array(prev, seq, actor, action, target, before, after,
		to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'))::text, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- The rows written before this release join the chain in the order they were written.
DO $$
DECLARE r record; last text := ''; n bigint := 0;
BEGIN
	FOR r IN SELECT * FROM "operator_audit" ORDER BY "id" LOOP
		n := n + 1;
		UPDATE "operator_audit" SET "seq" = n, "prev_hash" = last,
			"hash" = "operator_audit_digest"(last, n, r."actor", r."action", r."target", r."before", r."after", r."at")
		WHERE "id" = r."id" RETURNING "hash" INTO last;
	END LOOP;
END $$;
--> statement-breakpoint
ALTER TABLE "operator_audit" ALTER COLUMN "seq" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "operator_audit" ALTER COLUMN "prev_hash" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "operator_audit" ALTER COLUMN "hash" SET NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_audit_seq_key" ON "operator_audit" USING btree ("seq");
--> statement-breakpoint
-- Each new row takes the next number and the last row's digest under one lock: two writers at once
-- (two replicas) cannot both chain to the same row.
CREATE FUNCTION "operator_audit_chain"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE last record;
BEGIN
	PERFORM pg_advisory_xact_lock(hashtext('operator_audit_chain'));
	SELECT "seq", "hash" INTO last FROM "operator_audit" ORDER BY "seq" DESC LIMIT 1;
	NEW."seq" := coalesce(last."seq", 0) + 1;
	NEW."prev_hash" := coalesce(last."hash", '');
	NEW."hash" := "operator_audit_digest"(NEW."prev_hash", NEW."seq", NEW."actor", NEW."action", NEW."target", NEW."before", NEW."after", NEW."at");
	RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "operator_audit_chained" BEFORE INSERT ON "operator_audit" FOR EACH ROW EXECUTE FUNCTION "operator_audit_chain"();
--> statement-breakpoint
CREATE FUNCTION "operator_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the operator audit log is append-only' USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER "operator_audit_no_change" BEFORE UPDATE OR DELETE ON "operator_audit" FOR EACH ROW EXECUTE FUNCTION "operator_audit_append_only"();
--> statement-breakpoint
CREATE TRIGGER "operator_audit_no_truncate" BEFORE TRUNCATE ON "operator_audit" FOR EACH STATEMENT EXECUTE FUNCTION "operator_audit_append_only"();
