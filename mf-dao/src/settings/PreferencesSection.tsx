import { useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiMessages as M, type Locale, type Profile, type ThemeChoice } from '@app/contracts';
import { useObservable, useRemote } from '@app/ui';
import { useMessage } from '../forms/errors';
import { SaveButton, useSaveAction } from '../forms/useSaveAction';

/** Language and theme, kept with the account (applied when signing in elsewhere) and applied here now. */
export function PreferencesSection({ profile, onSaved }: { profile: Profile; onSaved(profile: Profile): void }) {
  const { t } = useTranslation();
  const { api, bus } = useRemote();
  const theme = useObservable(bus.theme$, null);
  const locale = useObservable<Locale>(bus.locale$, profile.lang);
  const [lang, setLang] = useState<Locale>(locale);
  const [choice, setChoice] = useState<ThemeChoice>(profile.theme ?? theme?.choice ?? 'system');
  const message = useMessage();
  const { busy, run } = useSaveAction();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      const saved = await api.call('userUpdate', { body: { lang, theme: choice } });
      onSaved(saved);
      // Said in the language the person chose it in, as before the switch below.
      const said = message(M.profileUpdated);
      bus.send({ type: 'theme/set', choice });
      if (lang !== locale) bus.send({ type: 'locale/set', locale: lang });
      return said;
    });
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
        <SaveButton busy={busy} />
      </form>
    </section>
  );
}
