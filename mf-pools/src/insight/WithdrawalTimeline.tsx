import { useTranslation } from '@app/singletons/react-i18n';
import { SUPPORTED_CHAIN_ID, translateMessage, type WithdrawalStatus } from '@app/contracts';
import { explorerTxUrl, formatDay } from '@app/web3';

type Step = { key: string; text: string; state: 'done' | 'current' | 'todo'; link?: string };

const when = (iso: string, lang: string) => new Date(iso).toLocaleString(lang === 'ru' ? 'ru-RU' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/**
 * A withdrawal's way: requested → (awaiting approval / waiting for funds / on hold) → sending → paid
 * with its transaction, or returned with the reason in words. A waiting step shows only while it
 * holds the withdrawal (the list knows the state now, not the way it came).
 */
export function steps(w: WithdrawalStatus, t: (key: string, o?: Record<string, unknown>) => string, lang: string): Step[] {
  const out: Step[] = [{ key: 'requested', text: t('withdrawals.timeline.requested', { date: formatDay(w.createdAt) }), state: 'done' }];
  const waiting = w.heldUntil && (w.status === 'requested' || w.status === 'awaiting_approval') ? 'held' : w.status === 'awaiting_approval' || w.status === 'waiting_funds' ? w.status : null;
  if (waiting) out.push({ key: waiting, text: t(`withdrawals.timeline.${waiting}`, { until: w.heldUntil ? `${when(w.heldUntil, lang)} UTC` : '' }), state: 'current' });
  const link = w.transaction ? explorerTxUrl(SUPPORTED_CHAIN_ID, w.transaction) : undefined;
  if (w.status === 'returned') {
    const reason = w.reason ? translateMessage(w.reason, lang === 'ru' ? 'ru' : 'en') : '';
    out.push({ key: 'returned', text: reason ? t('withdrawals.timeline.returned', { reason }) : t('withdrawals.timeline.returnedNoReason'), state: 'current' });
    return out;
  }
  const sendingText =
    w.status === 'cancelling'
      ? t('withdrawals.timeline.cancelling')
      : w.status === 'sending' && w.transaction
        ? t('withdrawals.timeline.confirming', { n: Math.min(w.confirmations, w.confirmationsRequired), total: w.confirmationsRequired })
        : t('withdrawals.timeline.sending');
  const sendingState = w.status === 'paid' ? 'done' : w.status === 'sending' || w.status === 'cancelling' ? 'current' : 'todo';
  out.push({ key: 'sending', text: sendingText, state: sendingState, link: w.status === 'paid' ? undefined : link });
  out.push({
    key: 'paid',
    text: w.status === 'paid' && w.paidAt ? t('withdrawals.timeline.paid', { date: formatDay(w.paidAt) }) : t('withdrawals.timeline.paidPending'),
    state: w.status === 'paid' ? 'current' : 'todo',
    link: w.status === 'paid' ? link : undefined,
  });
  return out;
}

export function WithdrawalTimeline({ w }: { w: WithdrawalStatus }) {
  const { t, i18n } = useTranslation();
  return (
    <ol className="timeline" aria-label={t('withdrawals.timeline.title')} data-testid="withdrawal-timeline">
      {steps(w, t, i18n.language).map((s) => (
        <li key={s.key} className={`timeline__step timeline__step--${s.state}`} data-step={s.key} data-state={s.state} aria-current={s.state === 'current' ? 'step' : undefined}>
          <span>{s.text}</span>
          {s.link ? (
            <>
              {' '}
              <a href={s.link} target="_blank" rel="noreferrer noopener" data-testid={`timeline-link-${s.key}`}>
                {t('withdrawals.timeline.explorer')}
              </a>
            </>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
