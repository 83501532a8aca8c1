/**
 * Answers kept for a few seconds, one computation per key at a time (the callers of a key in
 * flight share its promise): a public list read by many costs one query per key and interval.
 * A failure is not kept. Bounded: when full, the oldest entries go.
 */
export function briefCache<T>(ttlMs: number, maxEntries = 1000) {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return {
    get(key: string, compute: () => Promise<T>): Promise<T> {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < ttlMs) return hit.value;
      const value = compute();
      entries.delete(key);
      entries.set(key, { at: now, value });
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return value;
    },
    /** Forgets every key starting with `prefix` (a change made in this process shows at once). */
    forget(prefix: string) {
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}
