import type { FastifyInstance } from 'fastify';
import { apiRoutes } from '@app/contracts';
import { addRoute } from '../http/route';
import type { Services } from '../services';
import { toProfile, updateProfile } from '../settings';

export function profileRoutes(app: FastifyInstance, s: Services) {
  // The user row was loaded with the session check: reading the profile costs no query.
  addRoute(app, apiRoutes.profile, async ({ auth }) => toProfile(auth.user), { allowUnconfirmed: true });

  addRoute(app, apiRoutes.userUpdate, async ({ body, req, auth }) => toProfile(await updateProfile(s, req, auth.user, body)));
}
