import { Link, useNavigate, useSearchParams } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiMessages } from '@app/contracts';
import { Page, useRemote } from '@app/ui';
import { EmailField, SubmitButton, TextField, arrivalSource, inviteFromVisit, isWellFormedInvite, useAuthForm } from '../forms';

/** Why the visitor was sent here (?error=…), as the shell's access control and wallet service say it. */
const arrivalErrors: Record<string, string> = {
  auth: apiMessages.loginRequired,
  metamask_invalid: apiMessages.metamaskInvalid,
};

export function SignInPage() {
  const { t } = useTranslation();
  const { api, bus } = useRemote();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { handleSubmit, field, fail, message, busy, formProps } = useAuthForm((s) => s.signInSchema, { login: '', password: '' });

  const arrivalError = arrivalErrors[params.get('error') ?? ''];

  const onSubmit = handleSubmit(async (body) => {
    try {
      // The client hands the tokens to the shell's session; the page only moves on.
      const { user } = await api.call('login', { body });
      navigate(user.role ? '/cabinet/dashboard' : '/registration-confirm');
    } catch (error) {
      fail(error, apiMessages.invalidLogin, ['login', 'password']);
    }
  });

  const signInWithWallet = () => {
    // The shell connects the wallet if needed, asks it to sign a SIWE message and signs in.
    // An invite the visitor followed makes a new wallet's account (spec §2, referral invitation).
    const invite = inviteFromVisit(params);
    const source = arrivalSource();
    bus.send({
      type: 'session/wallet-sign-in',
      ...(invite && isWellFormedInvite(invite) ? { invite } : {}),
      ...(source ? { source } : {}),
    });
  };

  return (
    <Page title={t('signIn.title')}>
      <div className="card auth-card">
        {arrivalError ? (
          <p className="alert alert--error" role="alert">
            {message(arrivalError)}
          </p>
        ) : null}
        <form className="form" {...formProps} onSubmit={onSubmit} aria-labelledby="page-title">
          <EmailField id="sign-in-login" autoComplete="username" {...field('login')} />
          <TextField id="sign-in-password" label={t('form.password')} type="password" autoComplete="current-password" {...field('password')} />
          <div className="form__actions">
            <SubmitButton busy={busy} label={t('signIn.submit')} busyLabel={t('signIn.busy')} />
            <Link to="/password-recovery">{t('signIn.forgot')}</Link>
          </div>
        </form>
        <p className="form__divider">{t('signIn.or')}</p>
        <button type="button" className="btn btn--outline form__wide" onClick={signInWithWallet}>
          {t('signIn.withWallet')}
        </button>
        <p className="form__footer">
          {t('signIn.noAccount')} <Link to="/sign-up">{t('signIn.signUp')}</Link>
        </p>
      </div>
    </Page>
  );
}
