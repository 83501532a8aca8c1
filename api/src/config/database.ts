import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { ConfigError, type ConfigDoc } from './fields';

/** Where the data lives: PGlite in a folder, or PostgreSQL. */
export const databaseEnv = z.object({
  /** PGlite data folder; relative paths resolve against the working directory. */
  DATA_DIR: z.optional(z.string().check(z.minLength(1))),
  /** postgres://… : use PostgreSQL through node-postgres instead of PGlite. */
  DATABASE_URL: z.optional(z.url({ protocol: /^postgres(ql)?$/ })),
  /** A file holding the database password (a container secret), used when DATABASE_URL has none. */
  DATABASE_PASSWORD_FILE: z.optional(z.string().check(z.minLength(1))),
});
type DatabaseEnv = z.output<typeof databaseEnv>;

export const databaseDocs: ConfigDoc[] = [
  {
    vars: ['DATA_DIR'],
    default: '`<repo root>/.data/api`',
    meaning:
      'PGlite data folder. The default is resolved from the source location, so `npm start -w api` and `npx tsx api/src/main.ts` use the same folder; a relative value resolves against the working directory',
  },
  {
    vars: ['DATABASE_URL'],
    meaning:
      '`postgres://…`: node-postgres instead of PGlite (same migrations, applied under an advisory lock so replicas can start together). In production without a password: node-postgres reads `PGPASSWORD`, or set `DATABASE_PASSWORD_FILE`',
  },
  { vars: ['DATABASE_PASSWORD_FILE'], meaning: 'a file holding the database password (a container secret), put into `DATABASE_URL` at start' },
];

export type DatabaseConfig = { database: { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string } };

/** The password written in a URL, decoded (as the client will use it). */
export function passwordOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const password = new URL(url).password;
  try {
    return decodeURIComponent(password);
  } catch {
    return password;
  }
}

/** The database password kept in DATABASE_PASSWORD_FILE, or undefined when there is none or it cannot be read. */
export function passwordFileSecret(e: DatabaseEnv): string | undefined {
  if (!e.DATABASE_PASSWORD_FILE) return undefined;
  try {
    return readFileSync(e.DATABASE_PASSWORD_FILE, 'utf8').trim();
  } catch {
    // An unreadable file is reported where the address is made.
    return undefined;
  }
}

/** The data folder: DATA_DIR, else one beside the repository whatever the working directory is. */
export const dataDirOf = (e: DatabaseEnv, repoRoot: string) => path.resolve(e.DATA_DIR ?? path.join(repoRoot, '.data/api'));

/** The database address with the password read from its file, when one is given. */
function withPasswordFile(url: string, file: string | undefined): string {
  if (!file) return url;
  const u = new URL(url);
  try {
    u.password = encodeURIComponent(readFileSync(file, 'utf8').trim());
  } catch (err) {
    throw new ConfigError(`DATABASE_PASSWORD_FILE ${file}: ${(err as Error).message}`);
  }
  return u.toString();
}

export function databaseProblems(e: DatabaseEnv): string[] {
  if (e.DATABASE_URL && new URL(e.DATABASE_URL).password) {
    return ['DATABASE_URL must not hold a password in production: use DATABASE_PASSWORD_FILE or PGPASSWORD'];
  }
  return [];
}

export function databaseConfig(e: DatabaseEnv, dataDir: string): DatabaseConfig {
  return {
    database: e.DATABASE_URL ? { kind: 'postgres', url: withPasswordFile(e.DATABASE_URL, e.DATABASE_PASSWORD_FILE) } : { kind: 'pglite', dataDir },
  };
}
