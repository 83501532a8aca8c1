/** Spec §9: a loading indicator, once shown, stays at least this long (it never just flashes). */
export const FETCH_MINIMUM_DELAY_MS = 200;

/**
 * Settles like `work`, but no sooner than FETCH_MINIMUM_DELAY_MS after `shownAt` (on the
 * `now()` clock), when the indicator it replaces appeared.
 */
export function afterMinimumDelay<T>(work: Promise<T>, shownAt: number, now: () => number = () => performance.now()): Promise<T> {
  const wait = () => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, shownAt + FETCH_MINIMUM_DELAY_MS - now())));
  return work.then(
    async (value) => {
      await wait();
      return value;
    },
    async (error: unknown) => {
      await wait();
      throw error;
    },
  );
}
