import { messageResponseSchema } from './common';
import { authResponseSchema, logoutBodySchema, refreshBodySchema } from './auth';

/** Base path of every call (spec §7). */
export const apiBasePath = '/api/v1';

/**
 * The calls a page makes as it starts (restoring the session) or ends one. They are kept apart
 * from the other calls so browsers load their schemas with the page, and the rest only when a
 * screen first calls the API.
 */
export const sessionRoutes = {
  logout: { method: 'POST', path: '/logout', auth: false, summary: 'End the session', body: logoutBodySchema, response: messageResponseSchema },
  refresh: { method: 'POST', path: '/refresh', auth: false, summary: 'Rotate the refresh token (body or cookie) for new tokens', body: refreshBodySchema, response: authResponseSchema },
} as const;
