import * as z from 'zod/mini';
import { passwordFileSecret, passwordOf } from './database';
import { devSecret, type ConfigDoc } from './fields';
import type { EnvValues } from './index';
import { hotWalletKeysOf } from './money';

/** The operator's credential, which opens the operator's calls (the CLI). */
export const operatorEnv = z.object({
  /** Credential of the operator CLI (X-Operator-Key), ≥ 32 characters, required in production. Elsewhere one is generated into DATA_DIR/operator-key. */
  OPERATOR_KEY: z.optional(z.string().check(z.minLength(32, 'OPERATOR_KEY must be at least 32 characters'))),
});

export const operatorDocs: ConfigDoc[] = [
  {
    vars: ['OPERATOR_KEY'],
    default: 'generated into `DATA_DIR/operator-key` outside production',
    meaning: 'the operator CLI\'s credential (`X-Operator-Key`), required in production and different from every other secret',
  },
];

export type OperatorConfig = {
  /** Generated outside production when not given; production requires one. */
  operatorKey: string | null;
};

/** The secrets an operator key must differ from: a leak of one must not open the operator's calls. */
function otherSecrets(e: EnvValues, source: Record<string, string | undefined>): [string, string][] {
  const list: [string, string | undefined][] = [
    ['JWT_SECRET', e.JWT_SECRET],
    ['CODE_HMAC_KEY', e.CODE_HMAC_KEY],
    ['PGPASSWORD', source.PGPASSWORD],
    ['the database password', passwordOf(e.DATABASE_URL)],
    ['the SMTP password', passwordOf(e.SMTP_URL)],
    ...hotWalletKeysOf(e).map((k): [string, string] => ['a hot wallet key', k]),
    ['TREASURY_KEY', e.TREASURY_KEY],
    ['DATABASE_PASSWORD_FILE', passwordFileSecret(e)],
  ];
  return list.filter((x): x is [string, string] => Boolean(x[1]));
}

export function operatorProblems(e: EnvValues, source: Record<string, string | undefined>): string[] {
  if (!e.OPERATOR_KEY) return ['OPERATOR_KEY is required in production'];
  const same = otherSecrets(e, source).filter(([, v]) => v === e.OPERATOR_KEY).map(([name]) => name);
  return same.length ? [`OPERATOR_KEY must differ from every other secret (it equals ${[...new Set(same)].join(', ')})`] : [];
}

export function operatorConfig(e: EnvValues, production: boolean, dataDir: string): OperatorConfig {
  return { operatorKey: e.OPERATOR_KEY ?? (production ? null : devSecret(dataDir, 'operator-key')) };
}
