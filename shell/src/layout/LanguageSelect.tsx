import { useTranslation } from '@app/singletons/react-i18n';
import type { Locale } from '@app/contracts';
import { useObservable } from '@app/ui';
import { useShell } from '../app/ShellContext';
import { useChosen } from './useChosen';

/** ENG / RUS: switches the locale path (spec §2) and remembers the choice. */
export function LanguageSelect({ id }: { id: string }) {
  const { bus } = useShell();
  const { t } = useTranslation('shell');
  const locale = useObservable(bus.locale, bus.locale.getValue());
  const [shown, choose] = useChosen(locale);
  return (
    <div className="field field--inline">
      <label htmlFor={id}>{t('header.language')}</label>
      <select
        id={id}
        value={shown}
        onChange={(e) => {
          const chosen = e.target.value as Locale;
          choose(chosen);
          bus.send({ type: 'locale/set', locale: chosen });
        }}
      >
        <option value="en">ENG</option>
        <option value="ru">RUS</option>
      </select>
    </div>
  );
}
