import { Link } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import type { CabinetSummary } from '@app/contracts';
import { formatDay, formatPercent, formatUsd } from '@app/web3';
import { Amount } from '@app/ui';

export function Totals({ summary }: { summary: CabinetSummary }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { totals } = summary;
  const stats: [string, string, string][] = [
    ['value', t('totals.value'), formatUsd(totals.valueUsd, lang)],
    ['principal', t('totals.principal'), formatUsd(totals.principalUsd, lang)],
    ['interest-all', t('totals.interestAll'), formatUsd(totals.interestUsd.all, lang)],
    ['interest-day', t('totals.interestDay'), formatUsd(totals.interestUsd.day, lang)],
    ['interest-month', t('totals.interestMonth'), formatUsd(totals.interestUsd.month, lang)],
    ['profit', t('totals.profit'), formatUsd(totals.profitUsd, lang)],
  ];
  return (
    <>
      <dl className="grid">
        {stats.map(([id, label, value]) => (
          <div key={id} className="card stat" data-testid={`total-${id}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">{t('totals.note', { day: formatDay(summary.asOf) })}</p>
    </>
  );
}

export function PoolCards({ summary }: { summary: CabinetSummary }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <div className="pool-cards">
      {summary.pools.map((p) => (
        <article key={p.pool} className="card pool-card" data-testid={`pool-card-${p.pool}`} aria-labelledby={`pool-card-${p.pool}-title`}>
          <h3 id={`pool-card-${p.pool}-title`}>{t(`kinds.${p.pool}`)}</h3>
          <p className="stat">
            <span className="muted">{t('cards.apy')}</span>{' '}
            <strong data-testid="apy">{formatPercent(p.apy, lang)}</strong>
            {' · '}
            <span className="muted">{t('cards.apr')}</span> <span data-testid="apr">{formatPercent(p.apr, lang)}</span>
          </p>
          {p.positions.length === 0 ? (
            <p className="muted">{t('cards.noPosition')}</p>
          ) : (
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('cards.currency')}</th>
                  <th scope="col" className="num">{t('cards.balance')}</th>
                  <th scope="col" className="num">{t('cards.earned')}</th>
                </tr>
              </thead>
              <tbody>
                {p.positions.map((pos) => (
                  <tr key={pos.currency} data-testid={`position-${pos.currency}`}>
                    <th scope="row">{pos.currency}</th>
                    <td className="num" data-testid="balance"><Amount units={pos.balance} decimals={summary.decimals[pos.currency] ?? 18} currency={pos.currency} lang={lang} /></td>
                    <td className="num" data-testid="earned"><Amount units={pos.earned} decimals={summary.decimals[pos.currency] ?? 18} currency={pos.currency} lang={lang} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="muted">{t('cards.value', { value: formatUsd(p.valueUsd, lang) })}</p>
          <Link to={`/cabinet/pools/${p.pool}`}>{t('cards.open', { pool: t(`kinds.${p.pool}`) })}</Link>
        </article>
      ))}
    </div>
  );
}

export function DailyRewards({ summary }: { summary: CabinetSummary }) {
  const { t, i18n } = useTranslation();
  const { day, items } = summary.dailyRewards;
  if (!items.length) return <p className="muted">{t('rewards.none')}</p>;
  return (
    <>
      {day ? <p className="muted">{t('rewards.day', { day: formatDay(day) })}</p> : null}
      <table className="data-table data-table--cards">
        <thead>
          <tr>
            <th scope="col">{t('rewards.pool')}</th>
            <th scope="col" className="num">{t('rewards.amount')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((r) => (
            <tr key={`${r.pool}-${r.currency}`} data-testid={`reward-${r.pool}-${r.currency}`}>
              <th scope="row" data-label={t('rewards.pool')}>{t(`kinds.${r.pool}`)}</th>
              <td className="num" data-label={t('rewards.amount')}><Amount units={r.amount} decimals={summary.decimals[r.currency] ?? 18} currency={r.currency} lang={i18n.language} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** A new user's first steps: what the cabinet is for, leading to the first deposit. */
export function EmptyState() {
  const { t } = useTranslation();
  return (
    <section className="section" data-testid="empty-state" aria-labelledby="empty-title">
      <h2 id="empty-title">{t('empty.title')}</h2>
      <p>{t('empty.text')}</p>
      <Link className="btn btn--primary" to="/cabinet/pools/stable">
        {t('empty.cta')}
      </Link>
    </section>
  );
}
