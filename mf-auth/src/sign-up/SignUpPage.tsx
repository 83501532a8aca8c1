import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiMessages, type WalletState } from '@app/contracts';
import { Page, useObservable, useRemote } from '@app/ui';
import {
  CheckboxField,
  EmailField,
  NewPasswordFields,
  SubmitButton,
  TextField,
  arrivalSource,
  asApiError,
  failureMessage,
  inviteFromVisit,
  isWellFormedInvite,
  serverFieldErrors,
  useAuthForm,
  useLang,
} from '../forms';
import { keepInvite } from './keepInvite';

const noWallet: WalletState = { connected: false, chainId: null, account: null, balances: {} };

type InviteCheck = 'none' | 'checking' | 'verified' | 'invalid' | 'unchecked';

/**
 * The invite of a referral sign-up (spec §2, §5): shown, checked with the server before the
 * sign-up is sent (a referral sign-up needs a verified code), and sent with it.
 */
function useInvite() {
  const { t } = useTranslation();
  const { api } = useRemote();
  const [params] = useSearchParams();
  const [code, setCode] = useState(() => inviteFromVisit(params));
  const fromAddress = Boolean(params.get('invite'));
  const [check, setCheck] = useState<InviteCheck>(() => (!code ? 'none' : isWellFormedInvite(code) ? 'checking' : 'invalid'));
  const [error, setError] = useState<string | undefined>(() => (code && !isWellFormedInvite(code) ? apiMessages.invalidInvite : undefined));
  const inFlight = useRef<Promise<boolean> | undefined>(undefined);

  const verify = useCallback(
    (candidate: string) => {
      setCheck('checking');
      setError(undefined);
      const run = api.call('referralsInvite', { params: { code: candidate } }).then(
        ({ valid }) => {
          setCheck(valid ? 'verified' : 'invalid');
          setError(valid ? undefined : apiMessages.invalidInvite);
          if (valid && fromAddress) keepInvite(candidate);
          return valid;
        },
        (failure: unknown) => {
          // A malformed code is refused (400); anything else (offline, rate limit) may be tried again.
          const refused = asApiError(failure)?.status === 400;
          setCheck(refused ? 'invalid' : 'unchecked');
          setError(refused ? apiMessages.invalidInvite : failureMessage(failure, t('signUp.inviteCheckFailed')));
          return false;
        },
      );
      inFlight.current = run;
      return run;
    },
    [api, fromAddress, t],
  );

  useEffect(() => {
    if (code && isWellFormedInvite(code)) void verify(code);
  }, [code, verify]);

  /** True once the code is verified: waits for the check in flight, or checks again after a failure. */
  const verified = async (): Promise<boolean> => {
    if (!code || check === 'verified') return true;
    if (check === 'invalid') return false;
    if (check === 'checking' && inFlight.current) return inFlight.current;
    return verify(code);
  };
  const drop = () => {
    setCode(undefined);
    setCheck('none');
    setError(undefined);
  };
  return { code, check, error, setError, verified, drop };
}

