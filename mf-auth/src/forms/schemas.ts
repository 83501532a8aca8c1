import * as z from 'zod/mini';
import {
  apiMessages,
  changePasswordByCodeBodySchema,
  confirmLoginBodySchema,
  emailSchema,
  loginBodySchema,
  newPasswordSchema,
  requiredString,
} from '@app/contracts';

/*
 * The forms validate with the same schemas the server does (shared/contracts/src/api), so a
 * message shown before a request is the one the server would answer with. The texts are the
 * spec's English; the fields show them translated (useMessage).
 */

/** The second password must be given and equal the first. */
const passwordRepeat = requiredString(20);
const samePasswords = <S extends z.ZodMiniType<{ password: string; passwordRepeat: string }>>(schema: S) =>
  schema.check(
    z.refine((v) => v.password === v.passwordRepeat, {
      path: ['passwordRepeat'],
      message: apiMessages.passwordsDoNotMatch,
      // Only once both were typed; an empty repeat already says "It's required field!".
      when: (payload) => {
        const v = payload.value as Partial<Record<'password' | 'passwordRepeat', unknown>> | undefined;
        return typeof v?.password === 'string' && typeof v.passwordRepeat === 'string' && v.passwordRepeat !== '';
      },
    }),
  );

const agreement = z.boolean().check(z.refine((v) => v, apiMessages.required));

export const signInSchema = z.pick(loginBodySchema, { login: true, password: true });
export type SignInValues = z.input<typeof signInSchema>;

export const signUpSchema = samePasswords(
  z.object({
    login: emailSchema,
    password: newPasswordSchema,
    passwordRepeat,
    agree: agreement,
  }),
);
export type SignUpValues = z.input<typeof signUpSchema>;

export const recoveryRequestSchema = z.object({ login: emailSchema });
export type RecoveryRequestValues = z.input<typeof recoveryRequestSchema>;

export const changePasswordSchema = samePasswords(
  z.extend(changePasswordByCodeBodySchema, { passwordRepeat }),
);
export type ChangePasswordValues = z.input<typeof changePasswordSchema>;

export const confirmSchema = confirmLoginBodySchema;
export type ConfirmValues = z.input<typeof confirmSchema>;
