import { Fragment, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { ACTIVITY_KINDS, POOL_NAMES, type ActivityItem, type ActivityQuery } from '@app/contracts';
import { formatDay } from '@app/web3';
import { Amount, TxLink, useRemote, useServerData } from '@app/ui';
import { Panel } from './Panel';

const PAGE_SIZE = 10;

function statusOf(t: T, i: ActivityItem) {
  if (i.kind === 'deposit' && i.status === 'pending') return t('activity.states.confirming', { n: Math.min(i.confirmations, i.confirmationsRequired), total: i.confirmationsRequired });
  return t(`activity.states.${i.status}`, { defaultValue: i.status });
}

type Filter = Pick<ActivityQuery, 'kind' | 'pool' | 'currency'>;
type T = (k: string, o?: Record<string, unknown>) => string;

/** "November 2026" in the page's language, from "2026-11". */
const monthName = (month: string, lang: string) => new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

function Row({ i, t, lang, decimals, action, testId }: { i: ActivityItem; t: T; lang: string; decimals: Record<string, number>; action?: React.ReactNode; testId?: string }) {
  return (
    <tr data-testid={testId ?? `activity-${i.kind}`}>
      <td data-label={t('activity.date')}>{i.month ? monthName(i.month, lang) : formatDay(i.at)}</td>
      <td data-label={t('activity.type')}>{i.month ? t('activity.kinds.interestMonth', { count: i.days ?? 0 }) : t(`activity.kinds.${i.kind}`)}</td>
      <td data-label={t('activity.pool')}>{t(`kinds.${i.pool}`)}</td>
      <td className="num" data-label={t('activity.amount')}><Amount units={i.amount} decimals={decimals[i.currency] ?? 18} currency={i.currency} lang={lang} /></td>
      <td data-label={t('activity.status')} data-testid="status">{statusOf(t, i)}</td>
      <td data-label={t('activity.transaction')}>{action ?? <TxLink hash={i.transaction} />}</td>
    </tr>
  );
}

/** A month's interest, day by day: read when the month is opened (a month of one pool and currency fits one page). */
function MonthDays({ of, decimals }: { of: ActivityItem; decimals: Record<string, number> }) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const { state } = useServerData(
    (signal) => api.call('cabinetActivity', { query: { page: 1, size: 100, kind: 'interest', pool: of.pool, currency: of.currency as ActivityQuery['currency'], month: of.month }, signal }),
    [api, of.pool, of.currency, of.month, of.amount],
  );
  if (state.status !== 'ready')
    return (
      <tr>
        <td colSpan={6} role={state.status === 'error' ? 'alert' : 'status'} className={state.status === 'error' ? 'alert alert--error' : 'muted'}>
          {state.status === 'error' ? t('loadFailed', { message: state.message }) : t('loading')}
        </td>
      </tr>
    );
  return (
    <>
      {state.data.items.map((d) => (
        <Row key={d.at} i={d} t={t} lang={i18n.language} decimals={decimals} testId="activity-interest-day" />
      ))}
    </>
  );
}

/**
 * Deposits with their confirmations, interest a month to a row (its days on demand) and withdrawals
 * with their states; filtered and paged by the server; all of it as CSV, or in Koinly's layout for tax.
 */
