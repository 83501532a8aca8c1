import type { FastifyInstance } from 'fastify';
import { apiMessages as M, apiRoutes, avatarParamsSchema } from '@app/contracts';
import { readAvatar, saveAvatar } from '../avatars';
import { ApiError } from '../http/errors';
import { addRoute } from '../http/route';
import { toAuthUser } from './auth-helpers';
import type { Services } from '../services';
import {
  changePassword,
  confirmEmail,
  endOtherSessions,
  listSessions,
  mailOwnerCode,
  mailPreferencesOf,
  setMailPreferences,
  replaceWallet,
  toProfile,
  unlinkWallet,
} from '../settings';

/** Guessing a password or a code through these calls is as limited as through sign-in. */
const proofLimit = { max: 30, timeWindow: '15 minutes' };

export function settingsRoutes(app: FastifyInstance, s: Services) {
  addRoute(app, apiRoutes.settingsMail, async ({ auth }) => mailPreferencesOf(s.db, auth.user.id));
  addRoute(app, apiRoutes.settingsMailUpdate, async ({ body, auth }) => setMailPreferences(s.db, auth.user.id, body));

  addRoute(app, apiRoutes.settingsAvatar, async ({ body, auth }) => {
    const user = await saveAvatar(s.db, auth.user.id, body.image);
    s.sessions.forgetUser(auth.user.id);
    return toProfile(user);
  }, { rateLimit: { max: 30, timeWindow: '15 minutes' } });

  // An <img> sends no bearer token: avatars are public, like the greeting they sit in. The
  // address carries the version, so a browser may keep each image for good.
  app.get<{ Params: { userId: string } }>('/avatars/:userId', { schema: { hide: true } }, async (req, reply) => {
    const params = avatarParamsSchema.safeParse(req.params);
    const avatar = params.success ? await readAvatar(s.db, params.data.userId) : undefined;
    if (!avatar) throw new ApiError(404, M.notFound, 'NOT_FOUND');
    const etag = `"${avatar.updatedAt.getTime().toString(36)}"`;
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag).header('cross-origin-resource-policy', 'same-site');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(avatar.contentType).send(avatar.bytes);
  });

  addRoute(app, apiRoutes.settingsEmailConfirm, async ({ body, req, auth }) => toProfile(await confirmEmail(s, req, auth, body.code)), { rateLimit: proofLimit });

  addRoute(app, apiRoutes.settingsPassword, async ({ body, req, auth }) => {
    await changePassword(s, req, auth, body);
    return { message: M.passwordChanged };
  }, { rateLimit: proofLimit });

  addRoute(app, apiRoutes.settingsSessions, async ({ auth }) => ({ items: await listSessions(s, auth) }));

  addRoute(app, apiRoutes.settingsEndOtherSessions, async ({ auth }) => {
    await endOtherSessions(s, auth);
    return { message: M.otherSessionsEnded };
  });

  addRoute(app, apiRoutes.settingsOwnerCode, async ({ req, auth }) => {
    await mailOwnerCode(s, req, auth.user);
    return { message: M.walletCodeSent };
  }, { rateLimit: { max: 10, timeWindow: '15 minutes' } });

  addRoute(app, apiRoutes.settingsWalletReplace, async ({ body, req, auth }) => {
    const user = await replaceWallet(s, req, auth, body);
    return { message: M.walletReplaced, user: toAuthUser(user) };
  }, { rateLimit: proofLimit });

  addRoute(app, apiRoutes.settingsWalletUnlink, async ({ body, req, auth }) => {
    const user = await unlinkWallet(s, req, auth, body);
    return { message: M.walletUnlinked, user: toAuthUser(user) };
  }, { rateLimit: proofLimit });
}
