// With the sign-up page only: /sign-in's first load stays as small as it is.
import { readCookie } from '../forms';

/** An invite kept for a year (spec §3), as the shell keeps one a visit arrives with. */
const INVITE_MAX_AGE = 365 * 24 * 3600;

/**
 * Keeps a verified invite from the address in the 'invite' cookie, where the shell did not
 * already (it writes it only when the page loads, not on a navigation inside the site).
 */
export function keepInvite(code: string, doc: Document = document): void {
  if (readCookie('invite', doc) !== code) doc.cookie = `invite=${encodeURIComponent(code)}; Max-Age=${INVITE_MAX_AGE}; Path=/; SameSite=Lax`;
}