export function SignUpPage() {
  const { t, i18n } = useTranslation();
  const { api, bus } = useRemote();
  const navigate = useNavigate();
  const lang = useLang();
  const wallet = useObservable(bus.wallet$, noWallet);
  const invite = useInvite();
  const { handleSubmit, trigger, field, fail, message, notify, busy, formProps } = useAuthForm((s) => s.signUpSchema, {
    login: '',
    password: '',
    passwordRepeat: '',
    agree: false,
  });

  const onSubmit = handleSubmit(async ({ login, password }) => {
    if (!(await invite.verified())) {
      document.getElementById('sign-up-invite')?.focus();
      return;
    }
    const source = arrivalSource();
    try {
      // The shell links the connected wallet itself once the account exists.
      const { user } = await api.call('register', {
        body: { login, password, lang, ...(source ? { source } : {}), ...(invite.code ? { invite: invite.code } : {}) },
      });
      notify.success(t('signUp.success'));
      navigate(user.role ? '/cabinet/dashboard' : '/registration-confirm');
    } catch (error) {
      const inviteError = serverFieldErrors(error, ['invite'] as const)[0];
      if (inviteError) invite.setError(inviteError[1]);
      fail(error, apiMessages.incorrectLogin, ['login', 'password']);
    }
  });

  const signUpWithWallet = async () => {
    // Only the agreement matters on this path: the wallet's signature is the credential.
    if (!(await trigger('agree', { shouldFocus: true })) || !invite.code) return;
    if (!(await invite.verified())) {
      document.getElementById('sign-up-invite')?.focus();
      return;
    }
    const source = arrivalSource();
    bus.send({ type: 'session/wallet-sign-in', invite: invite.code, ...(source ? { source } : {}) });
  };

  return (
    <Page title={t('signUp.title')}>
      <div className="card auth-card">
        <form className="form" {...formProps} onSubmit={onSubmit} aria-labelledby="page-title">
          {invite.code ? (
            <div className="form__invite">
              <p>{t('signUp.invited')}</p>
              <TextField
                id="sign-up-invite"
                label={t('signUp.invite')}
                value={invite.code}
                readOnly
                error={invite.error && message(invite.error)}
                hint={invite.check === 'checking' ? t('signUp.inviteChecking') : invite.check === 'verified' ? t('signUp.inviteVerified') : undefined}
              />
              {invite.error ? (
                <button type="button" className="btn btn--link" onClick={invite.drop}>
                  {t('signUp.removeInvite')}
                </button>
              ) : null}
            </div>
          ) : null}
          <EmailField id="sign-up-login" {...field('login')} />
          <NewPasswordFields id="sign-up-password" label={t('form.password')} password={field('password')} repeat={field('passwordRepeat')} />
          {wallet.connected && wallet.account ? (
            <TextField id="sign-up-wallet" label={t('signUp.walletAddress')} value={wallet.account} readOnly hint={t('signUp.walletHint')} className="field--mono" />
          ) : (
            <div className="field">
              <span className="field__label">{t('signUp.wallet')}</span>
              <p className="field__hint" id="sign-up-no-wallet">
                {t('signUp.noWallet')}
              </p>
              <button type="button" className="btn btn--outline" aria-describedby="sign-up-no-wallet" onClick={() => bus.send({ type: 'wallet/connect' })}>
                {t('signUp.connectWallet')}
              </button>
            </div>
          )}
          <CheckboxField id="sign-up-agree" label={t('signUp.agree')} {...field('agree')} />
          <button type="button" className="btn btn--link form__terms" onClick={() => bus.send({ type: 'modal/terms' })}>
            {t('signUp.readTerms')}
          </button>
          {/* The brand's privacy policy, a page of its own (the shell's server makes it per brand and language). */}
          <a className="btn btn--link form__terms" href={i18n.language === 'ru' ? '/ru/privacy' : '/privacy'} target="_blank" rel="noreferrer">
            {t('signUp.readPrivacy')}
          </a>
          <div className="form__actions">
            <SubmitButton busy={busy} label={t('signUp.submit')} busyLabel={t('signUp.busy')} />
          </div>
          {invite.code ? (
            <div className="form__wallet-sign-up">
              <p className="form__divider">{t('signIn.or')}</p>
              <button type="button" className="btn btn--outline form__wide" aria-describedby="sign-up-wallet-hint" onClick={() => void signUpWithWallet()}>
                {t('signUp.withWallet')}
              </button>
              <p id="sign-up-wallet-hint" className="field__hint">
                {t('signUp.withWalletHint')}
              </p>
            </div>
          ) : null}
        </form>
        <p className="form__footer">
          {t('signUp.haveAccount')} <Link to="/sign-in">{t('signUp.signIn')}</Link>
        </p>
      </div>
    </Page>
  );
}
