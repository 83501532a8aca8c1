import { useTranslation } from '@app/singletons/react-i18n';
import { SUPPORTED_CHAIN_ID } from '@app/contracts';
import { explorerTxUrl, shortAddress } from '@app/web3';
import { CoinFigure } from './CoinFigure';
import type { TrackedDeposit } from './useDepositFlow';

function statusText(t: (key: string, options?: Record<string, unknown>) => string, d: TrackedDeposit): string {
  switch (d.stage) {
    case 'recording':
      return `${t('progress.sent')}. ${t('progress.recording')}`;
    case 'recordFailed':
      return `${t('progress.sent')}. ${t('progress.recordFailed')}`;
    case 'confirming':
      return t('progress.confirming', { n: d.confirmations, total: d.required });
    case 'credited':
      return t('progress.credited');
    case 'refused':
      return d.reason ? t('progress.refusedBecause', { reason: d.reason }) : t('progress.refused');
  }
}

/** Deposits sent from this page: sent, then confirming (n of N), then credited. */
export function DepositProgress({ deposits, onRetry }: { deposits: TrackedDeposit[]; onRetry(hash: string): void }) {
  const { t } = useTranslation();
  if (!deposits.length) return null;
  return (
    <section className="pool-section" aria-labelledby="deposit-progress-title">
      <h2 id="deposit-progress-title">{t('progress.title')}</h2>
      <ul className="deposit-progress">
        {deposits.map((d) => (
          <li key={d.hash} className={`deposit-progress__item deposit-progress__item--${d.stage}`} data-testid="deposit-progress">
            <span className="deposit-progress__amount"><CoinFigure units={d.units} currency={d.currency} /></span>
            <a href={explorerTxUrl(SUPPORTED_CHAIN_ID, d.hash)} target="_blank" rel="noreferrer noopener" title={d.hash}>
              {t('progress.transaction', { hash: shortAddress(d.hash) })}
            </a>
            <span role="status" className="deposit-progress__status">
              {statusText(t, d)}
            </span>
            {d.stage === 'recordFailed' ? (
              <button type="button" className="btn btn--outline btn--xs" onClick={() => onRetry(d.hash)}>
                {t('progress.retry')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
