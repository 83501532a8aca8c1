import { Link } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { Page, useCabinetRevision, useRemote, useServerData } from '@app/ui';
import { Panel } from './Panel';
import { PoolFigures } from './PoolHeader';

/** /cabinet/pools: the three pools side by side with their rates, TVL, currencies, risk and the user's position. */
export function PoolsOverview() {
  const { t } = useTranslation();
  const { api } = useRemote();
  const { state, reload } = useServerData((signal) => api.call('cabinetSummary', { signal }), [api]);
  useCabinetRevision(api, reload);
  return (
    <Page title={t('overview.title')}>
      <Panel id="pools-overview" title={t('overview.subtitle')} state={state} onRetry={reload}>
        {(s) => (
          <div className="pool-cards">
            {s.pools.map((p) => (
              <article key={p.pool} className="card pool-card" aria-labelledby={`overview-${p.pool}`} data-testid={`overview-${p.pool}`}>
                <h3 id={`overview-${p.pool}`}>{t(`kinds.${p.pool}`)}</h3>
                <PoolFigures pool={p} compact />
                <p className="muted">{t('overview.currencies', { list: p.currencies.join(', ') })}</p>
                <Link className="btn btn--primary btn--sm" to={`/cabinet/pools/${p.pool}`}>
                  {t('overview.open', { pool: t(`kinds.${p.pool}`) })}
                </Link>
              </article>
            ))}
          </div>
        )}
      </Panel>
    </Page>
  );
}
