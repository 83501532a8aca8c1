import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { MailPreferences } from '@app/contracts';
import { useRemote, useServerData } from '@app/ui';
import { SaveButton, useSaveAction } from '../forms/useSaveAction';

const SWITCHES = ['depositCredited', 'withdrawalPaid', 'withdrawalReturned', 'claimPaid', 'withdrawalHeld'] as const satisfies readonly (keyof MailPreferences)[];

/** Which mails about money the account gets; security notices are always sent, and the section says so. */
export function MailSection() {
  const { t } = useTranslation();
  const { api } = useRemote();
  const { busy, run } = useSaveAction();
  const { state, reload } = useServerData((signal) => api.call('settingsMail', { signal }), [api]);
  const [choice, setChoice] = useState<MailPreferences | null>(null);
  useEffect(() => {
    if (state.status === 'ready') setChoice(state.data);
  }, [state]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!choice) return;
    await run(async () => {
      setChoice(await api.call('settingsMailUpdate', { body: choice }));
      return t('settings.mail.saved');
    });
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
          <SaveButton busy={busy} />
        </form>
      )}
    </section>
  );
}
