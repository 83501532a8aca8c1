import { useCallback, useEffect, useRef, useState } from 'react';
import { Outlet } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { useObservable } from '@app/ui';
import { useShell } from '../app/ShellContext';
import { Sidebar } from './Sidebar';
import { useCompactViewport } from './useViewport';
import { displayName } from './displayName';
import { LanguageSelect } from './LanguageSelect';
import { WalletMenu } from './WalletMenu';
import { Notifications } from '../notifications/Notifications';

/** The cabinet: collapsible sidebar, header with greeting and wallet, and the remote's page. */
export function InnerLayout() {
  const { t } = useTranslation('shell');
  const { bus } = useShell();
  const compact = useCompactViewport();
  const [expandedWide, setExpandedWide] = useState(true);
  const [expandedCompact, setExpandedCompact] = useState(false);
  const expanded = compact ? expandedCompact : expandedWide;
  const toggle = useCallback(() => (compact ? setExpandedCompact((e) => !e) : setExpandedWide((e) => !e)), [compact]);
  // On a phone or a narrow window the menu covers the page, so it closes after a choice.
  const onNavigate = useCallback(() => compact && setExpandedCompact(false), [compact]);
  // When the overlay closes, the focus it held would be lost on a hidden element: it goes back
  // to the button that opens the menu.
  const openMenuRef = useRef<HTMLButtonElement>(null);
  const overlayWasOpen = useRef(false);
  useEffect(() => {
    const overlayOpen = compact && expanded;
    if (overlayWasOpen.current && !overlayOpen) {
      const focused = document.activeElement;
      if (!focused || focused === document.body || document.getElementById('sidebar')?.contains(focused)) openMenuRef.current?.focus();
    }
    overlayWasOpen.current = overlayOpen;
  }, [compact, expanded]);

  const session = useObservable(bus.session, bus.session.getValue());
  const wallet = useObservable(bus.wallet, bus.wallet.getValue());
  const user = session.status === 'authenticated' ? session.user : null;
  const linked = user?.metaMaskAddress ?? null;

  return (
    <div className={`inner-layout${compact ? ' is-compact' : ''}${expanded ? ' sidebar-expanded' : ''}`}>
      <Sidebar expanded={expanded} compact={compact} onToggle={toggle} onNavigate={onNavigate} />
      <div className="inner-layout__main">
        <header className="header">
          {compact && !expanded ? (
            <button ref={openMenuRef} type="button" className="btn btn--icon" aria-expanded={false} aria-controls="sidebar" onClick={toggle}>
              <span aria-hidden="true">☰</span>
              <span className="visually-hidden">{t('nav.openMenu')}</span>
            </button>
          ) : null}
          <p className="header__greeting">{user ? t('header.greeting', { name: displayName(user) }) : t('header.greetingGuest')}</p>
          <div className="header__actions">
            <LanguageSelect id="inner-language" />
            <WalletMenu linked={linked} wallet={wallet} />
            {user ? (
              <button type="button" className="btn btn--gray" onClick={() => bus.send({ type: 'session/logout' })}>
                {t('header.logout')}
              </button>
            ) : null}
          </div>
        </header>
        <Notifications layout="cabinet" />
        <main className="content" id="main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
