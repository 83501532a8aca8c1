import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { ActivityItem } from '@app/contracts';
import { formatDay } from '@app/web3';
import { TxLink, useRemote, useServerData } from '@app/ui';
import { Panel } from './Panel';
import { coinText } from './money';

const PAGE_SIZE = 10;

function statusOf(t: (k: string, o?: Record<string, unknown>) => string, i: ActivityItem) {
  if (i.kind === 'deposit' && i.status === 'pending') return t('activity.states.confirming', { n: Math.min(i.confirmations, i.confirmationsRequired), total: i.confirmationsRequired });
  return t(`activity.states.${i.status}`, { defaultValue: i.status });
}

/** Deposits with their confirmations, daily interest and withdrawals with their states; paged by the server; all of it as CSV. */
export function Activity({ revision, decimals }: { revision: string; decimals: Record<string, number> }) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState<'idle' | 'busy' | 'failed'>('idle');
  const { state, reload } = useServerData((signal) => api.call('cabinetActivity', { query: { page, size: PAGE_SIZE }, signal }), [api, page, revision]);

  const exportCsv = async () => {
    setExporting('busy');
    try {
      const { csv, filename } = await api.call('cabinetActivityExport');
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      setExporting('idle');
    } catch {
      setExporting('failed');
    }
  };

  const head = (
    <button type="button" className="btn btn--outline btn--sm" onClick={exportCsv} disabled={exporting === 'busy'}>
      {t('activity.export')}
    </button>
  );
  return (
    <Panel id="activity" title={t('activity.title')} state={state} onRetry={reload} head={head}>
      {(data) => (
        <>
          {exporting === 'failed' ? <p className="alert alert--error" role="alert">{t('activity.exportFailed')}</p> : null}
          {data.items.length === 0 ? (
            <p className="muted">{t('activity.none')}</p>
          ) : (
            <table className="data-table data-table--cards">
              <thead>
                <tr>
                  <th scope="col">{t('activity.date')}</th>
                  <th scope="col">{t('activity.type')}</th>
                  <th scope="col">{t('activity.pool')}</th>
                  <th scope="col" className="num">{t('activity.amount')}</th>
                  <th scope="col">{t('activity.status')}</th>
                  <th scope="col">{t('activity.transaction')}</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((i) => (
                  <tr key={`${i.kind}-${i.id ?? `${i.pool}-${i.currency}-${i.at}`}`} data-testid={`activity-${i.kind}`}>
                    <td data-label={t('activity.date')}>{formatDay(i.at)}</td>
                    <td data-label={t('activity.type')}>{t(`activity.kinds.${i.kind}`)}</td>
                    <td data-label={t('activity.pool')}>{t(`kinds.${i.pool}`)}</td>
                    <td className="num" data-label={t('activity.amount')}>{coinText(i.amount, i.currency, i18n.language, decimals)}</td>
                    <td data-label={t('activity.status')} data-testid="status">{statusOf(t, i)}</td>
                    <td data-label={t('activity.transaction')}>
                      <TxLink hash={i.transaction} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {data.total > PAGE_SIZE ? (
            <nav className="pager" aria-label={t('activity.pages')}>
              <button type="button" className="btn btn--gray btn--sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                {t('activity.previous')}
              </button>
              <span>{t('activity.page', { page: data.page, pages: Math.ceil(data.total / PAGE_SIZE) })}</span>
              <button type="button" className="btn btn--gray btn--sm" disabled={page * PAGE_SIZE >= data.total} onClick={() => setPage((p) => p + 1)}>
                {t('activity.next')}
              </button>
            </nav>
          ) : null}
        </>
      )}
    </Panel>
  );
}
