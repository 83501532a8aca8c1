// Accounts: creating one (by e-mail or by a wallet's first sign-in), the invite rule, the proof of
// the e-mail by a mailed code, signing in by password, and linking the first wallet. The routes
// in routes/auth.ts validate, call one of these and answer with the session.
import { randomUUID, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { apiMessages as M } from '@app/contracts';
import { requestHost, type loginLockout, type SessionUser, type UserRow } from '../auth';
import { uniqueViolation } from '../db/errors';
import { users } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import type { AuthInfo } from '../http/route';
import { mailContext } from '../mail';
import type { Services } from '../services';
import { heldUntil, holdSet, linkFirstWallet } from '../settings';

/** Mails to one address per hour, whatever the IP: stops using the site to flood a mailbox. */
const MAILS_PER_ADDRESS_PER_HOUR = 5;

/** The login lock-out's counters, made once per server. */
export type LoginLockout = ReturnType<typeof loginLockout>;

/** A SIWE proof as the bodies carry it. */
type WalletProof = { message: string; signature: string; metaMaskAddress: string };

const newReferralCode = () => randomBytes(6).toString('base64url');

async function userByEmail(s: Services, email: string): Promise<UserRow | undefined> {
  const [u] = await s.db.select().from(users).where(eq(users.email, email));
  return u;
}

async function referrerOf(s: Services, invite: string | undefined): Promise<string | null> {
  if (!invite) return null;
  // Only a confirmed account invites; the database refuses any other referrer as well (migration 0009).
  const [ref] = await s.db.select({ id: users.id }).from(users).where(and(eq(users.referralCode, invite), isNotNull(users.role)));
  if (!ref) throw badRequest(M.invalidInvite, 'INVALID_INVITE', { invite: M.invalidInvite });
  return ref.id;
}

/** Inserts a user, retrying on the (unlikely) clash of a random referral code. */
async function insertUser(s: Services, values: Omit<typeof users.$inferInsert, 'id' | 'referralCode'>): Promise<UserRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [u] = await s.db
        .insert(users)
        .values({ ...values, id: randomUUID(), referralCode: newReferralCode() })
        .returning();
      return u as UserRow;
    } catch (err) {
      if (uniqueViolation(err) === 'users_referral_code_key' && attempt < 3) continue;
      throw err;
    }
  }
}

/** Whether the request carries a live session of this user (bearer token or refresh token). */
async function holdsSessionOf(s: Services, session: SessionHeld, userId: string): Promise<boolean> {
  const bearer = /^Bearer ([A-Za-z0-9._-]+)$/.exec(session.authorization ?? '')?.[1];
  const claims = bearer ? await s.access.verify(bearer) : null;
  if (claims?.sub === userId && (await s.sessions.userOf(claims.sid, userId))) return true;
  return Boolean(session.refreshToken && (await s.sessions.refreshTokenOf(session.refreshToken, userId)));
}

/** What a request may hold of a session: its Authorization header and its refresh token. */
export type SessionHeld = { authorization?: string; refreshToken?: string };

/**
 * Whoever proves control of the e-mail (approval or recovery code) owns the account outright:
 * every session ends, and a wallet linked while the e-mail was unproved is unlinked, so nothing
 * set up before the proof survives it. The account is confirmed by either code.
 */
async function proveEmail(s: Services, u: UserRow, opts: { keepPassword: boolean; passwordHash?: string }): Promise<UserRow> {
  const wasConfirmed = Boolean(u.role && u.emailConfirmedAt);
  const [proved] = await s.db
    .update(users)
    .set({
      role: u.role ?? 'user',
      emailConfirmedAt: u.emailConfirmedAt ?? new Date(),
      ...(wasConfirmed ? {} : { walletAddress: null }),
      // A new password by recovery is a change of the password: payouts wait as after the settings' change.
      ...(opts.passwordHash ? { passwordHash: opts.passwordHash, ...holdSet(s) } : opts.keepPassword ? {} : { passwordHash: null }),
      updatedAt: new Date(),
    })
    .where(eq(users.id, u.id))
    .returning();
  await s.sessions.revokeAllOfUser(u.id, 'e-mail proved');
  return proved as UserRow;
}

