import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { PoolKind } from '@app/web3';
import { Page } from '@app/ui';
import { DepositForm, DepositHistory, DepositProgress, useDepositFlow } from '../deposit';
import { WithdrawForm } from '../withdraw';
import { PoolTabs } from './PoolTabs';
import { poolCoins } from './poolCoins';
import { usePool } from './usePool';

/** A pool: its deposit and withdraw tabs, deposits in progress and the user's deposits. */
export function PoolPage({ pool }: { pool: PoolKind }) {
  const { t } = useTranslation();
  const { state, reload } = usePool(pool);
  const [historyGeneration, setHistoryGeneration] = useState(0);
  const coins = useMemo(() => poolCoins(state.data), [state.data]);

  const changed = useCallback(() => {
    reload();
    setHistoryGeneration((g) => g + 1);
  }, [reload]);
  const flow = useDepositFlow({ pool, onChanged: changed });

  return (
    <Page title={t('pool.title', { pool: t(`kinds.${pool}`) })}>
      {state.status === 'loading' ? (
        <p role="status">{t('pool.loading')}</p>
      ) : state.status === 'error' ? (
        <div className="alert alert--error" role="alert">
          {t('pool.loadFailed', { message: state.message })}{' '}
          <button type="button" className="btn btn--link" onClick={reload}>
            {t('pool.retry')}
          </button>
        </div>
      ) : (
        <div className="pool-layout">
          <PoolTabs
            panels={{
              deposit: <DepositForm coins={coins} flow={flow} />,
              withdraw: <WithdrawForm pool={pool} coins={coins} position={state.data} onRequested={reload} />,
            }}
          />
          <div className="pool-layout__side">
            <DepositProgress deposits={flow.tracked} onRetry={flow.retry} />
            <DepositHistory pool={pool} generation={historyGeneration} />
          </div>
        </div>
      )}
    </Page>
  );
}
