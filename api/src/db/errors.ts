/** The constraint a unique violation (23505) hit, or undefined for any other error. */
export function uniqueViolation(err: unknown): string | undefined {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return e.constraint ?? '';
  }
  return undefined;
}
