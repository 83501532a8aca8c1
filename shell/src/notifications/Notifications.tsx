import { createContext, useContext } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { useObservable } from '@app/ui';
import type { NotificationCenter } from './notifications';

/** The shell's notification center, for the layout that shows its notices. */
export const NotificationsContext = createContext<NotificationCenter | null>(null);

/**
 * The notices, where the layout puts them (issue 27, finding 6): in the page's flow between the
 * header and the page, top-center as the spec says for the sign-in layout, and above the page's
 * content beside the sidebar in the cabinet. A notice moves the page down instead of covering its
 * title or a button.
 */
export function Notifications({ layout }: { layout: 'auth' | 'cabinet' }) {
  const center = useContext(NotificationsContext);
  return center ? <NoticeList center={center} layout={layout} /> : null;
}

function NoticeList({ center, layout }: { center: NotificationCenter; layout: 'auth' | 'cabinet' }) {
  const { t } = useTranslation('shell');
  const items = useObservable(center.shown, center.shown.getValue());
  return (
    <section className={`notifications notifications--${layout}`} aria-label={t('notifications.region')}>
      <ul aria-live="polite">
        {items.map((n) => (
          <li key={n.id} className={`notification notification--${n.kind}`}>
            {/* The role sits inside the item: on the <li> it would hide the list item from assistive technology. */}
            <div className="notification__body" role={n.kind === 'error' || n.kind === 'warning' ? 'alert' : 'status'}>
              <strong className="notification__title">{n.title ?? t(`notifications.${n.kind}`)}</strong>
              <span className="notification__message">{n.message}</span>
              {n.link ? (
                <a href={n.link.href} target="_blank" rel="noreferrer noopener">
                  {n.link.label}
                </a>
              ) : null}
            </div>
            <button type="button" className="btn btn--icon" aria-label={t('notifications.dismiss')} onClick={() => center.dismiss(n.id)}>
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
