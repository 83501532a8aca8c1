import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { isApiError, type ReferralHarvestResponse } from '@app/contracts';
import { formatDay } from '@app/web3';
import { TxLink, useNotify, useRemote } from '@app/ui';
import { coinText } from './money';

type Claim = { phase: 'idle' } | { phase: 'sending' } | { phase: 'sent' } | { phase: 'blocked' } | { phase: 'failed'; message: string };

/** The rewards in the payout currency: all-time total, earned, available to claim, in payment, already paid. */
export function Rewards({ harvest }: { harvest: ReferralHarvestResponse }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const stats: [string, string, string][] = [
    ['all-time', t('rewards.allTime'), harvest.allTime],
    ['earned', t('rewards.earned'), harvest.earned],
    ['available', t('rewards.available'), harvest.availableToClaim],
    ['in-payment', t('rewards.inPayment'), harvest.inPayment],
    ['paid', t('rewards.paid'), harvest.alreadyPaid],
  ];
  return (
    <dl className="grid">
      {stats.map(([id, label, units]) => (
        <div key={id} className="card stat" data-testid={`reward-${id}`}>
          <dt>{label}</dt>
          <dd>{coinText(units, harvest.currency, harvest.decimals, lang)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The latest claim: its amount, state and, once sent, the payout's transaction. */
export function LatestClaim({ harvest }: { harvest: ReferralHarvestResponse }) {
  const { t, i18n } = useTranslation();
  const { claim } = harvest;
  if (!claim) return <p className="muted">{t('claim.none')}</p>;
  return (
    <p data-testid="latest-claim">
      {t('claim.latest', { day: formatDay(claim.createdAt), amount: coinText(claim.amount, claim.currency, harvest.decimals, i18n.language) })}{' '}
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
  const text = { idle: '', sending: t('claim.sending'), sent: t('claim.sent'), blocked: t('claim.inProgress'), failed: claim.phase === 'failed' ? claim.message : '' }[claim.phase];
  return (
    <div className="form__actions" data-testid="claim">
      <button type="button" className="btn btn--primary" onClick={() => void send()} aria-disabled={sending} aria-describedby="claim-state">
        {sending ? t('claim.sending') : t('claim.button')}
      </button>
      <p id="claim-state" role="status" className={claim.phase === 'failed' ? 'field__error' : 'muted'} data-testid="claim-state">
        {text}
      </p>
    </div>
  );
}
