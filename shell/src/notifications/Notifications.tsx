import { useTranslation } from '@app/singletons/react-i18n';
import { useObservable } from '@app/ui';
import type { NotificationCenter } from './notifications';

export function Notifications({ center }: { center: NotificationCenter }) {
  const { t } = useTranslation('shell');
  const items = useObservable(center.shown, center.shown.getValue());
  return (
    <section className="notifications" aria-label={t('notifications.region')}>
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
