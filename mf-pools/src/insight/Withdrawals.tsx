import { useTranslation } from '@app/singletons/react-i18n';
import { translateMessage, type WithdrawalStatus, type PoolName } from '@app/contracts';
import { formatDay } from '@app/web3';
import { TxLink, useRemote, useServerData } from '@app/ui';
import { CoinFigure } from '../deposit/CoinFigure';
import { Panel } from './Panel';
import { WithdrawalTimeline } from './WithdrawalTimeline';

function stateText(t: (k: string, o?: Record<string, unknown>) => string, w: WithdrawalStatus, lang: string) {
  if (w.status === 'sending' && w.transaction) return t('withdrawals.states.confirming', { n: Math.min(w.confirmations, w.confirmationsRequired), total: w.confirmationsRequired });
  // A recent change of the account's e-mail, password or wallet holds payouts: say until when, and why.
  if (w.heldUntil) {
    const until = new Date(w.heldUntil).toLocaleString(lang === 'ru' ? 'ru-RU' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
    return t('withdrawals.states.held', { until });
  }
  return t(`withdrawals.states.${w.status}`);
}

/** This user's withdrawals from the pool with their states: requested, awaiting approval, sending, paid with its link, returned. */
export function Withdrawals({ pool, revision }: { pool: PoolName; revision: number }) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const { state, reload } = useServerData((signal) => api.call('dashboardWithdrawals', { query: { pool }, signal }), [api, pool, revision]);
  return (
    <Panel id="withdrawals" title={t('withdrawals.title')} state={state} onRetry={reload}>
      {(data) =>
        data.items.length === 0 ? (
          <p className="muted">{t('withdrawals.none')}</p>
        ) : (
          <table className="data-table data-table--cards">
            <thead>
              <tr>
                <th scope="col">{t('withdrawals.date')}</th>
                <th scope="col" className="num">{t('withdrawals.amount')}</th>
                <th scope="col">{t('withdrawals.status')}</th>
                <th scope="col">{t('withdrawals.transaction')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((w) => (
                <tr key={w.id} data-testid="withdrawal-row" data-status={w.status}>
                  <td data-label={t('withdrawals.date')}>{formatDay(w.createdAt)}</td>
                  <td className="num" data-label={t('withdrawals.amount')}><CoinFigure units={w.amount} currency={w.currency} /></td>
                  <td data-label={t('withdrawals.status')}>
                    <span data-testid="withdrawal-status">
                      {stateText(t, w, i18n.language)}
                      {(w.status === 'returned' || w.status === 'waiting_funds') && w.reason ? ` (${translateMessage(w.reason, i18n.language === 'ru' ? 'ru' : 'en')})` : ''}
                    </span>
                    <WithdrawalTimeline w={w} />
                  </td>
                  <td data-label={t('withdrawals.transaction')}>
                    <TxLink hash={w.transaction} testId="withdrawal-link" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </Panel>
  );
}
