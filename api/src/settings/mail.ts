import { eq, sql } from 'drizzle-orm';
import type { MailPreferences, MailPreferencesBody } from '@app/contracts';
import type { Db } from '../db/client';
import { mailPreferences } from '../db/schema';

/** Every mail about money is on until the user switches it off. */
const ALL_ON: MailPreferences = { depositCredited: true, withdrawalPaid: true, withdrawalReturned: true, claimPaid: true, withdrawalHeld: true };

const pick = (row: typeof mailPreferences.$inferSelect): MailPreferences => ({
  depositCredited: row.depositCredited,
  withdrawalPaid: row.withdrawalPaid,
  withdrawalReturned: row.withdrawalReturned,
  claimPaid: row.claimPaid,
  withdrawalHeld: row.withdrawalHeld,
});

export async function mailPreferencesOf(db: Db, userId: string): Promise<MailPreferences> {
  const [row] = await db.select().from(mailPreferences).where(eq(mailPreferences.userId, userId));
  return row ? pick(row) : ALL_ON;
}

/** Changes the switches given, in one statement: two tabs saving at once each keep their own change. */
export async function setMailPreferences(db: Db, userId: string, change: MailPreferencesBody): Promise<MailPreferences> {
  const set = Object.fromEntries(Object.entries(change).filter(([, v]) => typeof v === 'boolean')) as Partial<MailPreferences>;
  const [row] = await db
    .insert(mailPreferences)
    .values({ userId, ...ALL_ON, ...set })
    .onConflictDoUpdate({ target: mailPreferences.userId, set: { ...set, updatedAt: sql`now()` } })
    .returning();
  return pick(row!);
}
