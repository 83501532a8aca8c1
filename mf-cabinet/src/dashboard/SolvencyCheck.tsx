import { useTranslation } from '@app/singletons/react-i18n';
import { apiFailure, type SolvencyProof } from '@app/contracts';
import { verifyProof, type Verdict } from '@app/solvency';
import { Fragment } from 'react';
import { AMOUNT_SLOT, Amount, WithAmount, useRemote, useServerData } from '@app/ui';

type Checked = { kind: 'none'; message: string } | { kind: 'checked'; proof: SolvencyProof; verdict: Verdict; signer: string };

/** Offers the proof as the file the user can check again anywhere (npm run verify-proof). */
function download(proof: SolvencyProof) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(proof, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `proof-of-solvency-${proof.header.snapshotId}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * After sign-in: the user's proof of inclusion in the latest snapshot, checked here, in this
 * browser, with the same verifier as the command line; the signer is asked for apart from the proof.
 * A failed check is said plainly, with the way to report it. Never silent.
 */
export function SolvencyCheck() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'ru' ? 'ru' : 'en';
  const { api } = useRemote();
  const { state } = useServerData<Checked>(async (signal) => {
    let proof: SolvencyProof;
    try {
      proof = await api.call('solvencyProof', { query: {}, signal });
    } catch (err) {
      // No snapshot yet, or none since the account had a balance: said as it is, not a failure.
      const f = apiFailure(err);
      if (f && f.status === 404) return { kind: 'none', message: f.message };
      throw err;
    }
    const { address } = await api.call('solvencySigner', { signal });
    return { kind: 'checked', proof, verdict: verifyProof(proof, { signer: address }), signer: address };
  }, [api]);

  if (state.status === 'loading') return <p className="muted" data-testid="solvency-check-loading">{t('solvency.checking')}</p>;
  if (state.status === 'error') return <p className="field__error" role="alert" data-testid="solvency-check-error">{t('solvency.unavailable', { message: state.message })}</p>;
  const c = state.data;
  if (c.kind === 'none') return <p className="muted" data-testid="solvency-check-none">{c.message}</p>;
  const { header } = c.proof;
  const ok = c.verdict.ok;
  return (
    <section className={`card solvency-check${ok ? '' : ' solvency-check--failed'}`} aria-labelledby="solvency-check-title" data-testid="solvency-check" data-ok={String(ok)}>
      <h2 id="solvency-check-title" role={ok ? undefined : 'alert'} data-testid="solvency-check-result">
        {ok
          ? t('solvency.verified', { id: header.snapshotId, block: header.blockNumber })
          : t('solvency.failed', { id: header.snapshotId, block: header.blockNumber })}
      </h2>
      {c.verdict.balances ? (
        <p data-testid="solvency-check-balances">
          <WithAmount
            text={t('solvency.balances', { list: AMOUNT_SLOT })}
            amount={header.currencies.map((cur, i) => (
              <Fragment key={cur}>
                {i ? ', ' : ''}
                <Amount units={c.verdict.balances![i] ?? '0'} decimals={header.decimals[i] ?? 0} currency={cur} lang={lang} />
              </Fragment>
            ))}
          />
        </p>
      ) : null}
      <details>
        <summary>{t('solvency.details')}</summary>
        <ul className="solvency-check__list">
          {c.verdict.checks.map((check) => (
            <li key={check.name} data-testid="solvency-check-item" data-ok={String(check.ok)}>
              {check.ok ? '✓' : '✗'} {t(`solvency.checks.${check.name}`)}
              {check.ok ? null : <> : {check.detail}</>}
            </li>
          ))}
        </ul>
        <p>{t('solvency.signer', { signer: c.signer, root: header.root })}</p>
      </details>
      <p>
        <button type="button" className="btn btn--outline btn--sm" onClick={() => download(c.proof)} data-testid="solvency-download">
          {t('solvency.download')}
        </button>
      </p>
      {ok ? null : (
        <p>
          <a
            href={`mailto:?subject=${encodeURIComponent(t('solvency.reportSubject', { id: header.snapshotId }))}&body=${encodeURIComponent(
              c.verdict.checks.filter((x) => !x.ok).map((x) => `${x.name}: ${x.detail}`).join('\n'),
            )}`}
            data-testid="solvency-report"
          >
            {t('solvency.report')}
          </a>
        </p>
      )}
    </section>
  );
}
