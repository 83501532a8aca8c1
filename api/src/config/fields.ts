import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';

export class ConfigError extends Error {}

export const bool = z.pipe(
  z.enum(['true', 'false', '1', '0', 'yes', 'no']),
  z.transform((v) => v === 'true' || v === '1' || v === 'yes'),
);
export const int = (min: number, max: number) => z.coerce.number().check(z.int(), z.gte(min), z.lte(max));
export const positive = z.coerce.number().check(z.positive(), z.lte(1e9));

/**
 * One row of the configuration table in api/README.md (scripts/config-table.mjs prints it): the
 * variables it covers, what they do, and the default where the schema's own cannot say it (a
 * generated value, one that depends on LOCAL_CHAIN). A test holds every variable to one row.
 */
export type ConfigDoc = { vars: string[]; meaning: string; default?: string };

/** In development a key is made once and kept beside the data, so sessions and codes survive restarts. */
export function devSecret(dir: string, name: string): string {
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
