import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { DaoPersonalResponse, DaoPoolsResponse, DaoRewardsResponse, DaoValuesResponse, ProposalsResponse } from '@app/contracts';
import { Amount, Page, useRemote } from '@app/ui';
import { formatPercent, formatUnits, formatUsd } from '@app/web3';
import { useLocaleLink } from './links';
import { quorumInUsd } from './quorum';

/**
 * A governance value in people's words and units: the quorum as a share of the voting power, the
 * period in days, the proposal threshold in whole tokens (its base units have 18 decimals).
 */
function valueText(key: string, value: string, all: Record<string, string>, lang: string, t: (k: string, o?: Record<string, unknown>) => string): ReactNode {
  const token = all.governanceToken ?? '';
  if (key === 'quorumBps' && /^\d+$/.test(value)) return t('dao.values.quorumText', { share: formatPercent(formatUnits(BigInt(value), 4), lang) });
  if (key === 'votingPeriodDays' && /^\d+$/.test(value)) return t('dao.values.days', { n: value });
  // The governance token is no coin of the pools: no mark.
  if (key === 'proposalThreshold' && /^\d+$/.test(value)) return <Amount units={value} decimals={18} currency={token} lang={lang} mark={false} />;
  return value;
}

type Overview = { personal: DaoPersonalResponse; rewards: DaoRewardsResponse; pools: DaoPoolsResponse; values: DaoValuesResponse; proposals: ProposalsResponse };

/** /cabinet/dao: the user's power and rewards, the pools and values, the proposals. */
export function DaoPage() {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const link = useLocaleLink();
  const [data, setData] = useState<Overview | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    Promise.all([api.call('daoPersonal'), api.call('daoRewards'), api.call('daoPools'), api.call('daoValues'), api.call('daoProposals')]).then(
      ([personal, rewards, pools, values, proposals]) => live && setData({ personal, rewards, pools, values, proposals }),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [api]);

  const lang = i18n.language === 'ru' ? 'ru' : 'en';
  const usd = (v: string) => formatUsd(v, i18n.language);
  return (
    <Page title={t('dao.title')}>
      {failed ? (
        <p className="alert alert--warning" role="alert">{t('dao.loadFailed')}</p>
      ) : !data ? (
        <p aria-busy="true">{t('form.loading')}</p>
      ) : (
        <div className="dao">
          <section className="card" aria-labelledby="dao-personal">
            <h2 id="dao-personal">{t('dao.personal.title')}</h2>
            <dl className="settings__facts dao__facts">
              <dt>{t('dao.personal.votingPower')}</dt>
              <dd data-testid="voting-power">{usd(data.personal.votingPower)}</dd>
              <dt>{t('dao.personal.staked')}</dt>
              <dd data-testid="staked">{usd(data.personal.staked)}</dd>
              <dt>{t('dao.personal.rewards')}</dt>
              <dd data-testid="rewards">
                {usd(data.rewards.totalUsd)}
                {data.rewards.items.length ? (
                  <span className="dao__rewards">
                    {data.rewards.items.map((r, i) => (
                      <Fragment key={r.currency}>
                        {i ? ', ' : ''}
                        <Amount units={r.earned} decimals={r.decimals} currency={r.currency} lang={lang} />
                      </Fragment>
                    ))}
                  </span>
                ) : null}
              </dd>
              <dt>{t('dao.personal.voted')}</dt>
              <dd data-testid="proposals-voted">{data.personal.proposalsVoted}</dd>
            </dl>
          </section>
          <section className="card" aria-labelledby="dao-proposals">
            <h2 id="dao-proposals">{t('dao.proposals.title')}</h2>
            {data.proposals.items.length === 0 ? <p>{t('dao.proposals.none')}</p> : null}
            <ul className="dao__proposals">
              {data.proposals.items.map((p) => (
                <li key={p.id} className="dao__proposal" data-testid="proposal">
                  <a href={link(`/cabinet/dao/${p.id}`)} onClick={link.navigate(`/cabinet/dao/${p.id}`)}>
                    {p.title}
                  </a>
                  <span className={`dao__state dao__state--${p.state}`}>{t(`dao.state.${p.state}`)}</span>
                </li>
              ))}
            </ul>
          </section>
          <section className="card" aria-labelledby="dao-pools">
            <h2 id="dao-pools">{t('dao.pools.title')}</h2>
            <div className="dao__table">
              <table className="pool-table">
                <thead>
                  <tr>
                    <th scope="col">{t('dao.pools.pool')}</th>
                    <th scope="col">{t('dao.pools.apy')}</th>
                    <th scope="col">{t('dao.pools.tvl')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.pools.items.map((p) => (
                    <tr key={p.pool}>
                      <td>{t(`dao.pools.kinds.${p.pool}`, { defaultValue: p.title })}</td>
                      <td>{formatPercent(formatUnits(BigInt(p.apyBps), 4), i18n.language)}</td>
                      <td>{usd(p.tvlUsd)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h3>{t('dao.values.title')}</h3>
            <dl className="settings__facts">
              {Object.entries(data.values.values).map(([k, v]) => (
                <div key={k} className="dao__value" data-testid={`dao-value-${k}`}>
                  <dt>{t(`dao.values.names.${k}`, { defaultValue: k })}</dt>
                  <dd>{valueText(k, v, data.values.values, i18n.language, t)}</dd>
                  {k === 'quorumBps' ? <QuorumUsd bps={v} pools={data.pools} /> : null}
                </div>
              ))}
            </dl>
          </section>
        </div>
      )}
    </Page>
  );
}

/** The quorum in dollars today, by its rule: its share of all voting power, the value in the pools (issue 27, finding 10). */
function QuorumUsd({ bps, pools }: { bps: string; pools: DaoPoolsResponse }) {
  const { t, i18n } = useTranslation();
  const usd = quorumInUsd(bps, pools.items.map((p) => p.tvlUsd));
  if (!usd) return null;
  const { quorumUsd, allUsd } = usd;
  return (
    <dd className="muted" data-testid="dao-quorum-usd">
      {t('dao.values.quorumUsd', { quorum: formatUsd(quorumUsd, i18n.language), all: formatUsd(allUsd, i18n.language) })}
    </dd>
  );
}