export function Activity({ revision, decimals }: { revision: string; decimals: Record<string, number> }) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<Filter>({});
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [exporting, setExporting] = useState<'idle' | 'busy' | 'failed'>('idle');
  // What the last tax file left out (the server counts it): unsettled and returned movements.
  const [leftOut, setLeftOut] = useState<{ inFlight: number; returned: number } | null>(null);
  const { state, reload } = useServerData(
    (signal) => api.call('cabinetActivity', { query: { page, size: PAGE_SIZE, interest: 'month', ...filter }, signal }),
    [api, page, revision, filter.kind, filter.pool, filter.currency],
  );
  const currencies = Object.keys(decimals).sort();

  const choose = (key: keyof Filter) => (e: React.ChangeEvent<HTMLSelectElement>) => {
    const value = e.target.value || undefined;
    setFilter((f) => ({ ...f, [key]: value }));
    setPage(1);
  };
  const toggle = (key: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const exportCsv = async (format: 'activity' | 'koinly') => {
    setExporting('busy');
    try {
      const file = await (format === 'koinly' ? api.call('cabinetActivityExport', { query: { format } }) : api.call('cabinetActivityExport'));
      const { csv, filename } = file;
      if (format === 'koinly') setLeftOut(file.leftOut ?? null);
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
    <div className="activity__actions">
      <button type="button" className="btn btn--outline btn--sm" onClick={() => exportCsv('activity')} disabled={exporting === 'busy'}>
        {t('activity.export')}
      </button>
      <button type="button" className="btn btn--outline btn--sm" onClick={() => exportCsv('koinly')} disabled={exporting === 'busy'} title={t('activity.exportTaxHint')}>
        {t('activity.exportTax')}
      </button>
    </div>
  );
  const select = (key: keyof Filter, label: string, options: { value: string; label: string }[]) => (
    <div className="field">
      <label htmlFor={`activity-${key}`}>{label}</label>
      <select id={`activity-${key}`} value={filter[key] ?? ''} onChange={choose(key)}>
        <option value="">{t('activity.all')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  const filters = (
    <div className="activity__filters" role="group" aria-label={t('activity.filters')}>
      {select('kind', t('activity.type'), ACTIVITY_KINDS.map((k) => ({ value: k, label: t(`activity.kinds.${k}`) })))}
      {select('pool', t('activity.pool'), POOL_NAMES.map((p) => ({ value: p, label: t(`kinds.${p}`) })))}
      {select('currency', t('activity.currency'), currencies.map((c) => ({ value: c, label: c })))}
    </div>
  );
  return (
    <Panel id="activity" title={t('activity.title')} state={state} onRetry={reload} head={head}>
      {(data) => (
        <>
          {exporting === 'failed' ? <p className="alert alert--error" role="alert">{t('activity.exportFailed')}</p> : null}
          {leftOut && (leftOut.inFlight > 0 || leftOut.returned > 0) ? (
            <p className="muted" role="status" data-testid="tax-left-out">
              {[leftOut.inFlight > 0 ? t('activity.taxInFlight', { count: leftOut.inFlight }) : '', leftOut.returned > 0 ? t('activity.taxReturned', { count: leftOut.returned }) : ''].filter(Boolean).join(' ')}
            </p>
          ) : null}
          {filters}
          {data.items.length === 0 ? (
            <p className="muted">{filter.kind || filter.pool || filter.currency ? t('activity.noneFiltered') : t('activity.none')}</p>
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
                {data.items.map((i) => {
                  if (!i.month) return <Row key={`${i.kind}-${i.id ?? `${i.pool}-${i.currency}-${i.at}`}`} i={i} t={t} lang={i18n.language} decimals={decimals} />;
                  const key = `${i.pool}-${i.currency}-${i.month}`;
                  const shown = open.has(key);
                  const name = `${monthName(i.month, i18n.language)}, ${t(`kinds.${i.pool}`)}, ${i.currency}`;
                  const action = (
                    <button type="button" className="btn btn--link" aria-expanded={shown} onClick={() => toggle(key)} aria-label={t(shown ? 'activity.hideDaysOf' : 'activity.showDaysOf', { name })}>
                      {t(shown ? 'activity.hideDays' : 'activity.showDays')}
                    </button>
                  );
                  return (
                    <Fragment key={key}>
                      <Row i={i} t={t} lang={i18n.language} decimals={decimals} action={action} testId="activity-interest-month" />
                      {shown ? <MonthDays of={i} decimals={decimals} /> : null}
                    </Fragment>
                  );
                })}
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
