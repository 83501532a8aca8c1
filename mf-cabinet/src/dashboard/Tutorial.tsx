import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { CabinetSummary } from '@app/contracts';
import { disconnectedWallet, useObservable, useRemote } from '@app/ui';

/** Connect the wallet, deposit, watch interest arrive; dismissed for the account (kept by the server). */
export function Tutorial({ summary, onChanged }: { summary: CabinetSummary; onChanged(): void }) {
  const { t } = useTranslation();
  const { api, bus } = useRemote();
  const wallet = useObservable(bus.wallet$, disconnectedWallet);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState('');
  if (summary.tutorialDismissed) return null;
  const steps = [
    { key: 'connect', done: wallet.connected },
    { key: 'deposit', done: !summary.empty },
    { key: 'interest', done: summary.totals.interestUsd.all !== '0.00' },
  ];
  const dismiss = async () => {
    setBusy(true);
    setFailed('');
    try {
      await api.call('cabinetTutorial', { body: { dismissed: true } });
      onChanged();
    } catch (error) {
      setFailed((error as { message?: string }).message ?? '');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="section tutorial" aria-labelledby="tutorial-title" data-testid="tutorial">
      <h2 id="tutorial-title">{t('tutorial.title')}</h2>
      <ol>
        {steps.map((s) => (
          <li key={s.key} data-done={s.done}>
            {t(`tutorial.${s.key}`)}
            {s.done ? <span className="muted"> ({t('tutorial.done')})</span> : null}
          </li>
        ))}
      </ol>
      {failed ? <p className="alert alert--error" role="alert">{t('loadFailed', { message: failed })}</p> : null}
      <button type="button" className="btn btn--gray btn--sm" onClick={dismiss} disabled={busy}>
        {t('tutorial.dismiss')}
      </button>
    </section>
  );
}
