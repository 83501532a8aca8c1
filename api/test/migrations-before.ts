import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
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

/** Users A and B and the five accounts of a small book: A's ETH position in coin with its deposit and interest, B's USDT position in dex, their reserves, the house's ETH. */
export async function seedTwoInvestors(db: Db, users: { a: string; b: string }, currency: Record<number, string>): Promise<void> {
  for (const [id, email] of [[users.a, 'a'], [users.b, 'b']] as const) {
    await db.execute(sql`insert into users (id, email, role, referral_code) values (${id}::uuid, ${`${email}@example.com`}, 'user', ${`code${email}`})`);
  }
  const account = (id: number, key: string, kind: string, userId: string | null, pool: string | null, balance: bigint, deposited = 0n, interest = 0n) =>
    db.execute(sql`insert into ledger_accounts (id, key, kind, currency, user_id, pool, balance, deposited, interest)
      values (${id}, ${key}, ${kind}, ${currency[id]!}, ${userId}::uuid, ${pool}, ${balance.toString()}::numeric, ${deposited.toString()}::numeric, ${interest.toString()}::numeric)`);
  await account(1, `position:coin:ETH:${users.a}`, 'position', users.a, 'coin', -1003n, 1000n, 3n);
  await account(2, `position:dex:USDT:${users.b}`, 'position', users.b, 'dex', -70n, 70n);
  await account(3, 'reserves:1:0xaa:ETH', 'reserves', null, 'coin', 1000n);
  await account(4, 'reserves:1:0xbb:USDT', 'reserves', null, 'dex', 70n);
  await account(5, 'house:ETH', 'house', null, null, 3n);
}
