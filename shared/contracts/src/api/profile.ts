import * as z from 'zod';
import { apiMessages as M } from './messages';
import { langSchema, maxLen, patterns } from './common';

export const profileSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    telegram: z.string().nullable(),
    avatar: z.string().nullable(),
    walletAddress: z.string().nullable(),
    role: z.string().nullable(),
    lang: langSchema,
    referralCode: z.string(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof profileSchema>;

const AVATAR_MAX = 400_000;

/** A field that may be changed (string), cleared (null or '') or left out (unchanged). */
const editable = (max: number, pattern?: RegExp, invalid: string = M.invalidValue) => {
  let s = z.string({ error: invalid }).trim().max(max, maxLen(max));
  if (pattern) s = s.regex(new RegExp(`^$|${pattern.source}`), invalid);
  return s.nullable().optional();
};

/** Fields a user may change. The e-mail is the login and is not changed here. */
export const profileUpdateBodySchema = z
  .object({
    name: editable(50),
    phone: editable(20, patterns.phone, M.invalidPhone),
    telegram: editable(33, patterns.telegram, M.invalidTelegram),
    avatar: editable(AVATAR_MAX, /^(data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+|https:\/\/\S+)$/),
    lang: langSchema.optional(),
  })
  .meta({ id: 'ProfileUpdateBody' });
export type ProfileUpdateBody = z.input<typeof profileUpdateBodySchema>;