/** The SIWE proof of a body: answers the verified, lower-cased address. */
const verifyWallet = (s: Services, req: FastifyRequest, b: WalletProof) =>
  s.siwe.verify({ message: b.message, signature: b.signature, address: b.metaMaskAddress }, { host: requestHost(req) });

/** Mails a fresh code unless this address already got too many this hour. */
async function mailCode(s: Services, req: FastifyRequest, user: UserRow, purpose: 'approve' | 'recovery') {
  if (!user.email) return;
  const sent = await s.counters.hit(`mail:${user.email}`, 3600);
  if (sent > MAILS_PER_ADDRESS_PER_HOUR * s.config.rateLimit.multiplier) return;
  const code = await s.codes.issue(user.id, purpose, user.email);
  const path = purpose === 'approve' ? '/registration-confirm' : '/password-recovery';
  const lang = user.lang === 'ru' ? 'ru' : 'en';
  await s.mailer.send(user.email, lang, purpose, { ...mailContext(s, req, lang, path), code });
}

/** Creates an account by e-mail and password and mails the approval code. */
export async function register(
  s: Services,
  req: FastifyRequest,
  lang: 'en' | 'ru',
  body: { login: string; password: string; metaMaskAddress?: string; source?: string | null; invite?: string },
): Promise<UserRow> {
  if (body.metaMaskAddress) {
    // A wallet is linked only to a confirmed account (/connect-mm after the code): whoever
    // registers an e-mail has not proved it is theirs, so nothing may hang on that account yet.
    throw badRequest(M.walletAfterConfirm, 'WALLET_AFTER_CONFIRM', { metaMaskAddress: M.walletAfterConfirm });
  }
  const referrerId = await referrerOf(s, body.invite);
  // Hash before looking at the table, so a taken e-mail answers in the same time as a free one.
  const passwordHash = await s.hasher.hash(body.password);
  let user: UserRow;
  try {
    user = await insertUser(s, {
      email: body.login,
      passwordHash,
      lang,
      source: body.source ?? null,
      referrerId,
    });
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint === 'users_email_key') throw badRequest(M.incorrectLogin, 'INCORRECT_LOGIN', { login: M.incorrectLogin });
    throw err;
  }
  await mailCode(s, req, user, 'approve');
  return user;
}

/** The account of an e-mail and password, counting the try against the lock-out before the password is checked. */
export async function passwordLogin(s: Services, lockout: LoginLockout, clientKey: string, body: { login: string; password: string }): Promise<UserRow> {
  // A try is counted before the password is checked, in one atomic statement per counter, so
  // parallel attempts cannot all slip under the cap. Counted for unknown e-mails too, so the
  // lock-out says nothing about who has an account.
  const failures = await lockout.take(body.login, clientKey);
  if (!failures) throw new ApiError(429, M.tooManyAttempts, 'TOO_MANY_ATTEMPTS');
  const user = await userByEmail(s, body.login);
  const ok = await s.hasher.verify(user?.passwordHash, body.password);
  if (!user || !ok) throw badRequest(M.invalidLogin, 'INVALID_LOGIN');
  await failures.forgive();
  return user;
}

/** The account of a proved wallet; a wallet not yet known signs up when it brings an invite. */
export async function walletLogin(
  s: Services,
  req: FastifyRequest,
  lang: 'en' | 'ru',
  body: WalletProof & { invite?: string; source?: string | null },
): Promise<UserRow> {
  const wallet = await verifyWallet(s, req, body);
  const [existing] = await s.db.select().from(users).where(eq(users.walletAddress, wallet));
  if (existing) return existing;
  if (!body.invite) throw new ApiError(404, M.walletNotRegistered, 'WALLET_NOT_REGISTERED');
  const referrerId = await referrerOf(s, body.invite);
  try {
    // The signature proved the wallet, which is this account's only credential: fully registered.
    return await insertUser(s, { walletAddress: wallet, role: 'user', lang, source: body.source ?? null, referrerId });
  } catch (err) {
    // Two first sign-ins of one wallet at once: the other one made the account.
    if (uniqueViolation(err) !== 'users_wallet_key') throw err;
    const [u] = await s.db.select().from(users).where(eq(users.walletAddress, wallet));
    if (!u) throw err;
    return u;
  }
}

/** Mails the approval code to an account not yet confirmed; nothing for another address. */
export async function mailApproval(s: Services, req: FastifyRequest, login: string) {
  const user = await userByEmail(s, login);
  if (user && !user.role) await mailCode(s, req, user, 'approve');
}

