import { useTranslation } from '@app/singletons/react-i18n';
import { THEME_CHOICES } from '@app/contracts';
import { useObservable } from '@app/ui';
import { useShell } from '../app/ShellContext';
import { useChosen } from './useChosen';

/** Light / dark / system, as one radio group. */
export function ThemeSwitch({ name }: { name: string }) {
  const { bus } = useShell();
  const { t } = useTranslation('shell');
  const theme = useObservable(bus.theme, bus.theme.getValue());
  const [shown, choose] = useChosen(theme.choice);
  return (
    <fieldset className="theme-switch">
      <legend>{t('theme.label')}</legend>
      {THEME_CHOICES.map((choice) => (
        <label key={choice} className={`theme-switch__option${shown === choice ? ' is-active' : ''}`}>
          <input
            type="radio"
            name={name}
            value={choice}
            checked={shown === choice}
            onChange={() => {
              choose(choice);
              bus.send({ type: 'theme/set', choice });
            }}
          />
          {t(`theme.${choice}`)}
        </label>
      ))}
    </fieldset>
  );
}
