// The session's plain values, apart from its schemas: a page's start-up needs these before any
// call is checked.

export const sessionLifetimes = { accessTokenSeconds: 1800, refreshTokenSeconds: 2592000 } as const;

/** Base path of every call (spec §7). */
export const apiBasePath = '/api/v1';

/**
 * A cookie the page can read, set and cleared with the HttpOnly refresh cookie. It holds no
 * secret ("1"); it only tells the shell that a session may exist, so a visitor without one
 * makes no /refresh request that can only fail.
 */
export const sessionMarkerCookie = 'signed_in';
