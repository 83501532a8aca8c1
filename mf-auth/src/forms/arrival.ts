/** A cookie of this page's origin (the shell writes them: invite, utm, lang). */
export function readCookie(name: string, doc: Document = document): string | undefined {
  for (const part of doc.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Where the visitor came from: the utm_source the shell kept in the 'utm' cookie (spec §3). */
export function arrivalSource(doc: Document = document): string | undefined {
  const raw = readCookie('utm', doc);
  if (!raw) return undefined;
  try {
    const source = (JSON.parse(raw) as Record<string, unknown>).utm_source;
    return typeof source === 'string' && source ? source.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** The shape of an invite code the shell accepts into its cookie. */
const INVITE = /^[A-Za-z0-9_-]{1,64}$/;
export const isWellFormedInvite = (code: string): boolean => INVITE.test(code);

/**
 * The invite this visit carries: ?invite=CODE in the address, else the one the shell kept in the
 * 'invite' cookie from an earlier visit (a referral link may land on another page first).
 */
export function inviteFromVisit(params: URLSearchParams, doc: Document = document): string | undefined {
  const fromUrl = params.get('invite')?.trim();
  if (fromUrl) return fromUrl;
  const fromCookie = readCookie('invite', doc);
  return fromCookie && isWellFormedInvite(fromCookie) ? fromCookie : undefined;
}
