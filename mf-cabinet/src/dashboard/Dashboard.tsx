import { Link } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { Page, useCabinetRevision, useRemote, useServerData } from '@app/ui';
import { Activity } from './Activity';
import { BalanceHistory } from './BalanceHistory';
import { Faq } from './Faq';
import { Panel } from './Panel';
import { DailyRewards, EmptyState, PoolCards, Totals } from './Summary';
import { Tutorial } from './Tutorial';

/** What the user has and earns; figures follow the server within seconds, without a reload. */
export function Dashboard() {
  const { t } = useTranslation();
  const { api } = useRemote();
  const { state, reload } = useServerData((signal) => api.call('cabinetSummary', { signal }), [api]);
  useCabinetRevision(api, reload);
  const revision = state.status === 'ready' ? state.data.revision : '';
  return (
    <Page title={t('dashboard.title')}>
      {state.status === 'ready' ? <Tutorial summary={state.data} onChanged={reload} /> : null}
      {state.status === 'ready' && state.data.empty ? <EmptyState /> : null}
      <Panel id="totals" title={t('totals.title')} state={state} onRetry={reload}>
        {(s) => <Totals summary={s} />}
      </Panel>
      <Panel id="pools" title={t('cards.title')} state={state} onRetry={reload}>
        {(s) => <PoolCards summary={s} />}
      </Panel>
      <Panel id="daily-rewards" title={t('rewards.title')} state={state} onRetry={reload}>
        {(s) => <DailyRewards summary={s} />}
      </Panel>
      {state.status === 'ready' ? <BalanceHistory summary={state.data} revision={revision} /> : null}
      <Activity revision={revision} />
      <Faq />
      <p>
        <Link to="/cabinet/dao">{t('dao.link')}</Link>
      </p>
    </Page>
  );
}
