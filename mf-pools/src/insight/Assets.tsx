import { useTranslation } from '@app/singletons/react-i18n';
import { SUPPORTED_CHAIN_ID, type PoolName } from '@app/contracts';
import { explorerAddressUrl, formatPercent, shortAddress } from '@app/web3';
import { useRemote, useServerData } from '@app/ui';
import { Panel } from './Panel';

const bpsFraction = (bps: number) => `${Math.trunc(bps / 10000)}.${String(bps % 10000).padStart(4, '0')}`;

/** The pool's allocation as bars (each share also as text) with each token contract's explorer link. */
export function Assets({ pool }: { pool: PoolName }) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const { state, reload } = useServerData((signal) => api.call('poolAssets', { params: { pool }, signal }), [api, pool]);
  return (
    <Panel id="assets" title={t('insight.assets')} state={state} onRetry={reload}>
      {(data) =>
        data.assets.length === 0 ? (
          <p className="muted">{t('insight.noAssets')}</p>
        ) : (
          <ul className="bars">
            {data.assets.map((a) => (
              <li key={a.currency} data-testid={`asset-${a.currency}`}>
                <div className="bars__label">
                  <span>
                    {a.currency}{' '}
                    {a.address ? (
                      <a href={explorerAddressUrl(SUPPORTED_CHAIN_ID, a.address)} target="_blank" rel="noreferrer noopener" title={a.address}>
                        {shortAddress(a.address)}
                      </a>
                    ) : (
                      <span className="muted">{t('insight.native')}</span>
                    )}
                  </span>
                  <span className="num">{formatPercent(bpsFraction(a.shareBps), i18n.language)}</span>
                </div>
                <div className="bars__track" aria-hidden="true">
                  <div className="bars__fill" style={{ width: `${a.shareBps / 100}%` }} />
                </div>
              </li>
            ))}
          </ul>
        )
      }
    </Panel>
  );
}

export function Strategy({ pool }: { pool: PoolName }) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  // The text is the server's, in the page's language: read again when the language changes.
  const { state, reload } = useServerData((signal) => api.call('poolStrategy', { params: { pool }, signal }), [api, pool, i18n.language]);
  return (
    <Panel id="strategy" title={t('insight.strategy')} state={state} onRetry={reload}>
      {(data) => <p data-testid="strategy-text">{data.description}</p>}
    </Panel>
  );
}