/** Mails the recovery code to an account; nothing for an unknown address. */
export async function mailRecovery(s: Services, req: FastifyRequest, login: string) {
  const user = await userByEmail(s, login);
  if (user) await mailCode(s, req, user, 'recovery');
}

/** Proves the e-mail with the approval code: answers the account, now confirmed. */
export async function confirmEmail(s: Services, session: SessionHeld, body: { login: string; code: string }): Promise<UserRow> {
  const u = await userByEmail(s, body.login);
  if (!u || !(await s.codes.consume(u.id, 'approve', body.code, body.login))) {
    throw badRequest(M.invalidCode, 'INVALID_CODE', { code: M.invalidCode });
  }
  // The password was chosen before anyone proved the e-mail. It survives only when the code
  // comes from the browser that registered (it holds that account's session); otherwise the
  // e-mail's owner signs in here and sets a password later by recovery.
  const registrant = await holdsSessionOf(s, session, u.id);
  return proveEmail(s, u, { keepPassword: registrant });
}

/** Sets a new password with the recovery code (which proves the e-mail too) and tells the address. */
export async function recoverPassword(s: Services, req: FastifyRequest, lockout: LoginLockout, body: { login: string; password: string; code: string }) {
  const user = await userByEmail(s, body.login);
  if (!user || !(await s.codes.consume(user.id, 'recovery', body.code, body.login))) {
    throw badRequest(M.invalidCode, 'INVALID_CODE', { code: M.invalidCode });
  }
  const passwordHash = await s.hasher.hash(body.password);
  const proved = await proveEmail(s, user, { keepPassword: false, passwordHash });
  await lockout.clear(body.login);
  if (user.email) {
    const lang = user.lang === 'ru' ? 'ru' : 'en';
    await s.mailer.send(user.email, lang, 'password-changed', { ...mailContext(s, req, lang, '/password-recovery'), heldUntil: heldUntil(proved) ?? undefined });
  }
  return { message: M.passwordChanged };
}

/** Links a proved wallet to the signed-in account: answers the account as it now is. */
export async function connectWallet(
  s: Services,
  req: FastifyRequest,
  auth: AuthInfo,
  body: WalletProof & { id: string } & Parameters<typeof linkFirstWallet>[4],
): Promise<SessionUser> {
  if (body.id !== auth.user.id) throw new ApiError(403, M.forbidden, 'FORBIDDEN');
  // The proof comes first: only the wallet's owner learns whether it is linked elsewhere.
  const wallet = await verifyWallet(s, req, body);
  if (auth.user.walletAddress === wallet) return auth.user;
  if (auth.user.walletAddress) throw new ApiError(409, M.walletAlreadyLinked, 'WALLET_ALREADY_LINKED');
  // On an account that holds money or rewards the first wallet decides where that money goes:
  // the owner's proof, the hold and the notice apply as to a replacement.
  const guarded = await linkFirstWallet(s, req, auth, wallet, body);
  if (guarded) return guarded;
  try {
    const [u] = await s.db
      .update(users)
      .set({ walletAddress: wallet, updatedAt: new Date() })
      .where(and(eq(users.id, auth.user.id), isNull(users.walletAddress)))
      .returning();
    if (!u) throw new ApiError(409, M.walletAlreadyLinked, 'WALLET_ALREADY_LINKED');
    s.sessions.forgetUser(u.id);
    return u;
  } catch (err) {
    if (uniqueViolation(err) === 'users_wallet_key') {
      throw new ApiError(409, M.walletTaken, 'WALLET_TAKEN', { metaMaskAddress: M.walletTaken });
    }
    throw err;
  }
}

/** Ends the session that the bearer token, or else the refresh token, identifies. */
export async function endSession(s: Services, session: SessionHeld) {
  // Whatever identifies the session ends it: the bearer token, or the refresh token.
  const bearer = /^Bearer (.+)$/i.exec(session.authorization ?? '')?.[1];
  const claims = bearer ? await s.access.verify(bearer) : null;
  const sessionId = claims?.sid ?? (session.refreshToken ? await s.sessions.sessionOfRefreshToken(session.refreshToken) : undefined);
  if (sessionId) await s.sessions.revoke(sessionId, 'logout');
}
