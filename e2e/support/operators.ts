// The stack's named operators (alice, bob and carol): the API wrote their credentials beside its data at
// start. The tests act as them as the command line does: the key, and a fresh TOTP code per change.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { authenticator } from 'otplib';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { dataDir, repoRoot } from './paths';
import { operatorApiURL } from '../stack.config';

/** alice and bob share four eyes in the console spec; carol signs in to the console in the solvency spec (sign-in codes are once per operator, and the files run in parallel). */
export type OperatorName = 'alice' | 'bob' | 'carol';
export type LocalOperator = { name: string; email: string; password: string; totpSecret: string; key: string };

export const localOperator = (name: OperatorName = 'alice'): LocalOperator =>
  JSON.parse(readFileSync(join(dataDir, 'api', 'operators', `${name}.json`), 'utf8')) as LocalOperator;

/** The code the operator's authenticator app shows now. */
export const totpOf = (op: LocalOperator) => authenticator.generate(op.totpSecret);

/** The headers of the command line's call as that operator; a change carries the current code. */
export const operatorHeaders = (op: LocalOperator, change = true): Record<string, string> => ({
  'x-operator-key': `${op.name}.${op.key}`,
  ...(change ? { 'x-operator-totp': totpOf(op) } : {}),
});

/** An operator's change through the operator API's own port. */
export function operatorPost(request: APIRequestContext, path: string, data: unknown, name: OperatorName = 'alice') {
  return request.post(`${operatorApiURL}/api/v1/operator/${path}`, { data, headers: operatorHeaders(localOperator(name)) });
}

/** The operator command line against the stack under test, as `name`: its exit code and what it printed. */
export function operatorCli(name: OperatorName, ...args: string[]) {
  const op = localOperator(name);
  const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), 'api/src/operator/cli.ts', ...args, '--api', operatorApiURL], {
    cwd: repoRoot,
    // A change also carries the code the operator's authenticator shows now.
    env: { ...process.env, OPERATOR_KEY: `${op.name}.${op.key}`, OPERATOR_TOTP: totpOf(op) },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status ?? 1, out: `${run.stdout}${run.stderr}` };
}

const STEP_MS = 30_000;
/** The last TOTP step each operator signed in with: the API never accepts a sign-in code twice. */
const usedStep = new Map<string, number>();
const stepNow = () => Math.floor(Date.now() / STEP_MS);

/** A sign-in code the API has not seen from this operator: the next step's, once it comes. */
export async function freshSignInCode(op: LocalOperator): Promise<string> {
  const used = usedStep.get(op.name);
  if (used !== undefined) await expect.poll(stepNow, { timeout: 2 * STEP_MS, intervals: [500] }).toBeGreaterThan(used);
  usedStep.set(op.name, stepNow());
  return authenticator.generate(op.totpSecret);
}

/** The operator's account signed in to the site (the console opens only for it), then the console's own sign-in. */
export async function signInConsole(page: Page, op: LocalOperator, path = '/operator') {
  const site = await page.request.post('/api/v1/login', { data: { login: op.email, password: op.password } });
  expect(site.status(), await site.text()).toBe(200);
  await page.goto(path);
  const form = page.locator('form.operator__sign-in');
  await expect(page.getByLabel(/^(Operator name|Имя оператора)$/)).toBeVisible();
  await page.getByLabel(/^(Operator name|Имя оператора)$/).fill(op.name);
  await page.getByLabel(/^(Password|Пароль)$/).fill(op.password);
  await page.getByLabel(/^(Authenticator code|Код аутентификатора)/).fill(await freshSignInCode(op));
  await form.getByRole('button', { name: /^(Sign in|Войти)$/ }).click();
  await expect(page.getByTestId('operator-name')).toContainText(op.name);
}
