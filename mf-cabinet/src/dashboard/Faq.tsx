import { useTranslation } from '@app/singletons/react-i18n';
import { useRemote, useServerData } from '@app/ui';
import { Panel } from './Panel';

/** GET /faq in the page's language, as an accordion (native details: keyboard and screen readers for free). */
export function Faq() {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const { state, reload } = useServerData((signal) => api.call('faq', { signal }), [api, i18n.language]);
  return (
    <Panel id="faq" title={t('faq.title')} state={state} onRetry={reload}>
      {(data) =>
        data.items.length === 0 ? (
          <p className="muted">{t('faq.none')}</p>
        ) : (
          <div className="accordion">
            {data.items.map((q) => (
              <details key={q.id}>
                <summary>{q.question}</summary>
                <p>{q.answer}</p>
              </details>
            ))}
          </div>
        )
      }
    </Panel>
  );
}
