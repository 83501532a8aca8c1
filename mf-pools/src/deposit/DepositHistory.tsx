import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCurrency, type PoolKind } from '@app/web3';
import { useRemote } from '@app/ui';
import { errorMessage, isApiError } from '../errors';
import { fetchDeposits, type DepositRecord } from '../pool/server';
import { formatCoin } from './amounts';

type HistoryState = { status: 'loading' } | { status: 'ready'; items: DepositRecord[] } | { status: 'error'; message: string };

/** The user's deposits in the pool as the server keeps them, so they are there after a reload. */
export function DepositHistory({ pool, generation }: { pool: PoolKind; generation: number }) {
  const { t } = useTranslation();
  const { api } = useRemote();
  const [state, setState] = useState<HistoryState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    fetchDeposits(api, pool, controller.signal).then(
      (items) => setState({ status: 'ready', items }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: isApiError(error) ? error.message : errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [api, pool, generation]);

  return (
    <section className="pool-section" aria-labelledby="deposit-history-title">
      <h2 id="deposit-history-title">{t('history.title')}</h2>
      {state.status === 'loading' ? null : state.status === 'error' ? (
        <p className="field__error">{t('history.loadFailed', { message: state.message })}</p>
      ) : state.items.length === 0 ? (
        <p className="field__hint">{t('history.empty')}</p>
      ) : (
        <div className="pool-table-wrap">
          <table className="pool-table">
            <thead>
              <tr>
                <th scope="col">{t('history.date')}</th>
                <th scope="col">{t('history.amount')}</th>
                <th scope="col">{t('history.status')}</th>
              </tr>
            </thead>
            <tbody>
              {state.items.map((item) => (
                <tr key={item.key} data-testid="deposit-row">
                  <td>{item.date}</td>
                  <td>{isCurrency(item.currency) ? formatCoin(BigInt(item.amount), item.currency) : `${item.amount} ${item.currency}`}</td>
                  <td>{t('history.credited')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
