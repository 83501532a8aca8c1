import { useTranslation } from '@app/singletons/react-i18n';
import { useShell } from '../app/ShellContext';
import { LocaleLink } from './LocaleLink';

export function Logo() {
  const { brandTitle, brand } = useShell();
  const { t } = useTranslation('shell');
  return (
    <LocaleLink to="/" className="logo" aria-label={t('brand.logo', { title: brandTitle })} end>
      {/* The same markup as the server's first paint (brand-page.mjs logoImages), so nothing moves. */}
      <span className="logo__mark" aria-hidden="true">
        {!brand.logo.light ? '◆' : brand.logo.light === brand.logo.dark ? (
          <img className="logo__img" src={brand.logo.light} alt="" width={32} height={32} />
        ) : (
          <>
            <img className="logo__img logo__img--light" src={brand.logo.light} alt="" width={32} height={32} />
            <img className="logo__img logo__img--dark" src={brand.logo.dark} alt="" width={32} height={32} />
          </>
        )}
      </span>
      <span className="logo__title">{brandTitle}</span>
    </LocaleLink>
  );
}
