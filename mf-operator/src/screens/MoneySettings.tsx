import { useTranslation } from '@app/singletons/react-i18n';
import { DataTable } from '@app/ui';
import { useOperatorRead } from '../client';
import { apyPercent, bpsPercent, coinText } from '../format';
import { ReadState } from './ReadState';
import { SettingChanges, ranksText } from './SettingChanges';

type Settings = {
  payouts: { currency: string; fee: string; minimum: string | null; approvalThreshold: string | null; dualApprovalThreshold: string | null }[];
  limits: { perHour: number; perDay: number; windowHours: number };
  apy: { pool: string; effectiveFrom: string; apy: string; setBy: string }[];
};
type Referral = {
  current: { id: number };
  history: { id: number; effectiveFrom: string; currency: string; vestingDays: number; setBy: string; levels: { level: number; rewardBps: number }[]; ranks: { title: string; capitalUsd: string; bonusBps: number }[] }[];
};

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
      <SettingChanges
        onApplied={() => {
          settings.reload();
          referral.reload();
        }}
      />
      <ReadState read={settings}>
        {(s) => (
          <>
            <section className="card operator__wide" aria-labelledby="m-apy">
              <h2 id="m-apy">{t('money.apy.title')}</h2>
              <DataTable
                captionId="m-apy"
                columns={[
                  { key: 'pool', header: t('withdrawals.col.pool'), cell: (a) => a.pool },
                  {
                    key: 'from',
                    header: t('money.apy.from'),
                    cell: (a) => (
                      <>
                        {a.effectiveFrom}
                        {a.effectiveFrom > today ? <span className="muted"> {t('money.apy.future')}</span> : null}
                      </>
                    ),
                  },
                  { key: 'apy', header: t('money.apy.apy'), cell: (a) => apyPercent(a.apy, lang), numeric: true },
                  { key: 'setBy', header: t('money.apy.setBy'), cell: (a) => a.setBy },
                ]}
                rows={s.apy}
                rowKey={(a) => `${a.pool}:${a.effectiveFrom}`}
                rowAttrs={() => ({ 'data-testid': 'apy-row' })}
              />
            </section>
            <section className="card operator__wide" aria-labelledby="m-payouts">
              <h2 id="m-payouts">{t('money.payouts.title')}</h2>
              <DataTable
                captionId="m-payouts"
                columns={[
                  { key: 'currency', header: t('withdrawals.filters.currency'), cell: (p) => p.currency },
                  { key: 'fee', header: t('money.payouts.fee'), cell: (p) => coinText(p.fee, p.currency, lang), numeric: true },
                  { key: 'minimum', header: t('money.payouts.minimum'), cell: (p) => (p.minimum === null ? t('money.closed') : coinText(p.minimum, p.currency, lang)), numeric: true },
                  { key: 'approval', header: t('money.payouts.approval'), cell: (p) => units(p.approvalThreshold, p.currency), numeric: true },
                  { key: 'dual', header: t('money.payouts.dual'), cell: (p) => units(p.dualApprovalThreshold, p.currency), numeric: true },
                ]}
                rows={s.payouts}
                rowKey={(p) => p.currency}
              />
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
                  <br />
                  <span className="muted">{t('money.referral.ranks', { ranks: ranksText(JSON.stringify(v.ranks), lang, (k) => t('money.referral.rank', k)) })}</span>
                </li>
              ))}
            </ul>
          )}
        </ReadState>
      </section>
    </>
  );
}
