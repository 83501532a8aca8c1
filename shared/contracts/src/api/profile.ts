import * as z from 'zod/mini';
import * as M from './message-texts';
import { emailSchema, isoDateTime, langSchema, maxLength, patterns } from './common';
import { ownerProof } from './owner-proof';

const themeSchema = z.enum(['light', 'dark', 'system'], { error: M.invalidValue });

export const profileSchema = z
  .object({
    id: z.string(),
    name: z.nullable(z.string()),
    email: z.nullable(z.string()),
    phone: z.nullable(z.string()),
    telegram: z.nullable(z.string()),
    avatar: z.nullable(z.string()),
    walletAddress: z.nullable(z.string()),
    role: z.nullable(z.string()),
    lang: langSchema,
    theme: z.nullable(themeSchema),
    referralCode: z.string(),
    /** A new e-mail waiting for its code; the login stays `email` until then. */
    pendingEmail: z.nullable(z.string()),
    /** Set while a recent change of the e-mail, password or wallet holds the account's payouts. */
    withdrawalsHeldUntil: z.nullable(isoDateTime),
  })
  .register(z.globalRegistry, { id: 'Profile' });
export type Profile = z.infer<typeof profileSchema>;

/** A field that may be changed (string), cleared (null or '') or left out (unchanged). */
const editable = (max: number, pattern?: RegExp, invalid: string = M.invalidValue) => {
  let s = z.string({ error: invalid }).check(maxLength(max), z.trim());
  if (pattern) s = s.check(z.regex(new RegExp(`^$|${pattern.source}`), invalid));
  return z.optional(z.nullable(s));
};

/**
 * Fields a user may change. A new e-mail is not applied here: a code goes to it, and the change
 * happens when that code is confirmed (POST /settings/email/confirm). The avatar has its own call.
 */
export const profileUpdateBodySchema = z
  .object({
    name: editable(50),
    phone: editable(20, patterns.phone, M.invalidPhone),
    telegram: editable(33, patterns.telegram, M.invalidTelegram),
    email: z.optional(emailSchema),
    lang: z.optional(langSchema),
    theme: z.optional(themeSchema),
    /** The owner's proof, needed only with a new e-mail. */
    ...ownerProof,
  })
  .register(z.globalRegistry, { id: 'ProfileUpdateBody' });
export type ProfileUpdateBody = z.input<typeof profileUpdateBodySchema>;
