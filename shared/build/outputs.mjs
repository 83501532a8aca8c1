// The files a host's build writes beside its bundle for its server (shell-server/), by name: the
// one place the build and the server agree on them.

/** The shell's strings (English and Russian) for the server's frame of the first paint. */
export const FRAME_STRINGS = 'frame-strings.json';
/** The shell's chunk files fetched at start, and each language's strings chunk. */
export const STARTUP_CHUNKS = 'startup-chunks.json';
/** The runtime manifest's schemas, and the route matcher, as plain JavaScript (server-schema.mjs). */
export const SERVER_MANIFEST_SCHEMA = 'server/manifest-schema.mjs';
/** The shell's page plan (shell/page-plan.json, checked and completed by page-plan.mjs). */
export const PAGE_PLAN = 'server/page-plan.json';
/** The brand registry's folder reader (shared/contracts' brand-folder.ts) as plain JavaScript (server-schema.mjs). */
export const SERVER_BRAND_FOLDER = 'server/brand-folder.mjs';
