import { useTranslation } from '@app/singletons/react-i18n';
import { TextField } from './Field';
import type { BoundField as Bound } from './useAuthForm';

/** The account's e-mail (the login). */
export function EmailField({ id, autoComplete = 'email', ...bound }: Bound & { id: string; autoComplete?: 'email' | 'username' }) {
  const { t } = useTranslation();
  return <TextField id={id} label={t('form.email')} type="email" inputMode="email" autoComplete={autoComplete} {...bound} />;
}

/** A new password with its rules, and the same typed again. */
export function NewPasswordFields({ id, label, password, repeat }: { id: string; label: string; password: Bound; repeat: Bound }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField id={id} label={label} type="password" autoComplete="new-password" hint={t('form.passwordHint')} {...password} />
      <TextField id={`${id}-repeat`} label={t('form.passwordRepeat')} type="password" autoComplete="new-password" {...repeat} />
    </>
  );
}
