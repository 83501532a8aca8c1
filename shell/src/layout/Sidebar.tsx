import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { useLocation } from '@app/singletons/router';
import { useSetAtom } from 'jotai';
import { POOL_NAMES } from '@app/contracts';
import { useObservable } from '@app/ui';
import { useShell } from '../app/ShellContext';
import { termsOpenAtom } from '../app/uiState';
import { stripLocale } from '../locale/locale';
import { LocaleLink } from './LocaleLink';
import { ThemeSwitch } from './ThemeSwitch';
import { displayName } from './displayName';

/** Spec §2 and §9. */
export const SIDEBAR_COLLAPSED_PX = 125;
export const SIDEBAR_EXPANDED_PX = 320;
export const COPYRIGHT_YEAR = 2022;

/** Spec §2's social links, in its order; each shown when the brand has one (brand.json `social`). */
const SOCIAL = [
  { key: 'twitter', label: 'Twitter' },
  { key: 'telegram', label: 'Telegram' },
  { key: 'discord', label: 'Discord' },
  { key: 'docs', label: 'Docs' },
] as const;

export function Sidebar({ expanded, compact, onToggle, onNavigate }: { expanded: boolean; compact: boolean; onToggle: () => void; onNavigate: () => void }) {
  const { t } = useTranslation('shell');
  const { bus, brandTitle, brand, manifest } = useShell();
  const social = SOCIAL.flatMap((s) => (brand.social[s.key] ? [{ ...s, href: brand.social[s.key] }] : []));
  const session = useObservable(bus.session, bus.session.getValue());
  const openTerms = useSetAtom(termsOpenAtom);
  const location = useLocation();
  const path = stripLocale(location.pathname);
  const onPools = path.startsWith('/cabinet/pools');
  const [poolsOpen, setPoolsOpen] = useState(onPools);
  const submenuId = useId();
  // Opened over the page, the overlay takes the focus, so the keyboard user is inside the menu.
  const toggleRef = useRef<HTMLButtonElement>(null);
  const overlayOpen = compact && expanded;
  useEffect(() => {
    if (overlayOpen) toggleRef.current?.focus();
  }, [overlayOpen]);

  // A submenu closes by itself when the user leaves its pages.
  useEffect(() => {
    if (!onPools) setPoolsOpen(false);
  }, [onPools]);

  const name = session.status === 'authenticated' ? displayName(session.user) : '';
  // The console's link only for its role, and only where this host serves the console at all.
  const role = session.status === 'authenticated' ? session.user.role : null;
  const consoleHere = manifest.remotes.some((r) => r.routes.some((route) => route.role && route.role === role && route.path === '/operator'));
  const avatar = session.status === 'authenticated' ? session.user.avatar : null;
  const link = (to: string, label: string) => (
    <LocaleLink to={to} className={({ isActive }) => `menu__link${isActive ? ' is-active' : ''}`} onClick={onNavigate}>
      {label}
    </LocaleLink>
  );

  return (
    <aside
      id="sidebar"
      className={`sidebar${expanded ? ' is-expanded' : ' is-collapsed'}${compact ? ' is-overlay' : ''}`}
      data-testid="sidebar"
      aria-label={t('nav.menu')}
      hidden={compact && !expanded}
    >
      <div className="sidebar__top">
        <button ref={toggleRef} type="button" className="btn btn--icon sidebar__toggle" aria-expanded={expanded} aria-controls="sidebar" onClick={onToggle}>
          <span aria-hidden="true">☰</span>
          <span className="visually-hidden">{expanded ? t('nav.closeMenu') : t('nav.openMenu')}</span>
        </button>
        {expanded && name ? (
          <p className="sidebar__greeting">
            {avatar ? <img className="sidebar__avatar" src={avatar} alt="" width={40} height={40} data-testid="sidebar-avatar" /> : null}
            <span>{t('header.greeting', { name })}</span>
          </p>
        ) : null}
      </div>
      <nav aria-label={t('nav.main')}>
        <ul className="menu">
          <li>{link('/cabinet/dashboard', t('nav.dashboard'))}</li>
          <li>
            <button type="button" className={`menu__link menu__toggle${onPools ? ' is-active' : ''}`} aria-expanded={poolsOpen} aria-controls={submenuId} onClick={() => setPoolsOpen((o) => !o)}>
              {t('nav.pools')}
            </button>
            <ul id={submenuId} className="menu menu--sub" hidden={!poolsOpen}>
              {POOL_NAMES.map((pool) => (
                <li key={pool}>{link(`/cabinet/pools/${pool}`, t(`nav.${pool}`))}</li>
              ))}
            </ul>
          </li>
          <li>{link('/cabinet/refferal', t('nav.referral'))}</li>
          <li>{link('/cabinet/affiliates', t('nav.affiliates'))}</li>
          <li>{link('/cabinet/dao', t('nav.dao'))}</li>
          <li>{link('/cabinet/settings', t('nav.settings'))}</li>
          {/* Public, like the home page: the proof that the money on the books is held. */}
          <li>{link('/solvency', t('nav.solvency'))}</li>
          {consoleHere ? <li>{link('/operator', t('nav.operator'))}</li> : null}
        </ul>
      </nav>
      {expanded ? (
        <div className="sidebar__bottom">
          <ThemeSwitch name="sidebar-theme" />
          <p className="sidebar__copyright">{t('footer.copyright', { year: COPYRIGHT_YEAR, title: brandTitle })}</p>
          <button type="button" className="btn btn--link" onClick={() => openTerms(true)}>
            {t('footer.terms')}
          </button>
          {social.length > 0 ? (
          <ul className="social" aria-label={t('nav.social')}>
            {social.map((s) => (
              <li key={s.key}>
                <a href={s.href} target="_blank" rel="noreferrer noopener">
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
          ) : null}
        </div>
      ) : null}
    </aside>
  );
}
