import { useTranslation } from '@app/singletons/react-i18n';
import { TableScroll } from '@app/ui';
import { useOperatorRead } from '../client';
import { bpsPercent, coinText, utcTime } from '../format';

type OverviewData = {
  ledger: { ok: boolean; checkedAt: string };
  jobs: { job: string; lastRunAt: string | null; lastError: string | null }[];
  watcher: { head: number | null; watched: number | null; lagBlocks: number | null };
  accrual: { pool: string; lastDay: string }[];
  payoutQueue: { count: number; oldestAgeSeconds: number | null };
  openAlerts: number;
};
type ReconcileRow = { pool: string; currency: string; address: string; onChain: string | null; books: string; difference: string | null; liabilities: string; covered: boolean | null };

/**
 * Reserves over what the books owe, per currency, from the reconciliation's rows: exact, in basis
 * points rounded down (bigint), or null where nothing is owed or a balance could not be read.
 */
export function solvencyBps(rows: ReconcileRow[]): { currency: string; bps: bigint | null }[] {
  const by = new Map<string, { held: bigint; owed: bigint; unknown: boolean }>();
  for (const r of rows) {
    const c = by.get(r.currency) ?? { held: 0n, owed: 0n, unknown: false };
    if (r.onChain === null) c.unknown = true;
    else c.held += BigInt(r.onChain);
    c.owed += BigInt(r.liabilities);
    by.set(r.currency, c);
  }
  return [...by].map(([currency, c]) => ({ currency, bps: c.unknown || c.owed === 0n ? null : (c.held * 10_000n) / c.owed }));
}


/** The overview: the ledger check, job health, the reconciliation with its differences, solvency. */
export function Overview() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const overview = useOperatorRead<OverviewData>('overview');
  const reconcile = useOperatorRead<{ items: ReconcileRow[] }>('reconcile');
  const o = overview.data;
  const age = o?.payoutQueue.oldestAgeSeconds;
  return (
    <>
      {overview.error ? (
        <p className="alert alert--error" role="alert">
          {overview.error}
        </p>
      ) : !o ? (
        <p aria-busy="true">{t('form.loading')}</p>
      ) : (
        <div className="operator__grid">
          <section className="card" aria-labelledby="ov-ledger">
            <h2 id="ov-ledger">{t('overview.ledger.title')}</h2>
            <p className={o.ledger.ok ? 'operator__ok' : 'operator__bad'} data-testid="ledger-check">
              {o.ledger.ok ? t('overview.ledger.ok') : t('overview.ledger.failed')}
            </p>
            <p className="muted">{t('overview.ledger.at', { at: utcTime(o.ledger.checkedAt) })}</p>
          </section>
          <section className="card" aria-labelledby="ov-health">
            <h2 id="ov-health">{t('overview.health.title')}</h2>
            <dl className="settings__facts">
              <dt>{t('overview.health.watcherLag')}</dt>
              <dd data-testid="watcher-lag">{o.watcher.lagBlocks === null ? t('overview.unknown') : t('overview.health.blocks', { count: o.watcher.lagBlocks })}</dd>
              <dt>{t('overview.health.lastAccrued')}</dt>
              <dd>{o.accrual.length ? o.accrual.map((a) => `${a.pool}: ${a.lastDay}`).join(', ') : t('overview.none')}</dd>
              <dt>{t('overview.health.queue')}</dt>
              <dd data-testid="payout-queue">
                {t('overview.health.queued', { count: o.payoutQueue.count })}
                {age != null ? ` · ${t('overview.health.oldest', { minutes: Math.floor(age / 60) })}` : ''}
              </dd>
              <dt>{t('overview.health.alerts')}</dt>
              <dd className={o.openAlerts ? 'operator__bad' : undefined}>{o.openAlerts}</dd>
            </dl>
          </section>
          <section className="card operator__wide" aria-labelledby="ov-jobs">
            <h2 id="ov-jobs">{t('overview.jobs.title')}</h2>
            <TableScroll labelledBy="ov-jobs">
              <table className="data-table data-table--cards">
                <thead>
                  <tr>
                    <th scope="col">{t('overview.jobs.job')}</th>
                    <th scope="col">{t('overview.jobs.lastRun')}</th>
                    <th scope="col">{t('overview.jobs.lastError')}</th>
                  </tr>
                </thead>
                <tbody>
                  {o.jobs.map((j) => (
                    <tr key={j.job} className={j.lastError ? 'operator__row--bad' : undefined} data-testid="job">
                      <th scope="row" data-label={t('overview.jobs.job')}>{j.job}</th>
                      <td data-label={t('overview.jobs.lastRun')}>{j.lastRunAt ? utcTime(j.lastRunAt) : t('overview.never')}</td>
                      <td data-label={t('overview.jobs.lastError')}>{j.lastError ?? t('overview.none')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </section>
        </div>
      )}
      <section className="card operator__wide" aria-labelledby="ov-reconcile">
        <h2 id="ov-reconcile">{t('overview.reconcile.title')}</h2>
        {reconcile.error ? (
          <p className="alert alert--error" role="alert">
            {reconcile.error}
          </p>
        ) : !reconcile.data ? (
          <p aria-busy="true">{t('form.loading')}</p>
        ) : (
          <>
            <ul className="operator__solvency" aria-label={t('overview.solvency.title')}>
              {solvencyBps(reconcile.data.items).map((s) => (
                <li key={s.currency} data-testid="solvency">
                  {t('overview.solvency.ratio', { currency: s.currency, ratio: s.bps === null ? t('overview.unknown') : bpsPercent(s.bps, lang, 2) })}
                </li>
              ))}
            </ul>
            <TableScroll labelledBy="ov-reconcile">
              <table className="data-table data-table--cards">
                <thead>
                  <tr>
                    <th scope="col">{t('overview.reconcile.pool')}</th>
                    <th scope="col">{t('overview.reconcile.address')}</th>
                    <th scope="col" className="num">{t('overview.reconcile.onChain')}</th>
                    <th scope="col" className="num">{t('overview.reconcile.books')}</th>
                    <th scope="col" className="num">{t('overview.reconcile.difference')}</th>
                    <th scope="col" className="num">{t('overview.reconcile.owed')}</th>
                  </tr>
                </thead>
                <tbody>
                  {reconcile.data.items.map((r) => {
                    const differs = r.difference === null || r.difference !== '0';
                    return (
                      <tr key={`${r.pool}:${r.address}:${r.currency}`} className={differs ? 'operator__row--bad' : undefined} data-testid="reconcile-row" data-differs={differs}>
                        <th scope="row" data-label={t('overview.reconcile.pool')}>{`${r.pool} · ${r.currency}`}</th>
                        <td data-label={t('overview.reconcile.address')} className="operator__mono">{r.address}</td>
                        <td data-label={t('overview.reconcile.onChain')} className="num">{r.onChain === null ? t('overview.unknown') : coinText(r.onChain, r.currency, lang)}</td>
                        <td data-label={t('overview.reconcile.books')} className="num">{coinText(r.books, r.currency, lang)}</td>
                        <td data-label={t('overview.reconcile.difference')} className="num">
                          {r.difference === null ? t('overview.unknown') : coinText(r.difference, r.currency, lang)}
                          {differs ? <span className="operator__flag"> {t('overview.reconcile.differs')}</span> : null}
                        </td>
                        <td data-label={t('overview.reconcile.owed')} className="num">{coinText(r.liabilities, r.currency, lang)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableScroll>
          </>
        )}
      </section>
    </>
  );
}
