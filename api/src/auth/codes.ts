import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { emailCodes } from '../db/schema';

/** `owner`: the owner's proof for a change of the e-mail, password or wallet, mailed to the proven address. */
export type CodePurpose = 'approve' | 'recovery' | 'email-change' | 'owner';

/**
 * Single-use e-mail codes: 6 random digits, a short life, a capped number of tries. Only an HMAC
 * is stored, keyed with the server secret, so a copy of the table does not reveal live codes. The
 * HMAC covers the address the code was mailed to: a code proves that address and no other, so a
 * code read in one mailbox never confirms a different one (issue 21, finding 4).
 */
export function createCodes(db: Db, secret: string, lifetimeSeconds: number, maxAttempts: number) {
  const mac = (userId: string, purpose: CodePurpose, address: string, code: string) =>
    createHmac('sha256', secret).update(`${purpose}:${userId}:${address.toLowerCase()}:${code}`).digest();

  return {
    /**
     * A new code for the address it is mailed to; earlier unused codes of the same purpose stop
     * working. `tx` lets a caller store what the code is for in the same transaction.
     */
    async issue(userId: string, purpose: CodePurpose, address: string, tx?: Pick<Db, 'update' | 'insert'>): Promise<string> {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const store = async (tx: Pick<Db, 'update' | 'insert'>) => {
        await tx
          .update(emailCodes)
          .set({ usedAt: sql`now()` })
          .where(and(eq(emailCodes.userId, userId), eq(emailCodes.purpose, purpose), isNull(emailCodes.usedAt)));
        await tx.insert(emailCodes).values({
          userId,
          purpose,
          codeHash: mac(userId, purpose, address, code).toString('hex'),
          expiresAt: new Date(Date.now() + lifetimeSeconds * 1000),
        });
      };
      if (tx) await store(tx);
      else await db.transaction(store);
      return code;
    },

    /**
     * Spends the code when it matches. Every check first takes one try in a single conditional
     * UPDATE, so parallel guesses cannot all pass a read-then-increment; once the tries are used up
     * nothing is compared, not even the right code.
     */
    async consume(userId: string, purpose: CodePurpose, code: string, address: string): Promise<boolean> {
      const live = db
        .select({ id: emailCodes.id })
        .from(emailCodes)
        .where(
          and(eq(emailCodes.userId, userId), eq(emailCodes.purpose, purpose), isNull(emailCodes.usedAt), gt(emailCodes.expiresAt, sql`now()`)),
        )
        .orderBy(desc(emailCodes.id))
        .limit(1);
      const [row] = await db
        .update(emailCodes)
        .set({ attempts: sql`${emailCodes.attempts} + 1` })
        .where(and(eq(emailCodes.id, sql`(${live})`), lt(emailCodes.attempts, maxAttempts), isNull(emailCodes.usedAt)))
        .returning({ id: emailCodes.id, codeHash: emailCodes.codeHash });
      if (!row) return false;
      const expected = Buffer.from(row.codeHash, 'hex');
      const given = mac(userId, purpose, address, code.trim());
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
      const spent = await db
        .update(emailCodes)
        .set({ usedAt: sql`now()` })
        .where(and(eq(emailCodes.id, row.id), isNull(emailCodes.usedAt)))
        .returning({ id: emailCodes.id });
      return spent.length === 1;
    },
  };
}
export type Codes = ReturnType<typeof createCodes>;
