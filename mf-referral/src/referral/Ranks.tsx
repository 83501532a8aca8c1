import { useTranslation } from '@app/singletons/react-i18n';
import type { ReferralProgressResponse, ReferralsResponse } from '@app/contracts';
import { formatPercent, formatUsd } from '@app/web3';
import { bpsFraction } from './money';

/** The rank table with the current rank marked, and the progress to the next. */
export function Ranks({ ranks, progress }: { ranks: ReferralsResponse['ranks']; progress: ReferralProgressResponse }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  // A rank's title is the operator's word; the usual ones are said in the page's language.
  const name = (title: string) => t(`ranks.names.${title}`, { defaultValue: title });
  const current = ranks.find((r) => r.rank === progress.rank);
  const next = ranks.find((r) => r.rank === progress.nextRank);
  // Whole percent for the bar; the text beside it carries the exact dollars.
  const percent = Math.min(100, Math.max(0, Math.floor(progress.progressBps / 100)));
  return (
    <>
      <p data-testid="rank-current">{current ? t('ranks.current', { title: name(current.title) }) : t('ranks.noRank')}</p>
      <div className="bars referral-progress" data-testid="rank-progress">
        <div className="bars__label">
          <span>{next ? t('ranks.toNext', { title: name(next.title) }) : t('ranks.top')}</span>
          <span data-testid="rank-progress-text">
            {progress.nextRankCapitalUsd
              ? t('ranks.of', { have: formatUsd(progress.capitalUsd, lang), need: formatUsd(progress.nextRankCapitalUsd, lang) })
              : formatUsd(progress.capitalUsd, lang)}
          </span>
        </div>
        <div className="bars__track" role="progressbar" aria-label={t('ranks.progress')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={formatPercent(bpsFraction(percent * 100), lang)}>
          <div className="bars__fill" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <table className="data-table data-table--cards" data-testid="ranks">
        <caption className="visually-hidden">{t('ranks.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('ranks.rank')}</th>
            <th scope="col" className="num">{t('ranks.capital')}</th>
            <th scope="col" className="num">{t('ranks.bonus')}</th>
          </tr>
        </thead>
        <tbody>
          {ranks.map((r) => {
            const mine = r.rank === progress.rank;
            return (
              <tr key={r.rank} data-testid={`rank-${r.rank}`} aria-current={mine ? 'true' : undefined} className={mine ? 'referral-rank--current' : undefined}>
                <th scope="row" data-label={t('ranks.rank')}>
                  {name(r.title)}
                  {mine ? <> <span className="page__badge">{t('ranks.yours')}</span></> : null}
                </th>
                <td className="num" data-label={t('ranks.capital')}>{t('ranks.from', { value: formatUsd(r.capitalUsd, lang) })}</td>
                <td className="num" data-label={t('ranks.bonus')}>{r.bonusBps ? `+${formatPercent(bpsFraction(r.bonusBps), lang)}` : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
