import { lazy } from 'react';
import { Link } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import { Page, useCabinetRevision, useRemote, useServerData } from '@app/ui';
import { Deferred } from './Deferred';
import { Panel } from './Panel';
import { DailyRewards, EmptyState, PoolCards, Totals } from './Summary';
import { Tutorial } from './Tutorial';

const BalanceHistory = lazy(() => import(/* webpackChunkName: "balance-history" */ './BalanceHistory').then((m) => ({ default: m.BalanceHistory })));
const Activity = lazy(() => import(/* webpackChunkName: "activity" */ './Activity').then((m) => ({ default: m.Activity })));
const SolvencyCheck = lazy(() => import(/* webpackChunkName: "solvency-check" */ './SolvencyCheck').then((m) => ({ default: m.SolvencyCheck })));
const Faq = lazy(() => import(/* webpackChunkName: "faq" */ './Faq').then((m) => ({ default: m.Faq })));

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
      {/* The user's proof of solvency, checked in this browser. Below the figures, so its chunk (the
          verifier, with ethers' signature check) and its calls' schemas come after the first screen;
          placed once the figures are in, for before that the page is short and it would be near the
          screen at once. */}
      {state.status === 'loading' ? null : (
        <Deferred name="solvency-check" minHeight={48}>
          <SolvencyCheck />
        </Deferred>
      )}
      {state.status === 'ready' ? (
        <Deferred name="balance-history" minHeight={320}>
          <BalanceHistory summary={state.data} revision={revision} />
        </Deferred>
      ) : null}
      {state.status === 'ready' && !state.data.empty ? (
        <Deferred name="activity" minHeight={240}>
          <Activity revision={revision} decimals={state.data.decimals} />
        </Deferred>
      ) : null}
      {/* Placed once the figures are in: before that the page is short, the F.A.Q. would be
          near the screen at once and its call would fetch every other screen's schemas. */}
      {state.status === 'loading' ? null : (
        <Deferred name="faq">
          <Faq />
        </Deferred>
      )}
      <p>
        <Link to="/cabinet/dao">{t('dao.link')}</Link>
      </p>
    </Page>
  );
}
