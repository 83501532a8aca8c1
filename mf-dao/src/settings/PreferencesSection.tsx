import { useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiFailure, apiMessages as M, type Locale, type Profile, type ThemeChoice } from '@app/contracts';
import { useNotify, useObservable, useRemote } from '@app/ui';
import { useMessage } from '../forms/errors';

/** Language and theme, kept with the account (applied when signing in elsewhere) and applied here now. */
export function PreferencesSection({ profile, onSaved }: { profile: Profile; onSaved(profile: Profile): void }) {
  const { t } = useTranslation();
  const { api, bus } = useRemote();
  const theme = useObservable(bus.theme$, null);
  const locale = useObservable<Locale>(bus.locale$, profile.lang);
  const [lang, setLang] = useState<Locale>(locale);
  const [choice, setChoice] = useState<ThemeChoice>(profile.theme ?? theme?.choice ?? 'system');
  const notify = useNotify();
  const message = useMessage();
  const [busy, setBusy] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const saved = await api.call('userUpdate', { body: { lang, theme: choice } });
      onSaved(saved);
      notify({ kind: 'success', title: t('form.successTitle'), message: message(M.profileUpdated) });
      bus.send({ type: 'theme/set', choice });
      if (lang !== locale) bus.send({ type: 'locale/set', locale: lang });
    } catch (error) {
      notify({ kind: 'error', title: t('form.errorTitle'), message: message(apiFailure(error)?.message ?? t('form.failed')) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card settings__section" aria-labelledby="settings-preferences">
      <h2 id="settings-preferences">{t('settings.preferences.title')}</h2>
      <form className="form" noValidate onSubmit={save} aria-busy={busy}>
        <div className="field">
          <label htmlFor="settings-lang">{t('settings.preferences.language')}</label>
          <select id="settings-lang" value={lang} onChange={(e) => setLang(e.target.value as Locale)}>
            <option value="en">English</option>
            <option value="ru">Русский</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="settings-theme">{t('settings.preferences.theme')}</label>
          <select id="settings-theme" value={choice} onChange={(e) => setChoice(e.target.value as ThemeChoice)}>
            <option value="light">{t('settings.preferences.light')}</option>
            <option value="dark">{t('settings.preferences.dark')}</option>
            <option value="system">{t('settings.preferences.system')}</option>
          </select>
        </div>
        <div className="form__actions">
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? t('form.saving') : t('form.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
