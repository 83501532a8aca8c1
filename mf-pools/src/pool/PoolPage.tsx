import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PoolKind } from '@app/web3';
import { Page, useRemote } from '@app/ui';
import { DepositForm } from '../deposit/DepositForm';
import { DepositHistory } from '../deposit/DepositHistory';
import { DepositProgress } from '../deposit/DepositProgress';
import { useDepositFlow, type TrackedDeposit } from '../deposit/useDepositFlow';
import { WithdrawForm } from '../withdraw/WithdrawForm';
import { PoolTabs } from './PoolTabs';
import { poolCoins } from './poolCoins';
import { fetchPool } from './server';
import { usePool } from './usePool';

const units = (text: string | undefined) => (text && /^\d+$/.test(text) ? BigInt(text) : 0n);

/** A pool: its deposit and withdraw tabs, deposits in progress and the user's deposits. */
export function PoolPage({ pool }: { pool: PoolKind }) {
  const { t } = useTranslation();
  const { api } = useRemote();
  const { state, reload } = usePool(pool);
  const [historyGeneration, setHistoryGeneration] = useState(0);
  const coins = useMemo(() => poolCoins(state.data), [state.data]);
  const position = useRef(state.data);
  position.current = state.data;

  const changed = useCallback(() => {
    reload();
    setHistoryGeneration((g) => g + 1);
  }, [reload]);
  const baseline = useCallback((currency: string) => units(position.current?.deposited[currency]), []);
  // Credited once the server's credited amount of the coin has grown by the deposit.
  const isCredited = useCallback(
    async (d: TrackedDeposit) => units((await fetchPool(api, pool))?.deposited[d.currency]) >= d.baseline + d.units,
    [api, pool],
  );
  const flow = useDepositFlow({ pool, baseline, isCredited, onChanged: changed });

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
