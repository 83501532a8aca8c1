import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { currencies } from './schema';

/** A currency's decimals, 0 when the currency is not known. */
export async function decimalsOfCurrency(db: Pick<Db, 'select'>, currency: string): Promise<number> {
  const [found] = await db.select({ decimals: currencies.decimals }).from(currencies).where(eq(currencies.code, currency));
  return found?.decimals ?? 0;
}
