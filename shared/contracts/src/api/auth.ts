import * as z from 'zod';
import { apiMessages as M } from './messages';
import {
  addressSchema,
  emailSchema,
  isoDateTime,
  langSchema,
  newPasswordSchema,
  optionalAddressSchema,
  optionalString,
  passwordSchema,
  requiredString,
} from './common';

export const sessionLifetimes = { accessTokenSeconds: 1800, refreshTokenSeconds: 2592000 } as const;

/** The signed-in user as the auth state keeps it (spec §3). */
export const authUserSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    /** The e-mail; for an account made by wallet sign-in without e-mail, the wallet address. */
    login: z.string(),
    /** null until the e-mail is confirmed: such a user belongs on /registration-confirm. */
    role: z.string().nullable(),
    metaMaskAddress: z.string().nullable(),
  })
  .meta({ id: 'AuthUser' });
export type AuthUser = z.infer<typeof authUserSchema>;

export const authResponseSchema = z
  .object({
    user: authUserSchema,
    /** Access token (JWT, 1800 s), sent as `Authorization: Bearer`. */
    token: z.string(),
    /** Refresh token (absolute life 2592000 s, rotated by /refresh). Also set as an HttpOnly cookie. */
    refreshToken: z.string(),
  })
  .meta({ id: 'AuthResponse' });
export type AuthResponse = z.infer<typeof authResponseSchema>;

const source = optionalString(200);
const siweMessage = requiredString(4096, M.siweInvalid).meta({ description: 'The EIP-4361 message the wallet signed' });
const signature = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required : M.siweSignature) })
  .regex(/^0x[0-9a-fA-F]{130}$/, M.siweSignature)
  .meta({ description: '65-byte personal_sign signature, hex' });

/** A SIWE proof: both parts or neither. */
const siweProof = { message: siweMessage, signature };

export const registerBodySchema = z
  .object({
    login: emailSchema,
    password: newPasswordSchema,
    /** Links the wallet when given together with a SIWE message and signature by it. */
    metaMaskAddress: optionalAddressSchema,
    message: siweMessage.optional(),
    signature: signature.optional(),
    source,
    invite: optionalString(64),
    lang: langSchema.optional(),
  })
  .meta({ id: 'RegisterBody' });
export type RegisterBody = z.input<typeof registerBodySchema>;

export const loginBodySchema = z
  .object({ login: emailSchema, password: passwordSchema, lang: langSchema.optional() })
  .meta({ id: 'LoginBody' });
export type LoginBody = z.input<typeof loginBodySchema>;

export const siweNonceResponseSchema = z
  .object({
    nonce: z.string(),
    issuedAt: isoDateTime,
    expiresAt: isoDateTime,
    /** The only chain the message may name. */
    chainId: z.literal(1),
  })
  .meta({ id: 'SiweNonce' });
export type SiweNonceResponse = z.infer<typeof siweNonceResponseSchema>;

export const loginV2BodySchema = z
  .object({
    invite: optionalString(64),
    metaMaskAddress: addressSchema,
    source,
    lang: langSchema.optional(),
    ...siweProof,
  })
  .meta({ id: 'LoginV2Body' });
export type LoginV2Body = z.input<typeof loginV2BodySchema>;

export const connectMmBodySchema = z
  .object({ id: requiredString(64), metaMaskAddress: addressSchema, ...siweProof })
  .meta({ id: 'ConnectMmBody' });
export type ConnectMmBody = z.input<typeof connectMmBodySchema>;

export const connectMmResponseSchema = z
  .object({ message: z.string(), user: authUserSchema })
  .meta({ id: 'ConnectMmResponse' });
export type ConnectMmResponse = z.infer<typeof connectMmResponseSchema>;

export const refreshBodySchema = z
  .object({ refreshToken: z.string({ error: M.invalidValue }).max(200, M.invalidValue).optional() })
  .meta({ id: 'RefreshBody' })
  // The browser sends no body: the token comes from the cookie.
  .optional();
export type RefreshBody = z.input<typeof refreshBodySchema>;

export const logoutBodySchema = refreshBodySchema;

export const loginOnlyBodySchema = z
  .object({ login: emailSchema, lang: langSchema.optional() })
  .meta({ id: 'LoginOnlyBody' });
export type LoginOnlyBody = z.input<typeof loginOnlyBodySchema>;

const codeSchema = requiredString(32, M.invalidCode).meta({ description: 'The code from the e-mail' });

export const confirmLoginBodySchema = z
  .object({ login: emailSchema, code: codeSchema })
  .meta({ id: 'ConfirmLoginBody' });
export type ConfirmLoginBody = z.input<typeof confirmLoginBodySchema>;

export const changePasswordByCodeBodySchema = z
  .object({ login: emailSchema, password: newPasswordSchema, code: codeSchema })
  .meta({ id: 'ChangePasswordByCodeBody' });
export type ChangePasswordByCodeBody = z.input<typeof changePasswordByCodeBodySchema>;
