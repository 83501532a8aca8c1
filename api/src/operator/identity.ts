// Named operators: enrolment, the console's sign-in (password and TOTP, RFC 6238 through otplib),
// short sessions, the command line's key and the fresh TOTP a sensitive action asks for.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { authenticator } from 'otplib';
import { apiMessages as M, OPERATOR_IDLE_MINUTES, operatorNameSchema, operatorPasswordSchema } from '@app/contracts';
import type { Db } from '../db/client';
import { audit } from '../db/audit';
import { operators, operatorSessions, users } from '../db/schema';
import { ApiError, unauthorized } from '../http/errors';
import type { PasswordHasher } from '../auth';

/** The operator a call acts as; audit entries name them. */
export type Operator = { id: string; name: string; totpSecret: string };
export const actorOf = (op: Pick<Operator, 'name'>) => `operator:${op.name}`;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const STEP_SECONDS = 30;
// One step either side: an authenticator's clock a little off still signs in.
authenticator.options = { step: STEP_SECONDS, window: 1, digits: 6 };

/** The time step a code matches (now ± one step), or null. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = authenticator.checkDelta(code, secret);
  return delta === null ? null : Math.floor(now / 1000 / STEP_SECONDS) + delta;
}

/** The code an authenticator shows now (tests and the local stack's own operator). */
export const totpNow = (secret: string) => authenticator.generate(secret);

export type Enrolled = { id: string; name: string; totpSecret: string; key: string };

/**
 * Makes `name` an operator: the account of `email` or `userId` (made, confirmed, when there is no
 * account of that e-mail) gets the operator role and the password; answers the TOTP secret for the authenticator app and the
 * command line's key, shown once (only the key's hash is kept).
 */
export async function enrolOperator(db: Db, hasher: PasswordHasher, input: { name: string; password: string } & ({ email: string } | { userId: string })): Promise<Enrolled> {
  const name = operatorNameSchema.parse(input.name);
  const password = operatorPasswordSchema.parse(input.password);
  const email = 'email' in input ? input.email.trim().toLowerCase() : null;
  const passwordHash = await hasher.hash(password);
  const totpSecret = authenticator.generateSecret(20);
  const key = randomBytes(32).toString('base64url');
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(email === null ? eq(users.id, (input as { userId: string }).userId) : eq(users.email, email));
    const now = new Date();
    const id = existing?.id ?? randomUUID();
    if (existing) await tx.update(users).set({ role: 'operator', passwordHash, updatedAt: now }).where(eq(users.id, id));
    else if (email === null) throw new Error(`no account ${(input as { userId: string }).userId}`);
    else {
      await tx.insert(users).values({ id, email, passwordHash, role: 'operator', emailConfirmedAt: now, referralCode: randomBytes(6).toString('base64url') });
    }
    await tx.insert(operators).values({ id, name, totpSecret, keyHash: sha256(key) });
    await audit(tx, { actor: 'enrolment', action: 'operator.enrol', target: actorOf({ name }), after: { name, user: id } });
    return { id, name, totpSecret, key };
  });
}

async function activeOperator(db: Db, where: ReturnType<typeof eq>) {
  const [op] = await db
    .select({ id: operators.id, name: operators.name, totpSecret: operators.totpSecret, keyHash: operators.keyHash, role: users.role, passwordHash: users.passwordHash })
    .from(operators)
    .innerJoin(users, eq(users.id, operators.id))
    .where(and(where, isNull(operators.disabledAt)));
  return op && op.role === 'operator' ? op : null;
}

/**
 * The console's sign-in: name, password and a TOTP code never used at sign-in before. Answers an
 * opaque token (its hash is kept) that ends after OPERATOR_IDLE_MINUTES without a call.
 */
export async function signInOperator(db: Db, hasher: PasswordHasher, input: { name: string; password: string; totp: string }) {
  const op = await activeOperator(db, eq(operators.name, input.name));
  const passwordOk = await hasher.verify(op?.passwordHash, input.password);
  const step = op ? totpStep(op.totpSecret, input.totp) : null;
  if (!op || !passwordOk || step === null) throw unauthorized(M.operatorSignInFailed, 'OPERATOR_SIGN_IN_FAILED');
  // A code seen once (over a shoulder, in a log) does not sign in again.
  const fresh = await db
    .update(operators)
    .set({ totpLastStep: step })
    .where(and(eq(operators.id, op.id), sql`coalesce(${operators.totpLastStep}, -1) < ${step}`))
    .returning({ id: operators.id });
  if (!fresh.length) throw unauthorized(M.operatorSignInFailed, 'OPERATOR_SIGN_IN_FAILED');
  const token = randomBytes(32).toString('base64url');
  await db.insert(operatorSessions).values({ tokenHash: sha256(token), operatorId: op.id });
  await audit(db, { actor: actorOf(op), action: 'operator.sign-in', target: actorOf(op) });
  return { token, name: op.name, idleMinutes: OPERATOR_IDLE_MINUTES };
}

/** The operator of a live session, whose idle clock restarts; null when it ended or idled out. */
export async function sessionOperator(db: Db, token: string, now = new Date()): Promise<Operator | null> {
  const idleSince = new Date(now.getTime() - OPERATOR_IDLE_MINUTES * 60_000);
  const [s] = await db
    .update(operatorSessions)
    .set({ lastSeenAt: now })
    .where(and(eq(operatorSessions.tokenHash, sha256(token)), isNull(operatorSessions.endedAt), gt(operatorSessions.lastSeenAt, idleSince)))
    .returning({ operatorId: operatorSessions.operatorId });
  if (!s) return null;
  const op = await activeOperator(db, eq(operators.id, s.operatorId));
  return op && { id: op.id, name: op.name, totpSecret: op.totpSecret };
}

export async function endOperatorSession(db: Db, token: string) {
  await db.update(operatorSessions).set({ endedAt: new Date() }).where(eq(operatorSessions.tokenHash, sha256(token)));
}

/** The command line's credential `<name>.<key>`: its operator, or null. */
export async function keyOperator(db: Db, credential: string): Promise<Operator | null> {
  const dot = credential.indexOf('.');
  if (dot < 1) return null;
  const name = credential.slice(0, dot);
  if (!operatorNameSchema.safeParse(name).success) return null;
  const op = await activeOperator(db, eq(operators.name, name));
  if (!op || !same(sha256(credential.slice(dot + 1)), op.keyHash)) return null;
  return { id: op.id, name: op.name, totpSecret: op.totpSecret };
}

/** A sensitive action's second factor: the operator's current TOTP code, or the action is refused. */
export function requireFreshTotp(op: Operator, code: string | undefined) {
  if (!code) throw new ApiError(401, M.operatorCodeRequired, 'OPERATOR_CODE_REQUIRED');
  if (totpStep(op.totpSecret, code) === null) throw new ApiError(401, M.operatorCodeWrong, 'OPERATOR_CODE_WRONG');
}
