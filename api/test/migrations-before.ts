import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, type Db } from '../src/db/client';

/** The migrations whose tag sorts before `tag` ('0041'), alone in a folder of their own (a migration test's starting shape). */
export function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `migrations-before-${tag}-`));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const later = (t: string) => t >= tag;
  for (const e of journal.entries.filter((x) => later(x.tag))) rmSync(path.join(dir, `${e.tag}.sql`));
  journal.entries = journal.entries.filter((x) => !later(x.tag));
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** A fresh in-memory database migrated up to (not including) `tag`. */
export async function databaseBefore(tag: string): Promise<{ db: Db; close: () => Promise<void> }> {
  const client = await PGlite.create();
  const db = drizzle({ client }) as unknown as Db;
  const before = migrationsBefore(tag);
  try {
    await migrate(db as never, { migrationsFolder: before });
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
  return { db, close: () => client.close() };
}
