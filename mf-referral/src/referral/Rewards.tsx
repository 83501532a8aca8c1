import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { isApiError, type ReferralHarvestResponse, type ReferralOtherCurrency } from '@app/contracts';
import { formatDay } from '@app/web3';
import { AMOUNT_SLOT, Amount, TxLink, WithAmount, useNotify, useRemote } from '@app/ui';
import { StatTile } from './StatTile';

type Claim = { phase: 'idle' } | { phase: 'sending' } | { phase: 'sent' } | { phase: 'blocked' } | { phase: 'failed'; message: string };

/**
 * The rewards in the payout currency: all-time total, earned, available to claim, in payment, already
 * paid, and those still vesting, with the vesting rule; then any earlier payout currency's rewards.
 */
export function Rewards({ harvest }: { harvest: ReferralHarvestResponse }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  // Each tile says what its figure counts, in words under it (issue 27, finding 10).
  const stats: [string, string, string, string][] = [
    ['all-time', t('rewards.allTime'), harvest.allTime, t('rewards.allTimeHint')],
    ['earned', t('rewards.earned'), harvest.earned, t('rewards.earnedHint')],
    ['available', t('rewards.available'), harvest.availableToClaim, t('rewards.availableHint')],
    ['in-payment', t('rewards.inPayment'), harvest.inPayment, t('rewards.inPaymentHint')],
    ['paid', t('rewards.paid'), harvest.alreadyPaid, t('rewards.paidHint')],
    ['vesting', t('rewards.vesting'), harvest.vesting, t('rewards.vestingHint')],
  ];
  const columns: [keyof ReferralOtherCurrency, string][] = [
    ['vesting', t('rewards.vesting')],
    ['availableToClaim', t('rewards.available')],
    ['inPayment', t('rewards.inPayment')],
    ['alreadyPaid', t('rewards.paid')],
  ];
  return (
    <>
      <dl className="grid">
        {stats.map(([id, label, units, hint]) => (
          <StatTile key={id} testId={`reward-${id}`} label={label} value={<Amount units={units} decimals={harvest.decimals} currency={harvest.currency} lang={lang} />} hint={hint} />
        ))}
      </dl>
      <p className="muted" data-testid="vesting-note">
        {harvest.vestingDays > 0 ? t('rewards.vestingNote', { count: harvest.vestingDays }) : t('rewards.vestingNoteNone')}
      </p>
      {harvest.others.length > 0 ? (
        <table className="data-table data-table--cards" data-testid="reward-others">
          <caption>{t('rewards.othersCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('rewards.currency')}</th>
              {columns.map(([key, label]) => (
                <th key={key} scope="col" className="num">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {harvest.others.map((o) => (
              <tr key={o.currency} data-testid={`reward-other-${o.currency}`}>
                <th scope="row" data-label={t('rewards.currency')}>
                  {o.currency}
                </th>
                {columns.map(([key, label]) => (
                  <td key={key} className="num" data-label={label}>
                    <Amount units={String(o[key])} decimals={o.decimals} currency={o.currency} lang={lang} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

/** The latest claim: its amount, state and, once sent, the payout's transaction. */
export function LatestClaim({ harvest }: { harvest: ReferralHarvestResponse }) {
  const { t, i18n } = useTranslation();
  const { claim } = harvest;
  if (!claim) return <p className="muted">{t('claim.none')}</p>;
  // A claim may be in an earlier payout currency, with its own decimals.
  const decimals = harvest.others.find((o) => o.currency === claim.currency)?.decimals ?? harvest.decimals;
  return (
    <p data-testid="latest-claim">
      <WithAmount text={t('claim.latest', { day: formatDay(claim.createdAt), amount: AMOUNT_SLOT })} amount={<Amount units={claim.amount} decimals={decimals} currency={claim.currency} lang={i18n.language} />} />{' '}
      <strong data-testid="latest-claim-status">{t(`claim.states.${claim.status}`)}</strong>{' '}
      {claim.transaction ? <TxLink hash={claim.transaction} testId="latest-claim-link" /> : null}
    </p>
  );
}

/**
 * The claim (spec §4): idle, 'Sending Request...', then sent or failed. While a payment is in
 * progress a new claim is refused here at once, and by the server if this page is out of date.
 */
export function ClaimButton({ harvest, onClaimed }: { harvest: ReferralHarvestResponse; onClaimed(): void }) {
  const { t } = useTranslation();
  const { api } = useRemote();
  const notify = useNotify();
  const [claim, setClaim] = useState<Claim>({ phase: 'idle' });
  const blocked = () => {
    setClaim({ phase: 'blocked' });
    notify({ kind: 'warning', message: t('claim.inProgress') });
  };
  const send = async () => {
    if (claim.phase === 'sending') return;
    if (harvest.claimInProgress) return blocked();
    setClaim({ phase: 'sending' });
    try {
      await api.call('referralsWithdraw');
      setClaim({ phase: 'sent' });
      notify({ kind: 'success', message: t('claim.sent') });
      onClaimed();
    } catch (error) {
      if (isApiError(error) && error.status === 409) return blocked();
      // A refusal the server explains (nothing to claim, no wallet linked) is shown as it says; anything else is the spec's failure.
      const message = isApiError(error) && error.status === 400 && error.message ? error.message : t('claim.failed');
      setClaim({ phase: 'failed', message });
      notify({ kind: 'error', message });
    }
  };
  const sending = claim.phase === 'sending';
  // Nothing to claim in any currency and no payment under way: the button says so rather than ask the server.
  const nothing = !harvest.claimInProgress && !/[1-9]/.test(harvest.availableToClaim) && !harvest.others.some((o) => /[1-9]/.test(o.availableToClaim));
  const text = { idle: nothing ? t('claim.nothing') : '', sending: t('claim.sending'), sent: t('claim.sent'), blocked: t('claim.inProgress'), failed: claim.phase === 'failed' ? claim.message : '' }[claim.phase];
  return (
    <div className="form__actions" data-testid="claim">
      <button type="button" className="btn btn--primary" onClick={() => void send()} disabled={nothing && claim.phase === 'idle'} aria-disabled={sending} aria-describedby="claim-state">
        {sending ? t('claim.sending') : t('claim.button')}
      </button>
      <p id="claim-state" role="status" className={claim.phase === 'failed' ? 'field__error' : 'muted'} data-testid="claim-state">
        {text}
      </p>
    </div>
  );
}
