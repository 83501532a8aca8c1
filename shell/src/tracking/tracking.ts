import { setCookie } from '../locale/cookies';

export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const;
const UTM_MAX_AGE = 30 * 24 * 3600;
/** An invite keeps its referrer for a year (spec §3: a long-lived cookie). */
const INVITE_MAX_AGE = 365 * 24 * 3600;

/** Stores the campaign tags and an invite code a visitor arrives with (spec §3, tracking data). */
export function rememberArrival(search: string, doc: Document = document): void {
  const params = new URLSearchParams(search);
  const utm: Record<string, string> = {};
  for (const key of UTM_KEYS) {
    const value = params.get(key);
    if (value) utm[key] = value.slice(0, 200);
  }
  if (Object.keys(utm).length) setCookie('utm', JSON.stringify(utm), UTM_MAX_AGE, doc);
  const invite = params.get('invite');
  if (invite && /^[A-Za-z0-9_-]{1,64}$/.test(invite)) setCookie('invite', invite, INVITE_MAX_AGE, doc);
}
