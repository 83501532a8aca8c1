import { useEffect, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { type DepositStatus, SUPPORTED_CHAIN_ID, type PoolName } from '@app/contracts';
import { explorerTxUrl, shortAddress } from '@app/web3';
import { useRemote } from '@app/ui';
import { errorMessage, isApiError } from '../errors';
import { fetchDeposits } from '../pool/server';
import { CoinFigure } from './CoinFigure';

/** While a listed deposit waits for its confirmations, the list asks again this often. */
export const HISTORY_POLL_MS = 3000;

type HistoryState = { status: 'loading' } | { status: 'ready'; items: DepositStatus[] } | { status: 'error'; message: string };

function statusText(t: (key: string, options?: Record<string, unknown>) => string, d: DepositStatus): string {
  if (d.status === 'credited') return t('progress.credited');
  if (d.status === 'refused') return d.reason ? t('progress.refusedBecause', { reason: d.reason }) : t('progress.refused');
  return t('progress.confirming', { n: Math.min(d.confirmations, d.confirmationsRequired), total: d.confirmationsRequired });
}

/** The user's deposits in the pool as the server keeps them, so they are there after a reload. */
export function DepositHistory({ pool, generation }: { pool: PoolName; generation: number }) {
  const { t } = useTranslation();
  const { api } = useRemote();
  const [state, setState] = useState<HistoryState>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const waiting = state.status === 'ready' && state.items.some((d) => d.status === 'pending');
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setTick((n) => n + 1), HISTORY_POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, state]);
  useEffect(() => {
    const controller = new AbortController();
    fetchDeposits(api, pool, controller.signal).then(
      ({ items }) => setState({ status: 'ready', items }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: isApiError(error) ? error.message : errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [api, pool, generation, tick]);

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
                <th scope="col">{t('history.transaction')}</th>
                <th scope="col">{t('history.status')}</th>
              </tr>
            </thead>
            <tbody>
              {state.items.map((item) => (
                <tr key={item.id} data-testid="deposit-row" className={`pool-table__row--${item.status}`}>
                  <td>{item.createdAt.slice(0, 10)}</td>
                  <td><CoinFigure units={item.amount} currency={item.currency} /></td>
                  <td>
                    <a href={explorerTxUrl(SUPPORTED_CHAIN_ID, item.transaction)} target="_blank" rel="noreferrer noopener" title={item.transaction}>
                      {shortAddress(item.transaction)}
                    </a>
                  </td>
                  <td className="pool-table__status">{statusText(t, item)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
