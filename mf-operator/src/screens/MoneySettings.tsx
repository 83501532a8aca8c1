import { useTranslation } from '@app/singletons/react-i18n';
import { TableScroll } from '@app/ui';
import { useOperatorRead } from '../client';
import { apyPercent, bpsPercent, coinText } from '../format';
import { ReadState } from './ReadState';
import { SettingChanges } from './SettingChanges';

type Settings = {
  payouts: { currency: string; fee: string; minimum: string | null; approvalThreshold: string | null; dualApprovalThreshold: string | null }[];
  limits: { perHour: number; perDay: number; windowHours: number };
  apy: { pool: string; effectiveFrom: string; apy: string; setBy: string }[];
};
type Referral = { current: { id: number }; history: { id: number; effectiveFrom: string; currency: string; vestingDays: number; setBy: string; levels: { level: number; rewardBps: number }[] }[] };

/**
 * The money settings as they stand: each pool's APY schedule (past and future, with the day each
 * takes effect), each currency's fee, minimum and approval thresholds, the withdrawal limits and
 * the referral programme's versions; and their changes (SettingChanges): proposed with a preview,
 * applied once a second operator approves.
 */
export function MoneySettings() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const settings = useOperatorRead<Settings>('money-settings');
  const referral = useOperatorRead<Referral>('referral');
  const today = new Date().toISOString().slice(0, 10);
  const units = (v: string | null, currency: string) => (v === null ? t('money.never') : coinText(v, currency, lang));
  return (
    <>
      <p className="muted">{t('money.intro')}</p>
      <SettingChanges onApplied={settings.reload} />
      <ReadState read={settings}>
        {(s) => (
          <>
            <section className="card operator__wide" aria-labelledby="m-apy">
              <h2 id="m-apy">{t('money.apy.title')}</h2>
              <TableScroll labelledBy="m-apy">
                <table className="data-table data-table--cards">
                  <thead>
                    <tr>
                      <th scope="col">{t('withdrawals.col.pool')}</th>
                      <th scope="col">{t('money.apy.from')}</th>
                      <th scope="col" className="num">{t('money.apy.apy')}</th>
                      <th scope="col">{t('money.apy.setBy')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.apy.map((a) => (
                      <tr key={`${a.pool}:${a.effectiveFrom}`} data-testid="apy-row">
                        <th scope="row" data-label={t('withdrawals.col.pool')}>{a.pool}</th>
                        <td data-label={t('money.apy.from')}>
                          {a.effectiveFrom}
                          {a.effectiveFrom > today ? <span className="muted"> {t('money.apy.future')}</span> : null}
                        </td>
                        <td data-label={t('money.apy.apy')} className="num">{apyPercent(a.apy, lang)}</td>
                        <td data-label={t('money.apy.setBy')}>{a.setBy}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </section>
            <section className="card operator__wide" aria-labelledby="m-payouts">
              <h2 id="m-payouts">{t('money.payouts.title')}</h2>
              <TableScroll labelledBy="m-payouts">
                <table className="data-table data-table--cards">
                  <thead>
                    <tr>
                      <th scope="col">{t('withdrawals.filters.currency')}</th>
                      <th scope="col" className="num">{t('money.payouts.fee')}</th>
                      <th scope="col" className="num">{t('money.payouts.minimum')}</th>
                      <th scope="col" className="num">{t('money.payouts.approval')}</th>
                      <th scope="col" className="num">{t('money.payouts.dual')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.payouts.map((p) => (
                      <tr key={p.currency}>
                        <th scope="row" data-label={t('withdrawals.filters.currency')}>{p.currency}</th>
                        <td data-label={t('money.payouts.fee')} className="num">{coinText(p.fee, p.currency, lang)}</td>
                        <td data-label={t('money.payouts.minimum')} className="num">{p.minimum === null ? t('money.closed') : coinText(p.minimum, p.currency, lang)}</td>
                        <td data-label={t('money.payouts.approval')} className="num">{units(p.approvalThreshold, p.currency)}</td>
                        <td data-label={t('money.payouts.dual')} className="num">{units(p.dualApprovalThreshold, p.currency)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <p>{t('money.limits', s.limits)}</p>
            </section>
          </>
        )}
      </ReadState>
      <section className="card operator__wide" aria-labelledby="m-referral">
        <h2 id="m-referral">{t('money.referral.title')}</h2>
        <ReadState read={referral}>
          {(r) => (
            <ul>
              {r.history.map((v) => (
                <li key={v.id}>
                  {t('money.referral.version', {
                    from: v.effectiveFrom,
                    levels: v.levels.map((l) => bpsPercent(BigInt(l.rewardBps), lang)).join(' · '),
                    currency: v.currency,
                    days: v.vestingDays,
                    by: v.setBy,
                  })}
                  {v.id === r.current.id ? <strong> {t('money.referral.current')}</strong> : null}
                </li>
              ))}
            </ul>
          )}
        </ReadState>
      </section>
    </>
  );
}
