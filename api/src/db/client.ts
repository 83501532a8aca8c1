import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;
/** What a listener hears: a notify's payload, or that it is (dis)connected (while not, notifies may be missed). */
export type Listener = { onNotify: (payload: string) => void; onState: (live: boolean) => void };
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
  /** LISTENs on a channel; answers the function that stops listening. */
  listen: (channel: string, listener: Listener) => Promise<() => Promise<void>>;
  /** Sends a notify on a channel, committed at once. */
  notify: (channel: string, payload: string) => Promise<void>;
};
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
    return {
      db,
      kind: 'postgres',
      close: () => pool.end(),
      listen: (channel, listener) => listenPostgres(cfg.url, channel, listener),
      notify: async (channel, payload) => void (await pool.query('select pg_notify($1, $2)', [channel, payload])),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (cfg.dataDir) mkdirSync(cfg.dataDir, { recursive: true });
  const client = await PGlite.create(cfg.dataDir ?? undefined, opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {});
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    close: () => client.close(),
    notify: async (channel, payload) => void (await client.query('select pg_notify($1, $2)', [channel, payload])),
    // One process, one connection: a notify is heard when the statement that raised it commits.
    listen: async (channel, listener) => {
      const stop = await client.listen(channel, listener.onNotify);
      listener.onState(true);
      return async () => {
        listener.onState(false);
        if (!client.closed) await stop();
      };
    },
  };
}

/** How long a lost listening connection waits before it connects again. */
const RELISTEN_MS = 1000;

/**
 * A connection of its own that only LISTENs (a pooled one would be handed to other queries).
 * Lost, it says so at once and connects again until stopped: notifies sent meanwhile are missed,
 * so whoever relies on them must not trust what they would have invalidated.
 */
async function listenPostgres(url: string, channel: string, listener: Listener): Promise<() => Promise<void>> {
  const { Client } = await import('pg');
  let stopped = false;
  let client: InstanceType<typeof Client> | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async () => {
    retry = null;
    if (stopped) return;
    const c = new Client({ connectionString: url });
    client = c;
    let lost = false;
    const lose = () => {
      if (lost) return;
      lost = true;
      listener.onState(false);
      void c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), RELISTEN_MS);
    };
    c.on('error', lose);
    c.on('end', lose);
    c.on('notification', (n) => {
      if (n.channel === channel) listener.onNotify(n.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      if (!stopped && !lost) listener.onState(true);
    } catch {
      lose();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    listener.onState(false);
    await client?.end().catch(() => undefined);
  };
}

export async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
