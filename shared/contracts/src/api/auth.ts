import * as z from 'zod/mini';
import { SUPPORTED_CHAIN_ID } from '../domain';
import * as M from './message-texts';
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
import { ownerProof } from './owner-proof';
import { authUserSchema } from './session-routes';

export {
  authResponseSchema,
  authUserSchema,
  logoutBodySchema,
  refreshBodySchema,
  sessionLifetimes,
  type AuthResponse,
  type AuthUser,
  type RefreshBody,
} from './session-routes';


const source = optionalString(200);
const siweMessage = requiredString(4096, M.siweInvalid).register(z.globalRegistry, { description: 'The EIP-4361 message the wallet signed' });
const signature = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required : M.siweSignature) })
  .check(z.regex(/^0x[0-9a-fA-F]{130}$/, M.siweSignature))
  .register(z.globalRegistry, { description: '65-byte personal_sign signature, hex' });

/** A SIWE proof: both parts or neither. */
const siweProof = { message: siweMessage, signature };

export const registerBodySchema = z
  .object({
    login: emailSchema,
    password: newPasswordSchema,
    /** Links the wallet when given together with a SIWE message and signature by it. */
    metaMaskAddress: optionalAddressSchema,
    message: z.optional(siweMessage),
    signature: z.optional(signature),
    source,
    invite: optionalString(64),
    lang: z.optional(langSchema),
  })
  .register(z.globalRegistry, { id: 'RegisterBody' });
export type RegisterBody = z.input<typeof registerBodySchema>;

export const loginBodySchema = z
  .object({ login: emailSchema, password: passwordSchema, lang: z.optional(langSchema) })
  .register(z.globalRegistry, { id: 'LoginBody' });
export type LoginBody = z.input<typeof loginBodySchema>;

export const siweNonceResponseSchema = z
  .object({
    nonce: z.string(),
    issuedAt: isoDateTime,
    expiresAt: isoDateTime,
    /** The only chain the message may name. */
    chainId: z.literal(SUPPORTED_CHAIN_ID),
  })
  .register(z.globalRegistry, { id: 'SiweNonce' });
export type SiweNonceResponse = z.infer<typeof siweNonceResponseSchema>;

export const loginV2BodySchema = z
  .object({
    invite: optionalString(64),
    metaMaskAddress: addressSchema,
    source,
    lang: z.optional(langSchema),
    ...siweProof,
  })
  .register(z.globalRegistry, { id: 'LoginV2Body' });
export type LoginV2Body = z.input<typeof loginV2BodySchema>;

/** The owner's proof is needed only when the account already holds money or rewards. */
export const connectMmBodySchema = z
  .object({ id: requiredString(64), metaMaskAddress: addressSchema, ...siweProof, ...ownerProof })
  .register(z.globalRegistry, { id: 'ConnectMmBody' });
export type ConnectMmBody = z.input<typeof connectMmBodySchema>;

export const connectMmResponseSchema = z
  .object({ message: z.string(), user: authUserSchema })
  .register(z.globalRegistry, { id: 'ConnectMmResponse' });
export type ConnectMmResponse = z.infer<typeof connectMmResponseSchema>;

// Optional as a whole: the browser sends no body, the token comes from the cookie.

export const loginOnlyBodySchema = z
  .object({ login: emailSchema, lang: z.optional(langSchema) })
  .register(z.globalRegistry, { id: 'LoginOnlyBody' });
export type LoginOnlyBody = z.input<typeof loginOnlyBodySchema>;

const codeSchema = requiredString(32, M.invalidCode).register(z.globalRegistry, { description: 'The code from the e-mail' });

export const confirmLoginBodySchema = z
  .object({ login: emailSchema, code: codeSchema })
  .register(z.globalRegistry, { id: 'ConfirmLoginBody' });
export type ConfirmLoginBody = z.input<typeof confirmLoginBodySchema>;

export const changePasswordByCodeBodySchema = z
  .object({ login: emailSchema, password: newPasswordSchema, code: codeSchema })
  .register(z.globalRegistry, { id: 'ChangePasswordByCodeBody' });
export type ChangePasswordByCodeBody = z.input<typeof changePasswordByCodeBodySchema>;
