-- Proof of solvency: a block's sums as the bytes the hashes read them in (u256be, node after node,
-- each node's currencies in order) in place of a numeric array. A snapshot then writes its blocks
-- with no decimal text on either side, and a proof slices them with no parsing.
CREATE FUNCTION "solvency_u256be"(v numeric[]) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
	SELECT coalesce(decode(string_agg(h."hex", '' ORDER BY u."ord"), 'hex'), ''::bytea)
	FROM unnest(v) WITH ORDINALITY AS u("x", "ord")
	CROSS JOIN LATERAL (
		SELECT string_agg(lpad(to_hex(mod(div(u."x", 256::numeric ^ (31 - i)), 256)::int), 2, '0'), '' ORDER BY i) AS "hex"
		FROM generate_series(0, 31) AS i
	) h
$$;
--> statement-breakpoint
ALTER TABLE "solvency_blocks" ALTER COLUMN "sums" TYPE bytea USING "solvency_u256be"("sums");
--> statement-breakpoint
DROP FUNCTION "solvency_u256be"(numeric[]);
