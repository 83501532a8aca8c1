import { useTranslation } from '@app/singletons/react-i18n';
import { useShell } from '../app/ShellContext';
import { LocaleLink } from './LocaleLink';

export function Logo() {
  const { brandTitle } = useShell();
  const { t } = useTranslation('shell');
  return (
    <LocaleLink to="/" className="logo" aria-label={t('brand.logo', { title: brandTitle })} end>
      <span className="logo__mark" aria-hidden="true">◆</span>
      <span className="logo__title">{brandTitle}</span>
    </LocaleLink>
  );
}
