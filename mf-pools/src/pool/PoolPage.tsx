import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { PoolName } from '@app/contracts';
import { Page, useCabinetRevision, useRemote, useServerData } from '@app/ui';
import { Assets, Converter, Graph, PoolFigures, RoiCalculator, Strategy, Withdrawals } from '../insight';
import { DepositForm, DepositHistory, DepositProgress, useDepositFlow } from '../deposit';
import { WithdrawForm } from '../withdraw';
import { PoolTabs } from './PoolTabs';
import { poolCoins } from './poolCoins';
import { usePool } from './usePool';

/**
 * A pool: its figures, deposit and withdraw tabs, deposits in progress, the user's deposits and
 * withdrawals, converter and ROI calculator, assets, strategy and history. Follows the server's
 * changes (a credited deposit, interest, a paid withdrawal) without a reload.
 */
export function PoolPage({ pool }: { pool: PoolName }) {
  const { t } = useTranslation();
  const { state, reload } = usePool(pool);
  const [historyGeneration, setHistoryGeneration] = useState(0);
  const coins = useMemo(() => poolCoins(state.data), [state.data]);

  const changed = useCallback(() => {
    reload();
    setHistoryGeneration((g) => g + 1);
  }, [reload]);
  const flow = useDepositFlow({ pool, onChanged: changed });
  const { api } = useRemote();
  const summary = useServerData((signal) => api.call('cabinetSummary', { signal }), [api, historyGeneration]);
  const figures = summary.state.status === 'ready' ? summary.state.data.pools.find((p) => p.pool === pool) : undefined;
  useCabinetRevision(api, changed);

  return (
    <Page title={t('pool.title', { pool: t(`kinds.${pool}`) })}>
      {state.status === 'loading' ? (
        <p role="status" aria-busy="true">{t('pool.loading')}</p>
      ) : state.status === 'error' ? (
        <div className="alert alert--error" role="alert">
          {t('pool.loadFailed', { message: state.message })}{' '}
          <button type="button" className="btn btn--link" onClick={reload}>
            {t('pool.retry')}
          </button>
        </div>
      ) : (
        <>
          {figures ? <PoolFigures pool={figures} /> : null}
          <div className="pool-layout">
            <PoolTabs
              panels={{
                deposit: <DepositForm coins={coins} flow={flow} />,
                withdraw: <WithdrawForm pool={pool} coins={coins} position={state.data} onRequested={changed} />,
              }}
            />
            <div className="pool-layout__side">
              <DepositProgress deposits={flow.tracked} onRetry={flow.retry} />
              <DepositHistory pool={pool} generation={historyGeneration} />
              <Withdrawals pool={pool} revision={historyGeneration} />
            </div>
          </div>
          <div className="pool-layout">
            <Converter coins={coins} />
            {figures ? <RoiCalculator coins={coins} apy={figures.apy} position={state.data} /> : null}
          </div>
          <Graph pool={pool} />
          <div className="pool-layout">
            <Assets pool={pool} />
            <Strategy pool={pool} />
          </div>
        </>
      )}
    </Page>
  );
}
