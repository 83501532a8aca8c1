import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** Runs raw SQL on the database or a transaction and answers its rows; node-postgres and PGlite both put them in `rows`. */
export async function rows<T>(conn: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  return ((await conn.execute(query)) as unknown as { rows: T[] }).rows;
}

const dialect = new PgDialect();
type PoolLike = { totalCount: number; query: (q: { name: string; text: string; values: unknown[] }) => Promise<{ rows: unknown[] }> };

/**
 * `rows` as a named prepared statement on PostgreSQL: each pooled connection parses and plans it
 * once, then runs it by name (a hot read whose planning would cost as much as its execution).
 * The name must always stand for the same text. Elsewhere (PGlite, a transaction) a plain query.
 */
export async function preparedRows<T>(conn: Pick<Db, 'execute'>, name: string, query: SQL): Promise<T[]> {
  const client = (conn as { $client?: unknown }).$client as Partial<PoolLike> | undefined;
  if (!client || typeof client.totalCount !== 'number' || typeof client.query !== 'function') return rows<T>(conn, query);
  const q = dialect.sqlToQuery(query);
  return (await client.query({ name, text: q.sql, values: q.params })).rows as T[];
}
