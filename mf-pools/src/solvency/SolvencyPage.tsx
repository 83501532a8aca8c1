import { useTranslation } from '@app/singletons/react-i18n';
import type { SolvencySnapshot } from '@app/contracts';
import { Amount, Page, useRemote, useServerData } from '@app/ui';
import { explorerAddressUrl, formatDay, formatPercent, formatUnits, shortAddress } from '@app/web3';
import { Panel } from '../insight/Panel';

type Lang = 'en' | 'ru';

/** Reserves ÷ liabilities as a fraction with six places, from exact base units; null when nothing is owed. */
export function ratioOf(reserves: bigint, liabilities: bigint): string | null {
  if (liabilities === 0n) return null;
  return formatUnits((reserves * 1_000_000n) / liabilities, 6);
}

/** Per currency of the header: the liabilities (root sums), the reserves held at the declared addresses at the block, the ratio. */
export function figuresOf(s: SolvencySnapshot) {
  return s.header.currencies.map((currency, i) => {
    const liabilities = BigInt(s.header.sums[i] ?? '0');
    const reserves = s.reserves.filter((r) => r.currency === currency).reduce((sum, r) => sum + BigInt(r.balance), 0n);
    return { currency, decimals: s.header.decimals[i] ?? 0, liabilities, reserves, ratio: ratioOf(reserves, liabilities) };
  });
}

/** The order the declared addresses are grouped in. */
const ROLES: SolvencySnapshot['addresses'][number]['role'][] = ['pool', 'float', 'cold', 'treasury'];

function Snapshot({ s, lang }: { s: SolvencySnapshot; lang: Lang }) {
  const { t } = useTranslation();
  const h = s.header;
  return (
    <>
      <table className="data-table data-table--cards" data-testid="solvency-figures" data-snapshot={h.snapshotId}>
        <caption className="visually-hidden">{t('solvency.figuresCaption', { id: h.snapshotId })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('solvency.currency')}</th>
            <th scope="col" className="num">{t('solvency.liabilities')}</th>
            <th scope="col" className="num">{t('solvency.reserves')}</th>
            <th scope="col" className="num">{t('solvency.ratio')}</th>
          </tr>
        </thead>
        <tbody>
          {figuresOf(s).map((f) => (
            <tr key={f.currency} data-testid="solvency-row" data-currency={f.currency} data-liabilities={String(f.liabilities)} data-reserves={String(f.reserves)}>
              <td data-label={t('solvency.currency')}>{f.currency}</td>
              <td className="num" data-label={t('solvency.liabilities')}><Amount units={f.liabilities} decimals={f.decimals} currency={f.currency} lang={lang} /></td>
              <td className="num" data-label={t('solvency.reserves')}><Amount units={f.reserves} decimals={f.decimals} currency={f.currency} lang={lang} /></td>
              {/* Under 100 % is shown as it is: the point of the page is that nothing is hidden. */}
              <td className="num" data-label={t('solvency.ratio')} data-testid="solvency-ratio">
                {f.ratio === null ? t('solvency.nothingOwed') : formatPercent(f.ratio, lang, 2)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="settings__facts" data-testid="solvency-header">
        <dt>{t('solvency.block')}</dt>
        <dd data-testid="solvency-block">{h.blockNumber}</dd>
        <dt>{t('solvency.takenAt')}</dt>
        <dd>{formatDay(h.takenAt)}</dd>
        <dt>{t('solvency.root')}</dt>
        <dd data-testid="solvency-root">{h.root}</dd>
        <dt>{t('solvency.signer')}</dt>
        <dd data-testid="solvency-signer">{s.signer}</dd>
        <dt>{t('solvency.leaves')}</dt>
        <dd>{h.leafCount}</dd>
      </dl>
      <h3>{t('solvency.addresses')}</h3>
      {ROLES.map((role) => {
        const group = s.addresses.filter((a) => a.role === role);
        if (!group.length) return null;
        return (
          <section key={role} aria-labelledby={`solvency-${h.snapshotId}-${role}`} data-testid="solvency-group" data-role={role}>
            <h4 id={`solvency-${h.snapshotId}-${role}`}>{t(`solvency.roles.${role}`)}</h4>
            <ul className="solvency-addresses">
              {group.map((a) => (
                <li key={a.address} data-testid="solvency-declared" data-snapshot={h.snapshotId} data-address={a.address} data-proven={a.signature !== null}>
                  <a href={explorerAddressUrl(1, a.address)} target="_blank" rel="noreferrer" data-testid="solvency-address">
                    {shortAddress(a.address)}
                  </a>
                  {a.role === 'pool' ? ` ${t('solvency.pools', { pools: a.pool ?? '' })}` : null}
                  {a.signature === null ? (
                    // Declared, but its key has not signed yet: nothing it holds is counted.
                    <span className="muted">{`: ${t('solvency.awaitingProof')}`}</span>
                  ) : (
                    s.reserves
                      .filter((r) => r.address === a.address)
                      .map((r, i) => (
                        <span key={r.currency}>
                          {i ? ', ' : ': '}
                          <Amount units={BigInt(r.balance)} decimals={h.decimals[h.currencies.indexOf(r.currency)] ?? 0} currency={r.currency} lang={lang} />
                        </span>
                      ))
                  )}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}

/** /solvency, public: the latest proof of solvency, its figures per currency, and the earlier snapshots. */
export function SolvencyPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'ru' ? 'ru' : 'en';
  const { api } = useRemote();
  const { state, reload } = useServerData((signal) => api.call('solvencyList', { signal }), [api]);
  return (
    <Page title={t('solvency.title')}>
      <p className="muted">{t('solvency.intro')}</p>
      <Panel id="solvency-latest" title={t('solvency.latest')} state={state} onRetry={reload}>
        {(data) => {
          const [latest, ...earlier] = data.items;
          if (!latest) return <p className="muted">{t('solvency.none')}</p>;
          return (
            <>
              <p data-testid="solvency-latest-id">{t('solvency.snapshot', { id: latest.header.snapshotId, block: latest.header.blockNumber })}</p>
              <Snapshot s={latest} lang={lang} />
              {earlier.length ? (
                <>
                  <h3>{t('solvency.history')}</h3>
                  {earlier.map((s) => (
                    <details key={s.header.snapshotId} data-testid="solvency-history">
                      <summary>{t('solvency.snapshot', { id: s.header.snapshotId, block: s.header.blockNumber })}</summary>
                      <Snapshot s={s} lang={lang} />
                    </details>
                  ))}
                </>
              ) : null}
              <p className="muted">{t('solvency.json')}</p>
            </>
          );
        }}
      </Panel>
    </Page>
  );
}
