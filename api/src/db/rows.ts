import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/** Runs raw SQL on the database or a transaction and answers its rows; node-postgres and PGlite both put them in `rows`. */
export async function rows<T>(conn: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  return ((await conn.execute(query)) as unknown as { rows: T[] }).rows;
}
