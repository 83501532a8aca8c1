import * as z from 'zod/mini';
import { apiMessages as M } from './messages';
import { langSchema, maxLength, patterns } from './common';

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
    referralCode: z.string(),
  })
  .register(z.globalRegistry, { id: 'Profile' });
export type Profile = z.infer<typeof profileSchema>;

const AVATAR_MAX = 400_000;

/** A field that may be changed (string), cleared (null or '') or left out (unchanged). */
const editable = (max: number, pattern?: RegExp, invalid: string = M.invalidValue) => {
  let s = z.string({ error: invalid }).check(maxLength(max), z.trim());
  if (pattern) s = s.check(z.regex(new RegExp(`^$|${pattern.source}`), invalid));
  return z.optional(z.nullable(s));
};

/** Fields a user may change. The e-mail is the login and is not changed here. */
export const profileUpdateBodySchema = z
  .object({
    name: editable(50),
    phone: editable(20, patterns.phone, M.invalidPhone),
    telegram: editable(33, patterns.telegram, M.invalidTelegram),
    avatar: editable(AVATAR_MAX, /^(data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+|https:\/\/\S+)$/),
    lang: z.optional(langSchema),
  })
  .register(z.globalRegistry, { id: 'ProfileUpdateBody' });
export type ProfileUpdateBody = z.input<typeof profileUpdateBodySchema>;
