import type { FastifyInstance } from 'fastify';
import { apiMessages as M, apiRoutes, SUPPORTED_CHAIN_ID } from '@app/contracts';
import {
  confirmEmail,
  connectWallet,
  endSession,
  mailApproval,
  mailRecovery,
  passwordLogin,
  recoverPassword,
  register,
  walletLogin,
} from '../accounts';
import { loginLockout } from '../auth';
import { afterReply } from '../background';
import { unauthorized } from '../http/errors';
import { langOf } from '../http/lang';
import { addRoute } from '../http/route';
import type { Services } from '../services';
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

export function authRoutes(app: FastifyInstance, s: Services) {
  const loginFailures = loginLockout(s);

  addRoute(
    app,
    apiRoutes.register,
    async ({ body, req, reply }) => signIn(s, req, reply, await register(s, req, langOf(req), body)),
    { rateLimit: limits.register },
  );

  addRoute(
    app,
    apiRoutes.login,
    async ({ body, req, reply }) => signIn(s, req, reply, await passwordLogin(s, loginFailures, clientKey(req), body)),
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
    async ({ body, req, reply }) => signIn(s, req, reply, await walletLogin(s, req, langOf(req), body)),
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
    await endSession(s, { authorization: req.headers.authorization, refreshToken: body?.refreshToken ?? req.cookies[REFRESH_COOKIE] });
    clearRefreshCookie(s, reply);
    return { message: M.loggedOut };
  });

  // Both answer at once and do the work afterwards: same answer, same time, account or not.
  addRoute(
    app,
    apiRoutes.sendApproveEmail,
    async ({ body, req, reply }) => {
      s.background.run('approve mail', () => mailApproval(s, req, body.login), afterReply(reply));
      return { message: M.approveSent };
    },
    { rateLimit: limits.mail },
  );

  addRoute(
    app,
    apiRoutes.sendPasswordRecovery,
    async ({ body, req, reply }) => {
      s.background.run('recovery mail', () => mailRecovery(s, req, body.login), afterReply(reply));
      return { message: M.recoverySent };
    },
    { rateLimit: limits.mail },
  );

  addRoute(
    app,
    apiRoutes.confirmLogin,
    async ({ body, req, reply }) => {
      const session = { authorization: req.headers.authorization, refreshToken: req.cookies[REFRESH_COOKIE] };
      return signIn(s, req, reply, await uniformTime(s, () => confirmEmail(s, session, body)));
    },
    { rateLimit: limits.code },
  );

  addRoute(
    app,
    apiRoutes.changePasswordByCode,
    async ({ body, req }) => uniformTime(s, () => recoverPassword(s, req, loginFailures, body)),
    { rateLimit: limits.code },
  );

  addRoute(
    app,
    apiRoutes.connectMm,
    async ({ body, req, auth }) => ({ message: M.metamaskLinked, user: toAuthUser(await connectWallet(s, req, auth, body)) }),
    { rateLimit: limits.wallet },
  );
}
