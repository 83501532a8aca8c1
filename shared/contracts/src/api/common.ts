import * as z from 'zod/mini';
import { POOL_NAMES } from '../domain';
import * as M from './message-texts';
import { formatMessage } from './message-format';

/**
 * The validation patterns; also served by GET /system/regexp so the forms check the same way.
 * Each runs in linear time: anchored, with no repetition inside a repetition (safe-regex2 checks
 * every pattern of this package: api/test/security.test.ts), so a failing input is never retried in
 * many ways. The e-mail's domain is labels joined by dots, the last of two characters or more: it
 * starts with no dot, holds no two dots in a row, and ends with a dot and such a label. Lengths are
 * checked first, and a length failure stops the checks (`abort`).
 */
export const patterns = {
  email: /^[^\s@]+@(?!.*\.\.)[^\s@.][^\s@]*\.[^\s@.]{2,}$/,
  // Spec §5: an upper-case, a lower-case and one of #?!@$%^&*- ; length 6 to 20.
  password: /^(?=.*[a-z])(?=.*[A-Z])(?=.*[#?!@$%^&*-]).{6,20}$/,
  phone: /^\+?[0-9][0-9 ()-]{5,18}[0-9]$/,
  telegram: /^@[A-Za-z0-9_]{5,32}$/,
  address: /^0x[0-9a-fA-F]{40}$/,
  txHash: /^0x[0-9a-fA-F]{64}$/,
  baseUnits: /^(0|[1-9][0-9]{0,77})$/,
} as const;

export const maxLen = (max: number) => formatMessage(M.maxLength, { max });
/** A length limit that stops validation when it fails: no pattern ever runs on an over-long string. */
export const maxLength = (max: number, message: string = maxLen(max)) => z.maxLength(max, { error: message, abort: true });
const required = () => z.minLength(1, M.required);

/** A string that answers "It's required field!" when absent or empty, and `invalid` when not a string. */
export const requiredString = (max: number, invalid: string = M.invalidValue) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required : invalid) })
    .check(maxLength(max), z.trim(), required());

/** Same rules, but absent, null and '' are allowed (and read as "not given"). */
export const optionalString = (max: number, invalid: string = M.invalidValue) =>
  z.pipe(
    z.nullish(z.string({ error: invalid }).check(maxLength(max), z.trim())),
    z.transform((v) => (v ? v : undefined)),
  );

// OpenAPI descriptions and component ids go in the global registry, where the API's docs read them.
export const emailSchema = requiredString(254, M.invalidEmail)
  .check(z.toLowerCase(), z.regex(patterns.email, M.invalidEmail))
  .register(z.globalRegistry, { description: 'E-mail address; compared case-insensitively', example: 'user@example.com' });

/** A new password: spec §5 rules. */
export const newPasswordSchema = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required : M.invalidPassword) })
  .check(required(), maxLength(20), z.regex(patterns.password, M.invalidPassword))
  .register(z.globalRegistry, { description: '6 to 20 characters with an upper-case, a lower-case and one of #?!@$%^&*-' });

/** A password given to sign in: only bounded, the rules are checked when it is set. */
export const passwordSchema = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required : M.invalidPassword) })
  .check(required(), maxLength(128));

export const addressSchema = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required : M.metamaskInvalid) })
  .check(maxLength(100, M.metamaskInvalid), z.trim(), z.regex(patterns.address, M.metamaskInvalid))
  .register(z.globalRegistry, { description: 'Wallet address, 0x and 40 hex digits', example: '0x0000000000000000000000000000000000000001' });

/** An optional address: absent, null or '' mean "none". */
export const optionalAddressSchema = z.pipe(
  z.nullish(z.union([z.literal(''), addressSchema], { error: M.metamaskInvalid })),
  z.transform((v) => (v ? v : undefined)),
);

export const langSchema = z.enum(['en', 'ru'], { error: M.invalidValue });
export type Lang = z.infer<typeof langSchema>;

/** An amount of money in base units (wei, token units): a decimal string of an integer, never a float. */
export const baseUnitsSchema = z
  .string({ error: (iss) => (iss.input === undefined ? M.required : M.invalidValue) })
  .check(z.regex(patterns.baseUnits, M.invalidValue))
  .register(z.globalRegistry, { description: 'Integer amount in base units (wei, token units) as a decimal string', example: '1000000000000000000' });

/**
 * An amount to move: base units above zero. Zero answers "It's required field!", as the forms do
 * for an empty or zero amount (spec §5).
 */
export const positiveBaseUnitsSchema = z
  .string({ error: (iss) => (iss.input === undefined ? M.required : M.invalidValue) })
  .check(z.regex(patterns.baseUnits, M.invalidValue), z.refine((v) => v !== '0', M.required))
  .register(z.globalRegistry, { description: 'Integer amount above zero in base units (wei, token units) as a decimal string', example: '1000000000000000000' });
/** A signed amount in base units (a balance on the books, a difference): a decimal string of an integer. */
export const signedBaseUnitsSchema = z
  .string()
  .check(z.regex(/^-?(0|[1-9]\d{0,77})$/, M.invalidValue))
  .register(z.globalRegistry, { description: 'Signed integer amount in base units as a decimal string', example: '-21000000000000' });

export const poolNameSchema = z.enum(POOL_NAMES, {
  error: (iss) => (iss.input === undefined ? M.required : M.invalidValue),
});

export const currencyCodeSchema = z.enum(['ETH', 'USDT', 'USDC', 'WAVES', 'BUSD', 'SOL', 'BNB'], {
  error: (iss) => (iss.input === undefined ? M.required : M.invalidValue),
});
export type CurrencyCode = z.infer<typeof currencyCodeSchema>;

/** A page number or size from the query string: an integer 1 … max, `fallback` when absent. */
export const pageNumber = (max: number, fallback: number) =>
  z._default(z.coerce.number({ error: M.invalidValue }).check(z.int(M.invalidValue), z.minimum(1, M.invalidValue), z.maximum(max, M.invalidValue)), fallback);

export const isoDateTime = z.string().register(z.globalRegistry, { description: 'ISO 8601 date and time', example: '2026-01-01T00:00:00.000Z' });

export { errorResponseSchema, messageResponseSchema, type ErrorResponse, type MessageResponse } from './session-routes';
