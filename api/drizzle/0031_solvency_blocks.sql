-- Proof of solvency, stored in blocks (docs/proof-of-solvency.md, "Storage"): the nodes of every
-- fourth level of a tree, sixteen to a row, in place of one row per node. A proof reads a block per
-- four levels and recomputes the three between; the leaf level's blocks that hold padding only are
-- not stored (no proof starts in one, and each padding leaf is computable). A snapshot writes some
-- fifty times fewer rows.
CREATE TABLE "solvency_blocks" (
	"snapshot_id" integer NOT NULL,
	"level" smallint NOT NULL CHECK ("level" % 4 = 0),
	"block" bigint NOT NULL,
	"hashes" bytea NOT NULL,
	"sums" numeric(78, 0)[] NOT NULL,
	CONSTRAINT "solvency_blocks_pk" PRIMARY KEY ("snapshot_id", "level", "block")
);
--> statement-breakpoint
-- Snapshots taken before keep their proofs: their nodes of those levels become blocks (padding
-- included, which is harmless), node by node in index order, the sums node after node (unnest
-- reads the array of arrays row by row).
WITH "b" AS (
	SELECT n."snapshot_id", n."level", n."idx" / 16 AS "block", string_agg(n."hash", ''::bytea ORDER BY n."idx") AS "hashes",
	       array_agg(n."sums" ORDER BY n."idx") AS "sums"
	FROM "solvency_nodes" n JOIN "solvency_snapshots" s ON s."id" = n."snapshot_id"
	WHERE n."level" % 4 = 0 AND n."level" < round(log(2, s."leaf_count"))
	GROUP BY n."snapshot_id", n."level", n."idx" / 16
)
INSERT INTO "solvency_blocks" ("snapshot_id", "level", "block", "hashes", "sums")
SELECT "snapshot_id", "level", "block", "hashes", ARRAY(SELECT unnest("sums")) FROM "b";
--> statement-breakpoint
DROP TABLE "solvency_nodes";
--> statement-breakpoint
-- The shuffle now deals into a temporary table of the snapshot's transaction.
DROP TABLE "solvency_shuffle";
