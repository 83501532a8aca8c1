import { Link } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import type { ReferralsResponse } from '@app/contracts';
import { formatPercent, formatUsd } from '@app/web3';
import { bpsFraction } from './money';
import { StatTile } from './StatTile';

/** Members, capital attracted and bonuses, then the levels: each level's rate and members. */
export function Network({ overview }: { overview: ReferralsResponse }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  // Each tile says what its figure counts, in words under it (issue 27, finding 10).
  const stats: [string, string, string, string][] = [
    ['members', t('network.members'), String(overview.members), t('network.membersHint')],
    ['capital', t('network.capital'), formatUsd(overview.capitalAttractedUsd, lang), t('network.capitalHint')],
    ['bonuses', t('network.bonuses'), formatUsd(overview.bonusesUsd, lang), t('network.bonusesHint')],
  ];
  const baseBps = overview.levels.reduce((sum, l) => sum + l.rewardBps, 0);
  const yourBps = overview.levels.reduce((sum, l) => sum + l.rewardBps + l.bonusBps, 0);
  const percent = (bps: number) => formatPercent(bpsFraction(bps), lang);
  return (
    <>
      <dl className="grid">
        {stats.map(([id, label, value, hint]) => (
          <StatTile key={id} testId={`network-${id}`} label={label} value={value} hint={hint} />
        ))}
      </dl>
      {overview.levels.length === 0 ? (
        <p className="muted">{t('levels.none')}</p>
      ) : (
        <table className="data-table data-table--cards" data-testid="levels">
          <caption className="visually-hidden">{t('levels.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('levels.level')}</th>
              <th scope="col" className="num">{t('levels.rate')}</th>
              <th scope="col" className="num">{t('levels.yourRate')}</th>
              <th scope="col" className="num">{t('levels.members')}</th>
            </tr>
          </thead>
          <tbody>
            {overview.levels.map((l) => (
              <tr key={l.level} data-testid={`level-${l.level}`}>
                <th scope="row" data-label={t('levels.level')}>{t('levels.name', { level: l.level })}</th>
                <td className="num" data-label={t('levels.rate')} data-testid="rate">{percent(l.rewardBps)}</td>
                <td className="num" data-label={t('levels.yourRate')} data-testid="your-rate">{percent(l.rewardBps + l.bonusBps)}</td>
                <td className="num" data-label={t('levels.members')} data-testid="members">{l.members}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" data-label={t('levels.level')}>{t('levels.total')}</th>
              <td className="num" data-label={t('levels.rate')} data-testid="total-rate">{percent(baseBps)}</td>
              <td className="num" data-label={t('levels.yourRate')} data-testid="total-your-rate">{percent(yourBps)}</td>
              <td className="num" data-label={t('levels.members')}>{overview.members}</td>
            </tr>
          </tfoot>
        </table>
      )}
      {overview.members === 0 ? (
        <p className="muted" data-testid="network-empty">
          {t('network.empty')}
        </p>
      ) : (
        <p>
          <Link to="/cabinet/affiliates">{t('network.affiliates')}</Link>
        </p>
      )}
    </>
  );
}
