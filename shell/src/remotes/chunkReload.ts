/** Spec §8: a chunk-load failure reloads the page, at most once per 60 seconds. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;
const KEY = 'chunk-reload-at';

export function isChunkLoadError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { name, message } = e as { name?: string; message?: string };
    if (name === 'ChunkLoadError' || /Loading (CSS )?chunk [\w-]+ failed/i.test(message ?? '')) return true;
  }
  return false;
}

/** Reloads unless a reload for the same reason happened within the guard; says whether it did. */
export function reloadForChunkError(
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  reload: () => void = () => location.reload(),
  now: number = Date.now(),
): boolean {
  const last = Number(storage.getItem(KEY) ?? 0);
  if (now - last < CHUNK_RELOAD_GUARD_MS) return false;
  storage.setItem(KEY, String(now));
  reload();
  return true;
}
