import { Link } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import type { PoolsOverviewResponse } from '@app/contracts';
import { Page, TableScroll, useRemote, useServerData } from '@app/ui';
import { formatPercent, formatUsd } from '@app/web3';
import { Reserves, coinFigure } from './Reserves';

/**
 * The public home page (issue 27): what a visitor needs before trusting the site with money — each
 * pool's yield, value locked, risk and its reason, where the yield comes from, the fees and the
 * reserves — and the way in. Every figure is the API's, read from the books.
 */
export function HomePage() {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const lang = i18n.language;
  const { state, reload } = useServerData((signal) => api.call('poolsOverview', { signal }), [api, lang]);

  return (
    <Page title={t('home.title')}>
      <p className="home__lead">{t('home.lead')}</p>
      <p className="home__actions">
        <Link to="/sign-up" className="btn btn--primary">
          {t('home.signUp')}
        </Link>
        <Link to="/sign-in" className="btn btn--outline">
          {t('home.signIn')}
        </Link>
      </p>
      {state.status === 'loading' ? (
        <p className="muted" role="status">
          {t('loading')}
        </p>
      ) : state.status === 'error' ? (
        <p className="alert alert--error" role="alert">
          {t('home.unavailable')}{' '}
          <button type="button" className="btn btn--link" onClick={reload}>
            {t('home.retry')}
          </button>
        </p>
      ) : (
        <Overview data={state.data} lang={lang} />
      )}
    </Page>
  );
}

function Overview({ data, lang }: { data: PoolsOverviewResponse; lang: string }) {
  const { t } = useTranslation();
  const coin = (units: string, currency: string) => coinFigure(units, currency, data.decimals, lang);
  return (
    <>
      <section className="section" aria-labelledby="home-pools">
        <h2 id="home-pools">{t('home.pools')}</h2>
        <p className="muted">{t('home.poolsNote', { day: data.asOf })}</p>
        <div className="pool-cards">
          {data.pools.map((p) => (
            <article key={p.pool} className="card pool-card" data-testid={`home-pool-${p.pool}`} aria-labelledby={`home-pool-${p.pool}-title`}>
              <h3 id={`home-pool-${p.pool}-title`}>{p.title}</h3>
              <dl className="home__figures">
                <div className="stat">
                  <dt>{t('home.apy')}</dt>
                  <dd data-testid="apy">{formatPercent(p.apy, lang)}</dd>
                </div>
                <div className="stat">
                  <dt>{t('home.apr')}</dt>
                  <dd data-testid="apr">{formatPercent(p.apr, lang)}</dd>
                </div>
                <div className="stat">
                  <dt>{t('home.tvl')}</dt>
                  <dd data-testid="tvl">{formatUsd(p.tvlUsd, lang)}</dd>
                </div>
              </dl>
              <p>
                <strong>{t('home.risk', { level: t(`home.risks.${p.riskLevel}`, { defaultValue: p.riskLevel }) })}</strong>{' '}
                <span data-testid="risk-reason">{p.riskReason}</span>
              </p>
              <p>
                <span className="muted">{t('home.source')}</span> {p.description}
              </p>
              <p className="muted">{t('home.currencies', { list: p.currencies.join(', ') })}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="section" aria-labelledby="home-fees">
        <h2 id="home-fees">{t('home.fees')}</h2>
        <p>{t('home.depositFee')}</p>
        {data.withdrawal.length === 0 ? (
          <p>{t('home.noWithdrawals')}</p>
        ) : (
          <>
            <p>{t('home.withdrawalFee')}</p>
            <TableScroll labelledBy="home-fees">
              <table className="data-table" data-testid="home-fees">
                <thead>
                  <tr>
                    <th scope="col">{t('home.currency')}</th>
                    <th scope="col" className="num">{t('home.fee')}</th>
                    <th scope="col" className="num">{t('home.minimum')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.withdrawal.map((w) => (
                    <tr key={w.currency} data-testid={`fee-${w.currency}`}>
                      <th scope="row">{w.currency}</th>
                      <td className="num">{coin(w.fee, w.currency)}</td>
                      <td className="num">{coin(w.minimum, w.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        )}
      </section>

      <Reserves pools={data.pools.map((p) => ({ pool: p.pool, title: p.title }))} decimals={data.decimals} lang={lang} />
    </>
  );
}
