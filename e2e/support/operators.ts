// The stack's named operators (alice and bob): the API wrote their credentials beside its data at
// start. The tests act as them as the command line does: the key, and a fresh TOTP code per change.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { authenticator } from 'otplib';
import type { APIRequestContext } from '@playwright/test';
import { dataDir, repoRoot } from './paths';
import { operatorApiURL } from '../stack.config';

export type LocalOperator = { name: string; email: string; password: string; totpSecret: string; key: string };

export const localOperator = (name: 'alice' | 'bob' = 'alice'): LocalOperator =>
  JSON.parse(readFileSync(join(dataDir, 'api', 'operators', `${name}.json`), 'utf8')) as LocalOperator;

/** The code the operator's authenticator app shows now. */
export const totpOf = (op: LocalOperator) => authenticator.generate(op.totpSecret);

/** The headers of the command line's call as that operator; a change carries the current code. */
export const operatorHeaders = (op: LocalOperator, change = true): Record<string, string> => ({
  'x-operator-key': `${op.name}.${op.key}`,
  ...(change ? { 'x-operator-totp': totpOf(op) } : {}),
});

/** An operator's change through the operator API's own port. */
export function operatorPost(request: APIRequestContext, path: string, data: unknown, name: 'alice' | 'bob' = 'alice') {
  return request.post(`${operatorApiURL}/api/v1/operator/${path}`, { data, headers: operatorHeaders(localOperator(name)) });
}

/** The operator command line against the stack under test, as `name`: its exit code and what it printed. */
export function operatorCli(name: 'alice' | 'bob', ...args: string[]) {
  const op = localOperator(name);
  const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'api/src/operator/cli.ts', ...args, '--api', operatorApiURL], {
    cwd: repoRoot,
    env: { ...process.env, OPERATOR_KEY: `${op.name}.${op.key}` },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status ?? 1, out: `${run.stdout}${run.stderr}` };
}

