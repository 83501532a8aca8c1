import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const ISSUER = 'wallet-invest-api';
const AUDIENCE = 'wallet-invest';

export type AccessClaims = { sub: string; sid: string };

export function createAccessTokens(secret: string, lifetimeSeconds: number) {
  const key = new TextEncoder().encode(secret);
  /**
   * Tokens already verified, by their exact text (same text, same signature), until they expire:
   * the HMAC check through WebCrypto costs more than the rest of a cached authenticated call.
   */
  const verified = new Map<string, AccessClaims & { exp: number }>();
  const VERIFIED_MAX = 10_000;
  return {
    sign: (claims: AccessClaims) =>
      new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${lifetimeSeconds}s`)
        .sign(key),
    /** The claims, or null for a bad, expired or foreign token. */
    async verify(token: string): Promise<AccessClaims | null> {
      const now = Date.now() / 1000;
      const hit = verified.get(token);
      if (hit) {
        if (hit.exp > now) return { sub: hit.sub, sid: hit.sid };
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
        verified.set(token, { sub: payload.sub, sid: payload.sid, exp: payload.exp });
        return { sub: payload.sub, sid: payload.sid };
      } catch {
        return null;
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;

/** An opaque random token: 256 bits, URL-safe. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** Tokens and codes are stored as hashes only. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
