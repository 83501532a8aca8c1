import * as z from 'zod/mini';
import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { apiMessages as M, emailSchema, newPasswordSchema, passwordSchema, profileUpdateBodySchema, requiredString } from '@app/contracts';

/*
 * The forms check with the server's own schemas (shared/contracts), so a message shown before a
 * request is the one the server would answer with; the phone is also checked against the
 * numbering plan, as the server does.
 */

export const personalSchema = z.object({
  name: profileUpdateBodySchema.shape.name,
  email: emailSchema,
  phone: profileUpdateBodySchema.shape.phone.check(z.refine((v) => !v || isValidPhoneNumber(v), M.invalidPhone)),
  telegram: profileUpdateBodySchema.shape.telegram,
  // The owner's proof, asked for (and sent) only with a new e-mail; the server says which is missing.
  password: z.optional(z.string()),
  code: z.optional(z.string()),
});
export type PersonalValues = z.input<typeof personalSchema>;

export const codeSchema = z.object({ code: requiredString(32, M.invalidCode) });

export const passwordFormSchema = z
  .object({
    currentPassword: passwordSchema,
    password: newPasswordSchema,
    passwordRepeat: requiredString(20),
  })
  .check(
    z.refine((v) => v.password === v.passwordRepeat, {
      path: ['passwordRepeat'],
      message: M.passwordsDoNotMatch,
      when: (payload) => {
        const v = payload.value as { password?: unknown; passwordRepeat?: unknown } | undefined;
        return typeof v?.password === 'string' && typeof v.passwordRepeat === 'string' && v.passwordRepeat !== '';
      },
    }),
  );
export type PasswordFormValues = z.input<typeof passwordFormSchema>;
