// The session's plain values, apart from its schemas: a page's start-up needs these before any
// call is checked.

export const sessionLifetimes = { accessTokenSeconds: 1800, refreshTokenSeconds: 2592000 } as const;

// The base path and the marker cookie are also read by the page's inline script and the shell's
// server (plain JavaScript): they live in early-protocol.mjs.
export { apiBasePath, sessionMarkerCookie } from '../early-protocol.mjs';
