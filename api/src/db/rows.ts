import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/** Runs raw SQL and answers its rows; node-postgres and PGlite both put them in `rows`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
