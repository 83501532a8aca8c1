import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiFailure, type MailPreferences } from '@app/contracts';
import { useNotify, useRemote, useServerData } from '@app/ui';
import { useMessage } from '../forms/errors';

const SWITCHES = ['depositCredited', 'withdrawalPaid', 'withdrawalReturned', 'claimPaid', 'withdrawalHeld'] as const satisfies readonly (keyof MailPreferences)[];

/** Which mails about money the account gets; security notices are always sent, and the section says so. */
export function MailSection() {
  const { t } = useTranslation();
  const { api } = useRemote();
  const notify = useNotify();
  const message = useMessage();
  const { state, reload } = useServerData((signal) => api.call('settingsMail', { signal }), [api]);
  const [choice, setChoice] = useState<MailPreferences | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (state.status === 'ready') setChoice(state.data);
  }, [state]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!choice) return;
    setBusy(true);
    try {
      setChoice(await api.call('settingsMailUpdate', { body: choice }));
      notify({ kind: 'success', title: t('form.successTitle'), message: t('settings.mail.saved') });
    } catch (error) {
      notify({ kind: 'error', title: t('form.errorTitle'), message: message(apiFailure(error)?.message ?? t('form.failed')) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card settings__section" aria-labelledby="settings-mail">
      <h2 id="settings-mail">{t('settings.mail.title')}</h2>
      <p className="muted">{t('settings.mail.security')}</p>
      {state.status === 'error' ? (
        <p className="alert alert--error" role="alert">
          {t('form.loadFailed')}{' '}
          <button type="button" className="btn btn--link" onClick={reload}>
            {t('form.retry')}
          </button>
        </p>
      ) : !choice ? (
        <p className="muted" role="status">
          {t('form.loading')}
        </p>
      ) : (
        <form className="form" noValidate onSubmit={save} aria-busy={busy}>
          {SWITCHES.map((key) => (
            <div key={key} className="field field--check">
              <div className="field__check-row">
                <input id={`settings-mail-${key}`} type="checkbox" checked={choice[key]} onChange={(e) => setChoice({ ...choice, [key]: e.target.checked })} />
                <label htmlFor={`settings-mail-${key}`}>{t(`settings.mail.${key}`)}</label>
              </div>
            </div>
          ))}
          <div className="form__actions">
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {busy ? t('form.saving') : t('form.save')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
