import * as z from 'zod/mini';

// The runtime manifest's schemas. The shell's server checks the manifest with them before it puts
// it in the page; the browser loads them only for a manifest it fetches itself (lazy.ts).

export const layoutKindSchema = z.enum(['auth', 'inner']);
export type LayoutKind = z.infer<typeof layoutKindSchema>;

/** A route a remote owns, as a react-router path pattern without the locale prefix. */
export const remoteRouteSchema = z.object({
  path: z.string().check(z.regex(/^\/[A-Za-z0-9\-/:*?]*$/, 'a path starting with /')),
  layout: layoutKindSchema,
  /** Only signed-in users reach it (spec §4, access control). */
  private: z._default(z.boolean(), false),
  /**
   * Only accounts with this role reach it (the operator console): the shell refuses the route to
   * anyone else before loading the remote, and the shell's server neither hints nor caches it.
   */
  role: z.optional(z.enum(['operator'])),
  /**
   * The API calls the page makes first (paths under /api/v1, with the route's `:params`). For a
   * signed-in visitor the shell's server has the page start them before any script arrives,
   * and the remote's own calls take those answers; a remote that changes its calls changes this.
   */
  firstCalls: z.optional(z.array(z.string().check(z.regex(/^\/[A-Za-z0-9_\-/:?=&]*$/, 'a path under the API'))).check(z.maxLength(16))),
});
export type RemoteRoute = z.infer<typeof remoteRouteSchema>;

/**
 * A remote's routes.json: the routes it owns and their first calls, kept in the remote's own
 * folder and published with its build beside its remoteEntry.js. The shell's server reads it
 * from the deployed remote and puts the routes into the runtime manifest it serves.
 */
export const remoteRoutesFileSchema = z.object({
  routes: z.array(remoteRouteSchema).check(z.minLength(1)),
});
export type RemoteRoutesFile = z.infer<typeof remoteRoutesFileSchema>;

export const remoteEntrySchema = z.object({
  /** The MF container name, e.g. mf_pools. */
  name: z.string().check(z.regex(/^[a-z][a-z0-9_]*$/)),
  /** URL of the remote's mf-manifest.json. */
  entry: z.url(),
  routes: z.array(remoteRouteSchema).check(z.minLength(1)),
  /** The contract version the deployed build was made against. */
  contract: z.string().check(z.regex(/^\d+\.\d+$/)),
});
export type RemoteEntry = z.infer<typeof remoteEntrySchema>;

/**
 * /remotes.json as the shell's server serves it: which remotes a brand host composes, where each
 * is deployed (the brand's manifest), and the routes each publishes (its routes.json).
 */
export const runtimeManifestSchema = z.object({
  remotes: z.array(remoteEntrySchema).check(z.minLength(1)),
});
export type RuntimeManifest = z.infer<typeof runtimeManifestSchema>;

/**
 * The part of a remote's mf-manifest.json (written by its build) the shell reads: where its
 * container script is. Paths are relative to the manifest when the build's publicPath is 'auto'.
 */
export const mfManifestSchema = z.object({
  name: z.string(),
  metaData: z.object({
    remoteEntry: z.object({ name: z.string().check(z.minLength(1)), path: z.string(), type: z.optional(z.string()) }),
    publicPath: z.optional(z.string()),
  }),
});
export type MfManifest = z.infer<typeof mfManifestSchema>;
