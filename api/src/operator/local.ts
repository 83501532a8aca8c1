// The local stack's operators (LOCAL_CHAIN only): named operators, so that four eyes can be tried
// at once (and browser test files run in parallel sign in as different ones). Their credentials
// are written beside the data, readable by the owner only; the command line and the browser tests
// read them from there.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { operators } from '../db/schema';
import type { Services } from '../services';
import { enrolOperator } from './identity';

export const LOCAL_OPERATORS = ['alice', 'bob', 'carol'] as const;
export type LocalOperatorFile = { name: string; email: string; password: string; totpSecret: string; key: string };

export const localOperatorFile = (dataDir: string, name: string) => path.join(dataDir, 'operators', `${name}.json`);

export function readLocalOperator(dataDir: string, name: string): LocalOperatorFile | null {
  const file = localOperatorFile(dataDir, name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalOperatorFile) : null;
}

export async function localOperators(s: Pick<Services, 'db' | 'hasher'>, dataDir: string) {
  for (const name of LOCAL_OPERATORS) {
    const [known] = await s.db.select({ id: operators.id }).from(operators).where(eq(operators.name, name));
    // Enrolled before: its file holds the credentials (if it was removed, nothing can recover them).
    if (known) continue;
    // Mixed classes guaranteed: the random part, then one of each.
    const password = `${randomBytes(18).toString('base64url')}aZ9!`;
    const email = `${name}@operators.localhost`;
    const enrolled = await enrolOperator(s.db, s.hasher, { name, email, password });
    const file = localOperatorFile(dataDir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ name, email, password, totpSecret: enrolled.totpSecret, key: enrolled.key }, null, 2), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
}
