import { useEffect, useState } from 'react';
import { Link, useNavigate } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiMessages } from '@app/contracts';
import { Page, useRemote } from '@app/ui';
import { EmailField, NewPasswordFields, SubmitButton, TextField, useAuthForm, useLang } from '../forms';

/** Step 1: the e-mail to send the code to. */
function RequestStep({ login, focus, onDone }: { login: string; focus: boolean; onDone(login: string): void }) {
  const { t } = useTranslation();
  const { api } = useRemote();
  const lang = useLang();
  const { handleSubmit, getValues, setFocus, field, fail, message, notify, busy, formProps } = useAuthForm((s) => s.recoveryRequestSchema, { login });
  // Coming back from step 2, the keyboard continues where this form starts.
  useEffect(() => {
    if (focus) setFocus('login');
  }, [focus, setFocus]);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await api.call('sendPasswordRecovery', { body: { ...body, lang } });
      notify.success(message(apiMessages.recoverySent));
      onDone(body.login);
    } catch (error) {
      fail(error, apiMessages.internalError, ['login']);
    }
  });

  return (
    <form className="form" {...formProps} onSubmit={onSubmit} aria-labelledby="page-title" aria-describedby="recovery-request-intro">
      <p id="recovery-request-intro">{t('recovery.requestIntro')}</p>
      <EmailField id="recovery-login" {...field('login')} />
      <div className="form__actions">
        <SubmitButton busy={busy} label={t('recovery.send')} busyLabel={t('recovery.sending')} />
        <button type="button" className="btn btn--link" onClick={() => onDone(getValues('login').trim())}>
          {t('recovery.haveCode')}
        </button>
      </div>
    </form>
  );
}

/** Step 2: the code from the e-mail and the new password. */
function ChangeStep({ login, onAgain }: { login: string; onAgain(login: string): void }) {
  const { t } = useTranslation();
  const { api } = useRemote();
  const navigate = useNavigate();
  const { handleSubmit, getValues, setFocus, field, fail, message, notify, busy, formProps } = useAuthForm((s) => s.changePasswordSchema, {
    login,
    code: '',
    password: '',
    passwordRepeat: '',
  });
  // This step replaced the form the user was in: continue at its first empty field.
  useEffect(() => setFocus(login ? 'code' : 'login'), [login, setFocus]);

  const onSubmit = handleSubmit(async ({ login, code, password }) => {
    try {
      await api.call('changePasswordByCode', { body: { login, code, password } });
      notify.success(message(apiMessages.passwordChanged));
      navigate('/sign-in');
    } catch (error) {
      fail(error, apiMessages.internalError, ['login', 'code', 'password']);
    }
  });

  return (
    <form className="form" {...formProps} onSubmit={onSubmit} aria-labelledby="page-title" aria-describedby="recovery-change-intro">
      <p id="recovery-change-intro">{t('recovery.changeIntro')}</p>
      <EmailField id="recovery-change-login" autoComplete="username" {...field('login')} />
      <TextField id="recovery-code" label={t('form.code')} autoComplete="one-time-code" {...field('code')} />
      <NewPasswordFields id="recovery-password" label={t('form.newPassword')} password={field('password')} repeat={field('passwordRepeat')} />
      <div className="form__actions">
        <SubmitButton busy={busy} label={t('recovery.change')} busyLabel={t('recovery.changing')} />
        <button type="button" className="btn btn--link" onClick={() => onAgain(getValues('login').trim())}>
          {t('recovery.requestAgain')}
        </button>
      </div>
    </form>
  );
}

type Step = { name: 'request' | 'change'; login: string; moved?: boolean };

/**
 * Password recovery (spec §8): ask for a code by e-mail, then set a new password with it. The
 * e-mail's link opens this page afresh, so the second step can also be reached directly.
 */
export function PasswordRecoveryPage() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ name: 'request', login: '' });
  return (
    <Page title={t('recovery.title')}>
      <div className="card auth-card">
        {step.name === 'request' ? (
          <RequestStep login={step.login} focus={Boolean(step.moved)} onDone={(login) => setStep({ name: 'change', login })} />
        ) : (
          <ChangeStep login={step.login} onAgain={(login) => setStep({ name: 'request', login, moved: true })} />
        )}
        <p className="form__footer">
          <Link to="/sign-in">{t('recovery.backToSignIn')}</Link>
        </p>
      </div>
    </Page>
  );
}
