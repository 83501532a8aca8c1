import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const ISSUER = 'wallet-invest-api';
const AUDIENCE = 'wallet-invest';

export type AccessClaims = { sub: string; sid: string };

export function createAccessTokens(secret: string, lifetimeSeconds: number) {
  const key = new TextEncoder().encode(secret);
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
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
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
