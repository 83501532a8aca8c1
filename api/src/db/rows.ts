import { createHash } from 'node:crypto';
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

/**
 * `preparedRows` for a statement whose text depends on its options (a list's filters): named by
 * `prefix` and a digest of the text, so each text is planned once per connection and the names
 * stay as few as the options' combinations.
 */
export function preparedByText<T>(conn: Pick<Db, 'execute'>, prefix: string, query: SQL): Promise<T[]> {
  const name = `${prefix}_${createHash('sha1').update(dialect.sqlToQuery(query).sql).digest('hex').slice(0, 20)}`;
  return preparedRows<T>(conn, name, query);
}
