import { randomUUID, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { apiMessages as M, apiRoutes, SUPPORTED_CHAIN_ID } from '@app/contracts';
import { loginLockout, requestHost, type UserRow } from '../auth';
import { afterReply } from '../background';
import { uniqueViolation } from '../db/errors';
import { users } from '../db/schema';
import { ApiError, badRequest, unauthorized } from '../http/errors';
import { langOf } from '../http/lang';
import { addRoute } from '../http/route';
import type { Services } from '../services';
import { mailContext } from '../mail';
import { heldUntil, holdSet, linkFirstWallet } from '../settings';
import { clientKey } from '../http/client-key';
import {
  REFRESH_COOKIE,
  answerWithTokens,
  clearRefreshCookie,
  signIn,
  toAuthUser,
  uniformTime,
} from './auth-helpers';

/** Per-IP limits (per window, before RATE_LIMIT_MULTIPLIER). Per-account limits live in the database. */
const limits = {
  login: { max: 30, timeWindow: '15 minutes' },
  register: { max: 10, timeWindow: '1 hour' },
  nonce: { max: 60, timeWindow: '1 minute' },
  wallet: { max: 30, timeWindow: '15 minutes' },
  mail: { max: 5, timeWindow: '15 minutes' },
  code: { max: 20, timeWindow: '15 minutes' },
  refresh: { max: 120, timeWindow: '15 minutes' },
} as const;

/** Mails to one address per hour, whatever the IP: stops using the site to flood a mailbox. */
const MAILS_PER_ADDRESS_PER_HOUR = 5;

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

export function authRoutes(app: FastifyInstance, s: Services) {
  const loginFailures = loginLockout(s);

  /** Whether the request carries a live session of this user (bearer token or refresh cookie). */
  async function holdsSessionOf(req: FastifyRequest, userId: string): Promise<boolean> {
    const bearer = /^Bearer ([A-Za-z0-9._-]+)$/.exec(req.headers.authorization ?? '')?.[1];
    const claims = bearer ? await s.access.verify(bearer) : null;
    if (claims?.sub === userId && (await s.sessions.userOf(claims.sid, userId))) return true;
    const refresh = req.cookies[REFRESH_COOKIE];
    return Boolean(refresh && (await s.sessions.refreshTokenOf(refresh, userId)));
  }

  /**
   * Whoever proves control of the e-mail (approval or recovery code) owns the account outright:
   * every session ends, and a wallet linked while the e-mail was unproved is unlinked, so nothing
   * set up before the proof survives it. The account is confirmed by either code.
   */
  async function proveEmail(u: UserRow, opts: { keepPassword: boolean; passwordHash?: string }): Promise<UserRow> {
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
  const verifyWallet = (req: FastifyRequest, b: { message: string; signature: string; metaMaskAddress: string }) =>
    s.siwe.verify({ message: b.message, signature: b.signature, address: b.metaMaskAddress }, { host: requestHost(req) });

  /** Mails a fresh code unless this address already got too many this hour. */
  async function mailCode(req: FastifyRequest, user: UserRow, purpose: 'approve' | 'recovery') {
    if (!user.email) return;
    const sent = await s.counters.hit(`mail:${user.email}`, 3600);
    if (sent > MAILS_PER_ADDRESS_PER_HOUR * s.config.rateLimit.multiplier) return;
    const code = await s.codes.issue(user.id, purpose, user.email);
    const path = purpose === 'approve' ? '/registration-confirm' : '/password-recovery';
    const lang = user.lang === 'ru' ? 'ru' : 'en';
    await s.mailer.send(user.email, lang, purpose, { ...mailContext(s, req, lang, path), code });
  }

  addRoute(
    app,
    apiRoutes.register,
    async ({ body, req, reply }) => {
      const lang = langOf(req);
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
      await mailCode(req, user, 'approve');
      return signIn(s, req, reply, user);
    },
    { rateLimit: limits.register },
  );

  addRoute(
    app,
    apiRoutes.login,
    async ({ body, req, reply }) => {
      // A try is counted before the password is checked, in one atomic statement per counter, so
      // parallel attempts cannot all slip under the cap. Counted for unknown e-mails too, so the
      // lock-out says nothing about who has an account.
      const failures = await loginFailures.take(body.login, clientKey(req));
      if (!failures) throw new ApiError(429, M.tooManyAttempts, 'TOO_MANY_ATTEMPTS');
      const user = await userByEmail(s, body.login);
      const ok = await s.hasher.verify(user?.passwordHash, body.password);
      if (!user || !ok) throw badRequest(M.invalidLogin, 'INVALID_LOGIN');
      await failures.forgive();
      return signIn(s, req, reply, user);
    },
    { rateLimit: limits.login },
  );

  addRoute(
    app,
    apiRoutes.siweNonce,
    async ({ reply }) => {
      const n = await s.siwe.issueNonce();
      reply.header('cache-control', 'no-store');
      return { nonce: n.nonce, issuedAt: n.issuedAt.toISOString(), expiresAt: n.expiresAt.toISOString(), chainId: SUPPORTED_CHAIN_ID };
    },
    { rateLimit: limits.nonce },
  );

  addRoute(
    app,
    apiRoutes.loginV2,
    async ({ body, req, reply }) => {
      const wallet = await verifyWallet(req, body);
      const [existing] = await s.db.select().from(users).where(eq(users.walletAddress, wallet));
      if (existing) return signIn(s, req, reply, existing);
      if (!body.invite) throw new ApiError(404, M.walletNotRegistered, 'WALLET_NOT_REGISTERED');
      const referrerId = await referrerOf(s, body.invite);
      let user: UserRow;
      try {
        // The signature proved the wallet, which is this account's only credential: fully registered.
        user = await insertUser(s, { walletAddress: wallet, role: 'user', lang: langOf(req), source: body.source ?? null, referrerId });
      } catch (err) {
        // Two first sign-ins of one wallet at once: the other one made the account.
        if (uniqueViolation(err) !== 'users_wallet_key') throw err;
        const [u] = await s.db.select().from(users).where(eq(users.walletAddress, wallet));
        if (!u) throw err;
        user = u;
      }
      return signIn(s, req, reply, user);
    },
    { rateLimit: limits.wallet },
  );

  addRoute(
    app,
    apiRoutes.refresh,
    async ({ body, req, reply }) => {
      const token = body?.refreshToken ?? req.cookies[REFRESH_COOKIE];
      if (!token) throw unauthorized(M.sessionExpired, 'NO_REFRESH_TOKEN');
      const result = await s.sessions.rotate(token);
      if (!result.ok) {
        clearRefreshCookie(s, reply);
        if (result.reason === 'reused') req.log.warn('refresh token reused: session family revoked');
        throw unauthorized(M.sessionExpired, result.reason === 'reused' ? 'REFRESH_TOKEN_REUSED' : 'SESSION_ENDED');
      }
      return answerWithTokens(s, reply, result.user, result.tokens);
    },
    { rateLimit: limits.refresh },
  );

  addRoute(app, apiRoutes.logout, async ({ body, req, reply }) => {
    // Whatever identifies the session ends it: the bearer token, or the refresh token.
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const claims = bearer ? await s.access.verify(bearer) : null;
    const refresh = body?.refreshToken ?? req.cookies[REFRESH_COOKIE];
    const sessionId = claims?.sid ?? (refresh ? await s.sessions.sessionOfRefreshToken(refresh) : undefined);
    if (sessionId) await s.sessions.revoke(sessionId, 'logout');
    clearRefreshCookie(s, reply);
    return { message: M.loggedOut };
  });

  // Both answer at once and do the work afterwards: same answer, same time, account or not.
  addRoute(
    app,
    apiRoutes.sendApproveEmail,
    async ({ body, req, reply }) => {
      s.background.run(
        'approve mail',
        async () => {
          const user = await userByEmail(s, body.login);
          if (user && !user.role) await mailCode(req, user, 'approve');
        },
        afterReply(reply),
      );
      return { message: M.approveSent };
    },
    { rateLimit: limits.mail },
  );

  addRoute(
    app,
    apiRoutes.sendPasswordRecovery,
    async ({ body, req, reply }) => {
      s.background.run(
        'recovery mail',
        async () => {
          const user = await userByEmail(s, body.login);
          if (user) await mailCode(req, user, 'recovery');
        },
        afterReply(reply),
      );
      return { message: M.recoverySent };
    },
    { rateLimit: limits.mail },
  );

  addRoute(
    app,
    apiRoutes.confirmLogin,
    async ({ body, req, reply }) => {
      const user = await uniformTime(s, async () => {
        const u = await userByEmail(s, body.login);
        if (!u || !(await s.codes.consume(u.id, 'approve', body.code, body.login))) {
          throw badRequest(M.invalidCode, 'INVALID_CODE', { code: M.invalidCode });
        }
        // The password was chosen before anyone proved the e-mail. It survives only when the code
        // comes from the browser that registered (it holds that account's session); otherwise the
        // e-mail's owner signs in here and sets a password later by recovery.
        const registrant = await holdsSessionOf(req, u.id);
        return proveEmail(u, { keepPassword: registrant });
      });
      return signIn(s, req, reply, user);
    },
    { rateLimit: limits.code },
  );

  addRoute(
    app,
    apiRoutes.changePasswordByCode,
    async ({ body, req }) =>
      uniformTime(s, async () => {
        const user = await userByEmail(s, body.login);
        if (!user || !(await s.codes.consume(user.id, 'recovery', body.code, body.login))) {
          throw badRequest(M.invalidCode, 'INVALID_CODE', { code: M.invalidCode });
        }
        const passwordHash = await s.hasher.hash(body.password);
        const proved = await proveEmail(user, { keepPassword: false, passwordHash });
        await loginFailures.clear(body.login);
        if (user.email) {
          const lang = user.lang === 'ru' ? 'ru' : 'en';
          await s.mailer.send(user.email, lang, 'password-changed', { ...mailContext(s, req, lang, '/password-recovery'), heldUntil: heldUntil(proved) ?? undefined });
        }
        return { message: M.passwordChanged };
      }),
    { rateLimit: limits.code },
  );

  addRoute(
    app,
    apiRoutes.connectMm,
    async ({ body, req, auth }) => {
      if (body.id !== auth.user.id) throw new ApiError(403, M.forbidden, 'FORBIDDEN');
      // The proof comes first: only the wallet's owner learns whether it is linked elsewhere.
      const wallet = await verifyWallet(req, body);
      if (auth.user.walletAddress === wallet) return { message: M.metamaskLinked, user: toAuthUser(auth.user) };
      if (auth.user.walletAddress) throw new ApiError(409, M.walletAlreadyLinked, 'WALLET_ALREADY_LINKED');
      // On an account that holds money or rewards the first wallet decides where that money goes:
      // the owner's proof, the hold and the notice apply as to a replacement.
      const guarded = await linkFirstWallet(s, req, auth, wallet, body);
      if (guarded) return { message: M.metamaskLinked, user: toAuthUser(guarded) };
      try {
        const [u] = await s.db
          .update(users)
          .set({ walletAddress: wallet, updatedAt: new Date() })
          .where(and(eq(users.id, auth.user.id), isNull(users.walletAddress)))
          .returning();
        if (!u) throw new ApiError(409, M.walletAlreadyLinked, 'WALLET_ALREADY_LINKED');
        s.sessions.forgetUser(u.id);
        return { message: M.metamaskLinked, user: toAuthUser(u) };
      } catch (err) {
        if (uniqueViolation(err) === 'users_wallet_key') {
          throw new ApiError(409, M.walletTaken, 'WALLET_TAKEN', { metaMaskAddress: M.walletTaken });
        }
        throw err;
      }
    },
    { rateLimit: limits.wallet },
  );
}
