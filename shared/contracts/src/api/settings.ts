import * as z from 'zod/mini';
import * as M from './message-texts';
import { addressSchema, isoDateTime, newPasswordSchema, passwordSchema } from './common';
import { codeSchema as code, ownerProof, siweMessage, siweSignature as signature } from './owner-proof';
import { authUserSchema } from './session-routes';

/** The largest avatar accepted, decoded: the browser sends a 256 × 256 re-encoded square, far smaller. */
export const AVATAR_MAX_BYTES = 200_000;
/** Base64 of AVATAR_MAX_BYTES, rounded up. */
const AVATAR_MAX_BASE64 = Math.ceil(AVATAR_MAX_BYTES / 3) * 4;

export const avatarUploadBodySchema = z
  .object({
    /** The image's bytes in base64 (no data: prefix). Type is read from the content, not declared. */
    image: z
      .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required : M.avatarInvalid) })
      .check(z.minLength(1, M.required), z.maxLength(AVATAR_MAX_BASE64, M.avatarTooLarge), z.regex(/^[A-Za-z0-9+/]+={0,2}$/, M.avatarInvalid)),
  })
  .register(z.globalRegistry, { id: 'AvatarUploadBody' });
export type AvatarUploadBody = z.input<typeof avatarUploadBodySchema>;

export const avatarParamsSchema = z.object({ userId: z.string().check(z.regex(/^[0-9a-f-]{36}$/, M.notFound)) });


export const walletReplaceBodySchema = z
  .object({ metaMaskAddress: addressSchema, message: siweMessage, signature, ...ownerProof })
  .register(z.globalRegistry, { id: 'WalletReplaceBody' });
export type WalletReplaceBody = z.input<typeof walletReplaceBodySchema>;

export const walletUnlinkBodySchema = z.object({ ...ownerProof }).register(z.globalRegistry, { id: 'WalletUnlinkBody' });
export type WalletUnlinkBody = z.input<typeof walletUnlinkBodySchema>;

export const walletChangeResponseSchema = z
  .object({ message: z.string(), user: authUserSchema })
  .register(z.globalRegistry, { id: 'WalletChangeResponse' });
export type WalletChangeResponse = z.infer<typeof walletChangeResponseSchema>;

export const emailConfirmBodySchema = z.object({ code }).register(z.globalRegistry, { id: 'EmailConfirmBody' });
export type EmailConfirmBody = z.input<typeof emailConfirmBodySchema>;

/** The current password, or a code mailed to the proven address; every other session ends. */
export const passwordChangeBodySchema = z
  .object({
    currentPassword: z.optional(passwordSchema),
    code: z.optional(code),
    password: newPasswordSchema,
    /** Kept for older pages: the other sessions always end now. */
    signOutOthers: z.optional(z.boolean()),
  })
  .register(z.globalRegistry, { id: 'PasswordChangeBody' });
export type PasswordChangeBody = z.input<typeof passwordChangeBodySchema>;

export const sessionInfoSchema = z.object({
  id: z.string(),
  /** The browser's User-Agent as it sent it (cut to 300 characters). */
  userAgent: z.nullable(z.string()),
  ip: z.nullable(z.string()),
  createdAt: isoDateTime,
  lastUsedAt: isoDateTime,
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const sessionsResponseSchema = z.object({ items: z.array(sessionInfoSchema) }).register(z.globalRegistry, { id: 'Sessions' });
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

/**
 * Which mails about money the account wants: a deposit credited, a withdrawal paid or returned, a
 * reward claim paid, a withdrawal held after a change of a credential. Security notices (a changed
 * password, e-mail or wallet, codes) are always sent and have no switch.
 */
export const mailPreferencesSchema = z
  .object({
    depositCredited: z.boolean(),
    withdrawalPaid: z.boolean(),
    withdrawalReturned: z.boolean(),
    claimPaid: z.boolean(),
    withdrawalHeld: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'MailPreferences' });
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;
/** A change of some of them; the others stay as they are. */
export const mailPreferencesBodySchema = z.partial(mailPreferencesSchema);
export type MailPreferencesBody = z.input<typeof mailPreferencesBodySchema>;
