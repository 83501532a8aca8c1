import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '@app/contracts';
import { addRoute } from '../http/route';
import type { Services } from '../services';
import { toProfile, updateProfile } from '../settings/account';

export function profileRoutes(app: FastifyInstance, s: Services) {
  // The user row was loaded with the session check; only an avatar (kept out of the session cache) costs a query.
  addRoute(
    app,
    apiRoutes.profile,
    async ({ auth }) => {
      const { hasAvatar, ...user } = auth.user;
      const [row] = hasAvatar ? await s.db.select({ avatar: users.avatar }).from(users).where(eq(users.id, user.id)) : [];
      return toProfile({ ...user, avatar: row?.avatar ?? null });
    },
    { allowUnconfirmed: true },
  );

  addRoute(app, apiRoutes.userUpdate, async ({ body, req, auth }) => toProfile(await updateProfile(s, req, auth.user, body)));
}
