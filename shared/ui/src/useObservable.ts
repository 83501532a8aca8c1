import { useSyncExternalStore } from 'react';
import type { Observable } from '@app/singletons/rx';

// Bus state is held in BehaviorSubjects, which answer synchronously on subscribe; caching the
// last value per observable lets useSyncExternalStore read it without re-subscribing.
const lastValues = new WeakMap<Observable<unknown>, unknown>();

export function useObservable<T>(source: Observable<T>, initial: T): T {
  return useSyncExternalStore(
    (onChange) => {
      const sub = source.subscribe((value) => {
        lastValues.set(source, value);
        onChange();
      });
      return () => sub.unsubscribe();
    },
    () => {
      // Prime from a synchronous subscription so the first render already shows the state.
      if (!lastValues.has(source)) source.subscribe((value) => lastValues.set(source, value)).unsubscribe();
      return lastValues.has(source) ? (lastValues.get(source) as T) : initial;
    },
    () => initial,
  );
}
