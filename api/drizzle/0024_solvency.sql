-- Proof of solvency (docs/proof-of-solvency.md). Each account's nonce for life: the key of its
-- leaves, known only to the account and the server.
CREATE TABLE "solvency_nonces" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id"),
	"nonce" bytea NOT NULL CHECK (length("nonce") = 32),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A snapshot exists only once its tree is built and its header signed: it is written in the same
-- transaction as its nodes. `day` marks the daily job's, one per day.
CREATE TABLE "solvency_snapshots" (
	"id" integer PRIMARY KEY NOT NULL CHECK ("id" > 0),
	"day" date,
	"taken_at" timestamp with time zone NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"root" text NOT NULL,
	"leaf_count" bigint NOT NULL,
	"users" integer NOT NULL,
	"header" text NOT NULL,
	"signature" text NOT NULL,
	"signer" text NOT NULL,
	"addresses" jsonb NOT NULL,
	"reserves" jsonb NOT NULL,
	"taken_by" text NOT NULL,
	CONSTRAINT "solvency_snapshots_day_unique" UNIQUE("day")
);
--> statement-breakpoint
-- Every node of every tree, leaves (level 0) and padding included: a user's path is one probe of
-- this key per level.
CREATE TABLE "solvency_nodes" (
	"snapshot_id" integer NOT NULL,
	"level" smallint NOT NULL,
	"idx" bigint NOT NULL,
	"hash" bytea NOT NULL,
	"sums" numeric(78, 0)[] NOT NULL,
	CONSTRAINT "solvency_nodes_pk" PRIMARY KEY ("snapshot_id", "level", "idx")
);
--> statement-breakpoint
-- Where each part of a user's balances sits; server-side only.
CREATE TABLE "solvency_parts" (
	"snapshot_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"leaf_index" bigint NOT NULL,
	CONSTRAINT "solvency_parts_pk" PRIMARY KEY ("snapshot_id", "user_id", "part")
);
--> statement-breakpoint
-- The parts of a snapshot being built, keyed by a random sort key: reading them in key order is the
-- shuffle. Emptied before the snapshot's transaction commits.
CREATE TABLE "solvency_shuffle" (
	"snapshot_id" integer NOT NULL,
	"sort_key" bytea NOT NULL,
	"user_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"hash" bytea NOT NULL,
	"sums" numeric(78, 0)[] NOT NULL,
	CONSTRAINT "solvency_shuffle_pk" PRIMARY KEY ("snapshot_id", "sort_key")
);
