import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;
export type Database = { db: Db; kind: 'pglite' | 'postgres'; close: () => Promise<void> };
export type DatabaseConfig = { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };

export const migrationsFolder = path.resolve(__dirname, '../../drizzle');

/**
 * Opens the database and applies the committed migrations. PGlite (embedded, one process) when
 * no URL is given: a data folder, or memory when dataDir is null. Otherwise node-postgres.
 */
export async function openDatabase(
  cfg: DatabaseConfig,
  opts: { loadDataDir?: Blob; onIdleError?: (err: Error) => void } = {},
): Promise<Database> {
  if (cfg.kind === 'postgres') {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({ connectionString: cfg.url, max: 10 });
    // An idle connection that dies (server restart, failover, admin kill) is replaced on next use;
    // unheard, the pool's 'error' event would crash the process.
    pool.on('error', (err) => opts.onIdleError?.(err));
    const db = drizzle({ client: pool, schema });
    // Several replicas may start at once: the advisory lock makes one of them migrate.
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock(727274)');
      await migrate(drizzle({ client, schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(727274)').catch(() => undefined);
      client.release();
    }
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (cfg.dataDir) mkdirSync(cfg.dataDir, { recursive: true });
  const client = await PGlite.create(cfg.dataDir ?? undefined, opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {});
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}

export async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
