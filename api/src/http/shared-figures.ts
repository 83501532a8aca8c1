/**
 * Figures every user's read shares (the pools and their currencies, APYs, the pools' totals,
 * prices, decimals), kept in memory for at most `ttlMs` by name, so a read that computes a user's
 * answer runs only that user's own queries (issue 23). They are the figures `READ_CACHE_MS` already
 * lets a kept answer hold that old; `ttlMs` 0 computes them every time.
 *
 * Concurrent misses of a name share one computation, and a failure is not kept.
 */
export function createSharedFigures(ttlMs: number) {
  const kept = new Map<string, { at: number; value: Promise<unknown> }>();
  /** Names are few (a day's APYs add one a day): past this many, the expired ones go. */
  const PRUNE_OVER = 64;
  return {
    get<T>(name: string, compute: () => Promise<T>): Promise<T> {
      if (ttlMs <= 0) return compute();
      const now = Date.now();
      const hit = kept.get(name);
      if (hit && now - hit.at < ttlMs) return hit.value as Promise<T>;
      if (kept.size > PRUNE_OVER) for (const [k, e] of kept) if (now - e.at >= ttlMs) kept.delete(k);
      const value = compute();
      kept.set(name, { at: now, value });
      value.catch(() => {
        if (kept.get(name)?.value === value) kept.delete(name);
      });
      return value;
    },
    /** Everything kept goes (tests; a change every reader must see at once). */
    clear: () => kept.clear(),
  };
}
export type SharedFigures = ReturnType<typeof createSharedFigures>;

/** Computes every figure every time: for callers outside a server (tests, the operator CLI). */
export const noSharedFigures: SharedFigures = createSharedFigures(0);
