-- Issue 23: the referrers' capital follows a day's interest by the tree's index, not by hashing the
-- whole tree. The transition tables' sizes are guessed, so the planner hashed every row of
-- referral_tree for a day's changes and sorted each (member, ancestor) pair to group them. Each
-- changed member's ancestors are now read by the tree's primary key (a nested loop whatever the
-- guesses: a subquery the planner cannot pull up), and the pairs are grouped by hashing; only the
-- groups, one per referrer, level and currency, are sorted, into the key order that keeps two
-- writers from deadlocking. Same rows, same sums: only the plan changes.
CREATE OR REPLACE FUNCTION "positions_follow_updates"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE sorting text := current_setting('enable_sort');
BEGIN
	-- Grouping by sorting is what the guessed sizes choose; off for this statement only, so it hashes.
	PERFORM set_config('enable_sort', 'off', true);
	-- EXECUTE: planned for this statement's rows (a deposit's two, a day's million), never a cached generic plan.
	EXECUTE 'WITH d AS MATERIALIZED (
			SELECT n.user_id, n.pool, n.currency, n.balance - o.balance AS delta
			FROM new_accounts n JOIN old_accounts o ON o.id = n.id
			WHERE n.kind = ''position'' AND n.balance <> o.balance
		),
		pools AS (
			INSERT INTO pool_totals AS t (pool, currency, balance)
			SELECT pool, currency, sum(delta) FROM d GROUP BY pool, currency ORDER BY 1, 2
			ON CONFLICT (pool, currency) DO UPDATE SET balance = t.balance + excluded.balance
		),
		moved AS MATERIALIZED (
			SELECT t.ancestor_id, t.level, d.currency, sum(d.delta) AS delta
			FROM d CROSS JOIN LATERAL (SELECT ancestor_id, level FROM referral_tree t WHERE t.user_id = d.user_id OFFSET 0) t
			GROUP BY t.ancestor_id, t.level, d.currency
		)
		INSERT INTO referral_capital AS c (ancestor_id, level, currency, balance)
		SELECT ancestor_id, level, currency, delta FROM moved
		ORDER BY 1, 2, 3
		ON CONFLICT (ancestor_id, level, currency) DO UPDATE SET balance = c.balance + excluded.balance';
	PERFORM set_config('enable_sort', sorting, true);
	RETURN NULL;
END $$;
