import { useTranslation } from '@app/singletons/react-i18n';
import { LanguageSelect } from './LanguageSelect';
import { LocaleLink } from './LocaleLink';
import { Notifications } from '../notifications/Notifications';

const MENU = [
  ['/cabinet/dashboard', 'nav.dashboard'],
  ['/cabinet/pools/stable', 'nav.pools'],
  ['/cabinet/refferal', 'nav.referral'],
  ['/cabinet/settings', 'nav.settings'],
] as const;

/**
 * The cabinet's frame while its layout loads: the same markup the shell's server sends as the
 * page's first paint (shared/build/frame.mjs), so taking over from it moves nothing.
 */
export function CabinetFrame() {
  const { t } = useTranslation('shell');
  return (
    <div className="inner-layout sidebar-expanded">
      <aside className="sidebar is-expanded sidebar--frame" aria-label={t('nav.menu')}>
        <nav aria-label={t('nav.main')}>
          <ul className="menu">
            {MENU.map(([path, key]) => (
              <li key={path}>
                <LocaleLink to={path} className="menu__link">
                  {t(key)}
                </LocaleLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="inner-layout__main">
        <header className="header">
          <p className="header__greeting">{t('header.greetingGuest')}</p>
          <div className="header__actions">
            <LanguageSelect id="inner-language" />
          </div>
        </header>
        <Notifications layout="cabinet" />
        <main className="content" id="main">
          <p className="remote-loading">{t('remote.loading')}</p>
        </main>
      </div>
    </div>
  );
}
