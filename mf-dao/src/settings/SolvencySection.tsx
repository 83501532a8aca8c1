import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiFailure } from '@app/contracts';
import { useRemote, useServerData } from '@app/ui';

/** The account's proof-of-solvency nonce (its leaves' key, for life) and the proofs of the snapshots it is in, to download. */
export function SolvencySection() {
  const { t } = useTranslation();
  const { api } = useRemote();
  const { state } = useServerData((signal) => api.call('solvencyMine', { signal }), [api]);
  const [problem, setProblem] = useState<string | null>(null);

  const download = async (snapshot: number) => {
    setProblem(null);
    try {
      const proof = await api.call('solvencyProof', { query: { snapshot } });
      const url = URL.createObjectURL(new Blob([JSON.stringify(proof, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `proof-of-solvency-${snapshot}.json`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      setProblem(apiFailure(error)?.message ?? t('form.failed'));
    }
  };

  return (
    <section className="card settings__section" aria-labelledby="settings-solvency" data-testid="settings-solvency">
      <h2 id="settings-solvency">{t('settings.solvency.title')}</h2>
      <p className="muted">{t('settings.solvency.intro')}</p>
      {state.status === 'loading' ? (
        <p aria-busy="true">{t('form.loading')}</p>
      ) : state.status === 'error' ? (
        <p className="field__error" role="alert">{state.message}</p>
      ) : (
        <>
          <dl className="settings__facts">
            <dt>{t('settings.solvency.nonce')}</dt>
            <dd data-testid="solvency-nonce">{state.data.nonce}</dd>
          </dl>
          {state.data.snapshots.length === 0 ? (
            <p className="muted">{t('settings.solvency.none')}</p>
          ) : (
            <ul className="solvency-addresses">
              {state.data.snapshots.map((s) => (
                <li key={s.snapshotId}>
                  <button type="button" className="btn btn--link" onClick={() => void download(s.snapshotId)} data-testid="solvency-proof-download">
                    {t('settings.solvency.download', { id: s.snapshotId, block: s.blockNumber })}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {problem ? <p className="field__error" role="alert">{problem}</p> : null}
        </>
      )}
    </section>
  );
}
