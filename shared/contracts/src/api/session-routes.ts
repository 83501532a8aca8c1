import * as z from 'zod/mini';
import * as M from './message-texts';

export { apiBasePath, sessionLifetimes, sessionMarkerCookie } from './session-constants';

// The schemas of the session calls live here rather than in auth.ts and common.ts, so that a
// page's first load carries only these (see sessionRoutes).

/** The signed-in user as the auth state keeps it (spec §3). */
export const authUserSchema = z
  .object({
    id: z.string(),
    name: z.nullable(z.string()),
    /** The e-mail; for an account made by wallet sign-in without e-mail, the wallet address. */
    login: z.string(),
    /** null until the e-mail is confirmed: such a user belongs on /registration-confirm. */
    role: z.nullable(z.string()),
    metaMaskAddress: z.nullable(z.string()),
    /** Address of the avatar image; absent or null without one. */
    avatar: z.optional(z.nullable(z.string())),
    /**
     * Language and theme the person saved in the settings (null until then), applied when signing
     * in on another device.
     */
    preferences: z.optional(z.nullable(z.object({ lang: z.enum(['en', 'ru']), theme: z.enum(['light', 'dark', 'system']) }))),
  })
  .register(z.globalRegistry, { id: 'AuthUser' });
export type AuthUser = z.infer<typeof authUserSchema>;

export const authResponseSchema = z
  .object({
    user: authUserSchema,
    /** Access token (JWT, lives `sessionLifetimes.accessTokenSeconds`), sent as `Authorization: Bearer`. */
    token: z.string(),
    /** Refresh token (absolute life `sessionLifetimes.refreshTokenSeconds`, rotated by /refresh). Also set as an HttpOnly cookie. */
    refreshToken: z.string(),
  })
  .register(z.globalRegistry, { id: 'AuthResponse' });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const refreshBodySchema = z.optional(
  z
    .object({ refreshToken: z.optional(z.string({ error: M.invalidValue }).check(z.maxLength(200, M.invalidValue))) })
    .register(z.globalRegistry, { id: 'RefreshBody' }),
);
export type RefreshBody = z.input<typeof refreshBodySchema>;

export const logoutBodySchema = refreshBodySchema;

/** Every error answer. `fields` maps a request field to the first problem found in it. */
export const errorResponseSchema = z
  .object({
    message: z.string(),
    code: z.optional(z.string()),
    fields: z.optional(z.record(z.string(), z.string())),
  })
  .register(z.globalRegistry, { id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** A plain confirmation, e.g. after a mail was sent. */
export const messageResponseSchema = z.object({ message: z.string() }).register(z.globalRegistry, { id: 'MessageResponse' });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/**
 * The calls a page makes as it starts (restoring the session) or ends one. They are kept apart
 * from the other calls so a signed-in page loads their schemas with its first chunks, and the
 * rest only when a screen first calls the API.
 */
export const sessionRoutes = {
  logout: { method: 'POST', path: '/logout', auth: false, summary: 'End the session', body: logoutBodySchema, response: messageResponseSchema },
  refresh: { method: 'POST', path: '/refresh', auth: false, summary: 'Rotate the refresh token (body or cookie) for new tokens', body: refreshBodySchema, response: authResponseSchema },
} as const;
