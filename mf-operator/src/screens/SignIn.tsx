import { useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { operatorSignInSchema, type OperatorSession } from '@app/contracts';
import { Field, FormSummary, Page } from '@app/ui';
import { operatorFetch, useConsole } from '../client';

/** The console's own sign-in: the operator's name, password and the authenticator's code. */
export function SignIn() {
  const { t, i18n } = useTranslation();
  const { signedIn, ended } = useConsole();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [fields, setFields] = useState<Record<string, string>>({});

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { name: String(form.get('name') ?? '').trim(), password: String(form.get('password') ?? ''), totp: String(form.get('totp') ?? '').trim() };
    const parsed = operatorSignInSchema.safeParse(input);
    if (!parsed.success) {
      const bad: Record<string, string> = {};
      for (const issue of parsed.error.issues) bad[String(issue.path[0])] ??= t(`signIn.invalid.${String(issue.path[0])}`);
      setFields(bad);
      setError(t('form.invalid'));
      return;
    }
    setFields({});
    setError(undefined);
    setBusy(true);
    try {
      signedIn(await operatorFetch<OperatorSession>('session', i18n.language, { method: 'POST', body: parsed.data }));
    } catch (e) {
      setError(e instanceof Error ? e.message : t('form.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t('signIn.title')}>
      <form className="card form operator__sign-in" onSubmit={(e) => void submit(e)} noValidate aria-describedby="sign-in-intro">
        {ended ? (
          <p className="alert alert--warning" role="status" data-testid="session-ended">
            {ended}
          </p>
        ) : null}
        <p id="sign-in-intro" className="muted">
          {t('signIn.intro')}
        </p>
        <Field id="operator-name" name="name" label={t('signIn.name')} autoComplete="username" required error={fields.name} />
        <Field id="operator-password" name="password" type="password" label={t('signIn.password')} autoComplete="current-password" required error={fields.password} />
        <Field id="operator-totp" name="totp" label={t('signIn.totp')} hint={t('signIn.totpHint')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} required error={fields.totp} />
        <FormSummary text={error} />
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? t('form.working') : t('signIn.submit')}
          </button>
        </div>
      </form>
    </Page>
  );
}
