import { useState } from 'react';
import { useNavigate } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiMessages, type SessionState } from '@app/contracts';
import { Page, useObservable, useRemote } from '@app/ui';
import { EmailField, SubmitButton, TextField, failureMessage, useAuthForm, useLang } from '../forms';

/**
 * The code from the approval e-mail. A signed-in user (just registered) confirms their own
 * account; a visitor who opened the e-mail's link elsewhere types the e-mail too.
 */
function ConfirmForm({ account }: { account: string | undefined }) {
  const { t } = useTranslation();
  const { api } = useRemote();
  const navigate = useNavigate();
  const lang = useLang();
  const [resending, setResending] = useState(false);
  const { handleSubmit, trigger, getValues, field, fail, message, notify, busy, formProps } = useAuthForm((s) => s.confirmSchema, { login: account ?? '', code: '' });

  const onSubmit = handleSubmit(async (body) => {
    try {
      // The answer signs in with the confirmed account: the session now has a role.
      await api.call('confirmLogin', { body });
      notify.success(message(apiMessages.accountConfirmed));
      navigate('/cabinet/dashboard');
    } catch (error) {
      fail(error, apiMessages.invalidCode, ['login', 'code']);
    }
  });

  const resend = async () => {
    if (resending || !(await trigger('login', { shouldFocus: true }))) return;
    setResending(true);
    try {
      await api.call('sendApproveEmail', { body: { login: getValues('login').trim(), lang } });
      notify.success(message(apiMessages.approveSent));
    } catch (error) {
      notify.error(message(failureMessage(error, apiMessages.internalError)));
    } finally {
      setResending(false);
    }
  };

  return (
    <form className="form" {...formProps} onSubmit={onSubmit} aria-labelledby="page-title" aria-describedby="confirm-intro">
      <p id="confirm-intro">{t('confirm.intro')}</p>
      {account ? <TextField id="confirm-account" label={t('confirm.account')} value={account} readOnly /> : <EmailField id="confirm-login" {...field('login')} />}
      <TextField id="confirm-code" label={t('form.code')} autoComplete="one-time-code" {...field('code')} />
      <div className="form__actions">
        <SubmitButton busy={busy} label={t('confirm.submit')} busyLabel={t('confirm.busy')} />
      </div>
      <p className="form__footer">
        {t('confirm.noMail')}{' '}
        <button type="button" className="btn btn--link" disabled={resending} onClick={() => void resend()}>
          {resending ? t('confirm.resending') : t('confirm.resend')}
        </button>
      </p>
    </form>
  );
}

export function RegistrationConfirmPage() {
  const { t } = useTranslation();
  const { bus } = useRemote();
  const session = useObservable<SessionState>(bus.session$, { status: 'unknown' });
  const account = session.status === 'authenticated' ? session.user.login : undefined;
  return (
    <Page title={t('confirm.title')}>
      <div className="card auth-card">
        {/* A new form when the account becomes known, so its values start from it. */}
        <ConfirmForm key={account ?? ''} account={account} />
      </div>
    </Page>
  );
}
