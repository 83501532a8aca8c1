import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { totpCodeSchema } from '@app/contracts';
import { Field, FormSummary } from '@app/ui';

/**
 * A sensitive action's confirmation: what it does, any fields of its own, and the code the
 * operator's authenticator shows now (the API asks for it again on every change).
 */
export function CodeConfirm({ title, children, submitLabel, onConfirm, onCancel }: { title: string; children?: ReactNode; submitLabel: string; onConfirm: (totp: string, form: FormData) => Promise<void>; onCancel?: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [codeError, setCodeError] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const code = totpCodeSchema.safeParse(String(form.get('totp') ?? '').trim());
    if (!code.success) {
      setCodeError(t('signIn.invalid.totp'));
      return;
    }
    setCodeError(undefined);
    setError(undefined);
    setBusy(true);
    try {
      await onConfirm(code.data, form);
    } catch (e) {
      setError(e instanceof Error ? e.message : t('form.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card form operator__confirm" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)} noValidate>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <Field id={`${id}-totp`} name="totp" label={t('confirm.totp')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required error={codeError} />
      <FormSummary text={error} />
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? t('form.working') : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="btn btn--gray" onClick={onCancel}>
            {t('form.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
