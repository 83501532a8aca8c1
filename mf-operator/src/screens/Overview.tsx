import { useTranslation } from '@app/singletons/react-i18n';
import { DataTable } from '@app/ui';
import { useOperatorRead } from '../client';
import { bpsPercent, coinText, utcTime } from '../format';
import { SolvencyProofs } from './SolvencyProofs';

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

/** A row whose books and chain disagree, or whose chain balance could not be read. */
const differs = (r: ReconcileRow) => r.difference === null || r.difference !== '0';

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
            <DataTable
              captionId="ov-jobs"
              columns={[
                { key: 'job', header: t('overview.jobs.job'), cell: (j) => j.job },
                { key: 'lastRun', header: t('overview.jobs.lastRun'), cell: (j) => (j.lastRunAt ? utcTime(j.lastRunAt) : t('overview.never')) },
                { key: 'lastError', header: t('overview.jobs.lastError'), cell: (j) => j.lastError ?? t('overview.none') },
              ]}
              rows={o.jobs}
              rowKey={(j) => j.job}
              rowAttrs={(j) => ({ className: j.lastError ? 'operator__row--bad' : undefined, 'data-testid': 'job' })}
            />
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
            <DataTable
              captionId="ov-reconcile"
              columns={[
                { key: 'pool', header: t('overview.reconcile.pool'), cell: (r) => `${r.pool} · ${r.currency}` },
                { key: 'address', header: t('overview.reconcile.address'), cell: (r) => r.address, className: 'operator__mono' },
                { key: 'onChain', header: t('overview.reconcile.onChain'), cell: (r) => (r.onChain === null ? t('overview.unknown') : coinText(r.onChain, r.currency, lang)), numeric: true },
                { key: 'books', header: t('overview.reconcile.books'), cell: (r) => coinText(r.books, r.currency, lang), numeric: true },
                {
                  key: 'difference',
                  header: t('overview.reconcile.difference'),
                  cell: (r) => (
                    <>
                      {r.difference === null ? t('overview.unknown') : coinText(r.difference, r.currency, lang)}
                      {differs(r) ? <span className="operator__flag"> {t('overview.reconcile.differs')}</span> : null}
                    </>
                  ),
                  numeric: true,
                },
                { key: 'owed', header: t('overview.reconcile.owed'), cell: (r) => coinText(r.liabilities, r.currency, lang), numeric: true },
              ]}
              rows={reconcile.data.items}
              rowKey={(r) => `${r.pool}:${r.address}:${r.currency}`}
              rowAttrs={(r) => ({ className: differs(r) ? 'operator__row--bad' : undefined, 'data-testid': 'reconcile-row', 'data-differs': differs(r) })}
            />
          </>
        )}
      </section>
      <SolvencyProofs />
    </>
  );
}
