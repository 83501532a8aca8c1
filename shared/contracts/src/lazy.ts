// Schemas a page's start-up does without, each loaded (in browsers, as a chunk of its own) the
// first time something is checked with it. A failed load is tried again by the next caller.

/** Memoises a load; a failure is forgotten, so the next call asks again. */
export function retryingOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** The runtime manifest's and a remote's mf-manifest.json's schemas: for a manifest the page did not carry. */
export const loadManifestSchemas = retryingOnce(() => import(/* webpackChunkName: "manifest-schemas" */ './manifest'));

/** The schema of the bus's commands, which come from code the shell did not build. */
export const loadBusCommandSchema = retryingOnce(() => import(/* webpackChunkName: "bus-schemas" */ './bus').then((m) => m.busCommandSchema));
