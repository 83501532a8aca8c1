import { Outlet } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { useSetAtom } from 'jotai';
import { termsOpenAtom } from '../app/uiState';
import { LanguageSelect } from './LanguageSelect';
import { LocaleLink } from './LocaleLink';
import { Logo } from './Logo';
import { Notifications } from '../notifications/Notifications';
import { ThemeSwitch } from './ThemeSwitch';

/** Sign-in, sign-up and the other visitor pages. */
export function AuthLayout() {
  const { t } = useTranslation('shell');
  const openTerms = useSetAtom(termsOpenAtom);
  return (
    <div className="auth-layout">
      <header className="header header--auth">
        <Logo />
        <div className="header__actions">
          <LanguageSelect id="auth-language" />
          <LocaleLink to="/sign-in" className="btn btn--outline">
            {t('header.signIn')}
          </LocaleLink>
          <LocaleLink to="/sign-up" className="btn btn--primary">
            {t('header.signUp')}
          </LocaleLink>
        </div>
      </header>
      <Notifications layout="auth" />
      <main className="content content--auth" id="main">
        <Outlet />
      </main>
      <footer className="footer">
        <ThemeSwitch name="auth-theme" />
        <button type="button" className="btn btn--link" onClick={() => openTerms(true)}>
          {t('footer.terms')}
        </button>
      </footer>
    </div>
  );
}
