import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { verifyMessage } from 'ethers';
import { SiweMessage } from 'siwe';
import { apiMessages as M, isBrandHost, SUPPORTED_CHAIN_ID, type BrandRegistry } from '@app/contracts';
import type { Db } from '../db/client';
import { siweNonces } from '../db/schema';
import { ApiError } from '../http/errors';

/** EIP-4361 asks for at least 8 alphanumeric characters; 22 give ~128 bits. */
const NONCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function newNonce(): string {
  const bytes = randomBytes(22);
  return Array.from(bytes, (b) => NONCE_ALPHABET[b % NONCE_ALPHABET.length]).join('');
}

/** Tolerated clock difference between the wallet's device and the server. */
const CLOCK_SKEW_MS = 60_000;

const siweError = (message: string, code: string) => new ApiError(400, message, code, undefined);

export type SiweRequestOrigin = {
  /** host[:port] the browser is on: from Origin, else the forwarded or plain Host header. */
  host: string | undefined;
};

/**
 * Sign-In with Ethereum: single-use nonces from the database (so any replica can verify), and a
 * verification of every field the standard lets a server check.
 */
export function createSiwe(db: Db, brands: BrandRegistry, nonceLifetimeSeconds: number) {
  return {
    async issueNonce(): Promise<{ nonce: string; issuedAt: Date; expiresAt: Date }> {
      const nonce = newNonce();
      const issuedAt = new Date();
      const expiresAt = new Date(issuedAt.getTime() + nonceLifetimeSeconds * 1000);
      await db.insert(siweNonces).values({ nonce, createdAt: issuedAt, expiresAt });
      // Housekeeping on the way: nonces older than a day are of no use.
      await db.delete(siweNonces).where(lt(siweNonces.expiresAt, sql`now() - interval '1 day'`));
      return { nonce, issuedAt, expiresAt };
    },

    /**
     * Verifies a signed message for `address` and answers the lower-cased address. The nonce is
     * spent first, so a message can never be used twice, even when it fails a later check.
     */
    async verify(input: { message: string; signature: string; address: string }, origin: SiweRequestOrigin): Promise<string> {
      let msg: SiweMessage;
      try {
        msg = new SiweMessage(input.message);
      } catch {
        throw siweError(M.siweInvalid, 'SIWE_INVALID');
      }

      const spent = await db
        .update(siweNonces)
        .set({ usedAt: sql`now()` })
        .where(and(eq(siweNonces.nonce, msg.nonce), isNull(siweNonces.usedAt), gt(siweNonces.expiresAt, sql`now()`)))
        .returning({ nonce: siweNonces.nonce });
      if (spent.length === 0) throw siweError(M.siweNonce, 'SIWE_NONCE');

      // Domain: a brand host (any port), and the very host the request came from (port included),
      // so a message signed for one site cannot be replayed at another.
      const brandOk = isBrandHost(brands, msg.domain);
      if (!brandOk || !origin.host || msg.domain.toLowerCase() !== origin.host.toLowerCase()) {
        throw siweError(M.siweDomain, 'SIWE_DOMAIN');
      }
      try {
        if (new URL(msg.uri).host.toLowerCase() !== msg.domain.toLowerCase()) throw new Error('uri');
      } catch {
        throw siweError(M.siweDomain, 'SIWE_DOMAIN');
      }
      if (msg.chainId !== SUPPORTED_CHAIN_ID) throw siweError(M.siweChain, 'SIWE_CHAIN');

      const now = Date.now();
      if (msg.expirationTime && Date.parse(msg.expirationTime) <= now) throw siweError(M.siweExpired, 'SIWE_EXPIRED');
      if (msg.notBefore && Date.parse(msg.notBefore) > now + CLOCK_SKEW_MS) throw siweError(M.siweExpired, 'SIWE_EXPIRED');
      const issuedAt = msg.issuedAt ? Date.parse(msg.issuedAt) : NaN;
      if (!Number.isFinite(issuedAt) || issuedAt > now + CLOCK_SKEW_MS || issuedAt < now - nonceLifetimeSeconds * 1000 - CLOCK_SKEW_MS) {
        throw siweError(M.siweExpired, 'SIWE_EXPIRED');
      }

      let signer: string;
      try {
        signer = verifyMessage(input.message, input.signature);
      } catch {
        throw siweError(M.siweSignature, 'SIWE_SIGNATURE');
      }
      const claimed = input.address.toLowerCase();
      if (signer.toLowerCase() !== msg.address.toLowerCase() || signer.toLowerCase() !== claimed) {
        throw siweError(M.siweSignature, 'SIWE_SIGNATURE');
      }
      return claimed;
    },
  };
}
export type Siwe = ReturnType<typeof createSiwe>;

/**
 * Where the browser is: the Origin header wins (a proxy may rewrite Host), else Fastify's host,
 * which honours X-Forwarded-Host only from a trusted proxy.
 */
export function requestHost(req: { headers: Record<string, string | string[] | undefined>; host: string }): string | undefined {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    try {
      return new URL(origin).host;
    } catch {
      return undefined;
    }
  }
  return req.host || undefined;
}
