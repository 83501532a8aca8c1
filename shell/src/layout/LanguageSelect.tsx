import { useTranslation } from '@app/singletons/react-i18n';
import type { Locale } from '@app/contracts';
import { useObservable } from '@app/ui';
import { useShell } from '../app/ShellContext';

/** ENG / RUS: switches the locale path (spec §2) and remembers the choice. */
export function LanguageSelect({ id }: { id: string }) {
  const { bus } = useShell();
  const { t } = useTranslation('shell');
  const locale = useObservable(bus.locale, bus.locale.getValue());
  return (
    <div className="field field--inline">
      <label htmlFor={id}>{t('header.language')}</label>
      <select id={id} value={locale} onChange={(e) => bus.send({ type: 'locale/set', locale: e.target.value as Locale })}>
        <option value="en">ENG</option>
        <option value="ru">RUS</option>
      </select>
    </div>
  );
}
