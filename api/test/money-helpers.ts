import { startChain, type LocalChain } from '@app/chain';
import { sql } from 'drizzle-orm';
import type { App } from '../src/app';
import type { Db } from '../src/db/client';
import { rows } from '../src/db/rows';
import { checkLedger, checkLedgerIncremental } from '../src/ledger';
import { runOperator, type Output, type Transport } from '../src/operator/cli';
import { enrolOperator, totpNow, type Enrolled } from '../src/operator';
import { call, startTestApp, type TestApp } from './helpers';

/** A command line's entry (`npm run operator`): its arguments, the API transport and the printer. */
type Command = (argv: string[], send: Transport, out: Output) => Promise<number>;

/** A named operator of the app, enrolled once per app and name. */
export type TestOperator = Enrolled & { email: string; password: string };
const enrolled = new WeakMap<App, Map<string, Promise<TestOperator>>>();
export function testOperator(app: App, name = 'tess'): Promise<TestOperator> {
  const mine = enrolled.get(app) ?? new Map<string, Promise<TestOperator>>();
  enrolled.set(app, mine);
  if (!mine.has(name)) {
    const email = `${name}-${Math.random().toString(36).slice(2)}@operators.test`;
    const password = 'Operator-password-1!';
    mine.set(name, enrolOperator(app.services.db, app.services.hasher, { name, email, password }).then((e) => ({ ...e, email, password })));
  }
  return mine.get(name)!;
}

/** The headers of a call as that operator: its key, and its current TOTP code for a change. */
export const operatorHeaders = (op: Enrolled, method = 'POST'): Record<string, string> => ({
  'x-operator-key': `${op.name}.${op.key}`,
  ...(method === 'GET' ? {} : { 'x-operator-totp': totpNow(op.totpSecret) }),
});

/**
 * A command line against the app, as a named operator (the default test operator, or `as`; no
 * credential when null); answers the exit code and what it printed.
 */
export async function runCommand(app: App, command: Command, argv: string[], as?: Enrolled | null) {
  const lines: string[] = [];
  const who = as === undefined ? await testOperator(app) : as;
  const send: Transport = async (method, url, body) => {
    const r = await call(app, method, url, { headers: who ? operatorHeaders(who, method) : {}, ...(body !== undefined ? { body } : {}) });
    return { status: r.status, body: r.body };
  };
  let code: number;
  try {
    code = await command(argv, send, (l) => lines.push(l));
  } catch (err) {
    lines.push((err as Error).message);
    code = 2;
  }
  return { code, out: lines.join('\n') };
}

/** `npm run operator -- …` against the app, as the test operator; answers the exit code and what it printed. */
export const operator = (app: App, ...argv: string[]) => runCommand(app, runOperator, argv);

/** The ledger check must pass after every step. */
export async function expectLedgerBalanced(app: App) {
  // The incremental check first (it moves its checkpoint on), then the full one over everything.
  const incremental = await checkLedgerIncremental(app.services.db);
  if (!incremental.ok) throw new Error(`incremental ledger check failed: ${JSON.stringify(incremental, null, 2)}`);
  const c = await checkLedger(app.services.db);
  if (!c.ok) throw new Error(`ledger check failed: ${JSON.stringify(c, null, 2)}`);
  return c;
}

export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
export const today = () => new Date().toISOString().slice(0, 10);

/**
 * The documented formula computed independently of the engine (bisection for r, then
 * floor(balance × r) per day): the same independent computation the browser tests use.
 */
export { earned as independentEarned } from '@app/web3/testing';

export const ETH = 10n ** 18n;
export const USDT = 10n ** 6n;

/**
 * A fresh anvil and an API on it for one test file; the jobs run only when a test runs them.
 * `env` adds to or overrides the API's environment.
 */
export function moneyStack(env: Record<string, string> = {}) {
  const stack = {} as { chain: LocalChain; t: TestApp };
  beforeAll(async () => {
    stack.chain = await startChain({ port: 0, quiet: true });
    stack.t = await startTestApp({ RPC_URL: stack.chain.rpcUrl, DEPOSIT_CONFIRMATIONS: '1', DEPOSIT_JOB_INTERVAL_MS: '0', ...env });
  }, 60_000);
  afterAll(async () => {
    await stack.t?.close();
    await stack.chain?.stop();
  });
  return stack;
}

/**
 * What each member gave a referrer, forfeits taken off, summed over the months and currencies, read
 * from the members' monthly rows (0035): the referrer's share is the level at which the member is
 * below them. A member whose row has no share at that level is left out.
 */
export async function memberShares(db: Db, referrerId: string, currency?: string): Promise<Map<string, bigint>> {
  const found = await rows<{ member: string; amount: string }>(
    db,
    sql`select m.member_id::text as member, sum(m.amounts[t.level])::text as amount
        from referral_tree t join referral_member_rewards m on m.member_id = t.user_id
        where t.ancestor_id = ${referrerId}::uuid and m.amounts[t.level] is not null ${currency ? sql`and m.currency = ${currency}` : sql``}
        group by m.member_id`,
  );
  return new Map(found.map((r) => [r.member, BigInt(r.amount)]));
}
