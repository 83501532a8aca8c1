// What the page's inline script (shell/src/index.html), the shell's server that writes its input
// and the shell's code that takes its answers agree on. JavaScript so that the server and the
// build (plain Node) import it as it is; typed by early-protocol.d.mts.

/** Base path of every call (spec §7). */
export const apiBasePath = '/api/v1';

/**
 * A cookie the page can read, set and cleared with the HttpOnly refresh cookie. It holds no
 * secret ("1"); it only tells the page that a session may exist, so a visitor without one
 * makes no /refresh request that can only fail.
 */
export const sessionMarkerCookie = 'signed_in';

export const earlyProtocol = Object.freeze({
  /** The id of the JSON the server writes for the inline script: { marker, refresh, calls }. */
  element: 'early-calls',
  /** The window property where the inline script leaves the calls it started, by earlyCallKey. */
  global: '__earlyCalls',
  /** The Web Lock every refresh of the session takes, the inline script's and the shell's. */
  refreshLock: 'session-refresh',
  /** Between the method, the URL and the language in a call's key. */
  keySeparator: ' ',
});

/** The key of a call the inline script started: the shell's call with the same key takes its answer. */
export const earlyCallKey = (method, url, language) => [method, url, language].join(earlyProtocol.keySeparator);
