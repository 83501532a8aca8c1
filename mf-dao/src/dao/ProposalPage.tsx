import { useCallback, useEffect, useState, type FormEvent } from 'react';
import Markdown from 'markdown-to-jsx';
import { useTranslation } from '@app/singletons/react-i18n';
import { useParams } from '@app/singletons/router';
import { apiFailure, apiBasePath, voteTypes, type ProposalResponse, type SessionState } from '@app/contracts';
import { Page, useNotify, useObservable, useRemote } from '@app/ui';
import { formatPercent, formatUnits, formatUsd, isUserRejection } from '@app/web3';
import { useMessage } from '../forms/errors';
import { useLocaleLink } from './links';

/** Markdown without raw HTML: the body is the operator's text, shown as text and safe links only. */
const markdownOptions = { disableParsingRawHTML: true, forceBlock: true } as const;

/** /cabinet/dao/:proposal — the body, dates, quorum, results by voting power, and the vote (EIP-712). */
export function ProposalPage() {
  const { t, i18n } = useTranslation();
  const { proposal: id = '' } = useParams();
  const { api, wallet, bus } = useRemote();
  const session = useObservable<SessionState>(bus.session$, { status: 'unknown' });
  const notify = useNotify();
  const message = useMessage();
  const link = useLocaleLink();
  const [p, setP] = useState<ProposalResponse | null>(null);
  const [failed, setFailed] = useState('');
  const [choice, setChoice] = useState(0);
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const usd = (v: string) => formatUsd(v, i18n.language);
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language === 'ru' ? 'ru-RU' : 'en-GB', { timeZone: 'UTC', timeZoneName: 'short' });

  const load = useCallback(async () => {
    try {
      const loaded = await api.call('daoProposal', { params: { id } });
      setP(loaded);
      setChoice((c) => c || loaded.myVote?.choice || 0);
    } catch (e) {
      setFailed(message(apiFailure(e)?.message ?? t('dao.loadFailed')));
    }
  }, [api, id, message, t]);
  useEffect(() => void load(), [load]);

  const castVote = async (event: FormEvent) => {
    event.preventDefault();
    if (!p) return;
    const linked = session.status === 'authenticated' ? session.user.metaMaskAddress : null;
    if (!choice) return setError(t('dao.vote.pick'));
    if (!linked) return setError(t('dao.vote.noWallet'));
    if (!wallet.signTypedData) return setError(t('dao.vote.unsupported'));
    setError('');
    setBusy(true);
    try {
      // Snapshot's Vote: signed by the linked wallet; the server checks the signer and the rest.
      const vote = { from: linked, space: p.signing.space, timestamp: Math.floor(Date.now() / 1000), proposal: p.id, choice, reason: reason.trim(), app: p.signing.app, metadata: '{}' };
      const { signature } = await wallet.signTypedData({ domain: p.signing.domain, types: { Vote: voteTypes.Vote.map((f) => ({ ...f })) }, primaryType: 'Vote', message: vote });
      const answer = await api.call('daoVote', { params: { id: p.id }, body: { message: vote, signature } });
      setP(answer.proposal);
      notify({ kind: 'success', message: message(answer.message) });
    } catch (e) {
      if (isUserRejection(e)) notify({ kind: 'warning', message: t('dao.vote.rejected') });
      else setError(message(apiFailure(e)?.message ?? t('form.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={p?.title ?? t('dao.proposal')}>
      <p>
        <a href={link('/cabinet/dao')} onClick={link.navigate('/cabinet/dao')}>
          {t('dao.back')}
        </a>
      </p>
      {failed ? (
        <p className="alert alert--warning" role="alert">{failed}</p>
      ) : !p ? (
        <p aria-busy="true">{t('form.loading')}</p>
      ) : (
        <div className="dao">
          <section className="card dao__body" aria-labelledby="proposal-body">
            <h2 id="proposal-body">
              {t('dao.body')} <span className={`dao__state dao__state--${p.state}`}>{t(`dao.state.${p.state}`)}</span>
            </h2>
            <Markdown options={markdownOptions}>{p.body}</Markdown>
            <dl className="settings__facts">
              <dt>{t('dao.start')}</dt>
              <dd>{when(p.startsAt)}</dd>
              <dt>{t('dao.end')}</dt>
              <dd>{when(p.endsAt)}</dd>
              <dt>{t('dao.snapshot')}</dt>
              <dd>{when(p.snapshotAt)}</dd>
              <dt>{t('dao.quorum')}</dt>
              <dd>
                <span data-testid="quorum">
                  {usd(p.quorumUsd)} ({p.quorumReached ? t('dao.quorumReached') : t('dao.quorumNotReached')})
                </span>
                {/* How the server derived it when the proposal was made: the rule's share of the value locked at the snapshot. */}
                {p.quorumRule ? (
                  <>
                    <br />
                    <span className="muted" data-testid="quorum-rule">
                      {t('dao.quorumRule', { share: formatPercent(formatUnits(BigInt(p.quorumRule.bps), 4), i18n.language), all: usd(p.quorumRule.tvlUsd) })}
                    </span>
                  </>
                ) : null}
              </dd>
            </dl>
          </section>
          <section className="card" aria-labelledby="proposal-results">
            <h2 id="proposal-results">{t('dao.results')}</h2>
            <ul className="dao__results" data-testid="results">
              {p.results.map((r) => (
                <li key={r.choice} data-testid={`result-${r.choice}`}>
                  <span>{r.label}</span> <strong data-testid={`result-power-${r.choice}`}>{usd(r.powerUsd)}</strong>{' '}
                  <span>{t('dao.votes', { count: r.votes })}</span>
                </li>
              ))}
            </ul>
            <p>
              {t('dao.total')}: <strong data-testid="total-power">{usd(p.totalPowerUsd)}</strong>
            </p>
            <p>
              <a href={`${apiBasePath}/dao/proposals/${p.id}/votes`} download={`proposal-${p.id}-votes.json`}>
                {t('dao.download')}
              </a>
            </p>
          </section>
          <section className="card" aria-labelledby="proposal-vote">
            <h2 id="proposal-vote">{t('dao.vote.title')}</h2>
            <p>
              {t('dao.vote.power')}: <strong data-testid="my-power">{usd(p.myPowerUsd)}</strong>
            </p>
            {p.myVote ? (
              <p data-testid="my-vote">{t('dao.vote.mine', { choice: p.choices[p.myVote.choice - 1] ?? p.myVote.choice, power: usd(p.myVote.powerUsd) })}</p>
            ) : null}
            {p.state === 'active' ? (
              <form className="form" noValidate onSubmit={castVote} aria-busy={busy}>
                <fieldset className="field dao__choices" aria-describedby={error ? 'vote-error' : undefined}>
                  <legend>{t('dao.vote.choice')}</legend>
                  {p.choices.map((label, i) => (
                    <div key={label} className="field__check-row">
                      <input type="radio" id={`vote-choice-${i + 1}`} name="choice" value={i + 1} checked={choice === i + 1} onChange={() => setChoice(i + 1)} />
                      <label htmlFor={`vote-choice-${i + 1}`}>{label}</label>
                    </div>
                  ))}
                </fieldset>
                <div className="field">
                  <label htmlFor="vote-reason">{t('dao.vote.reason')}</label>
                  <input id="vote-reason" type="text" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
                </div>
                {error ? (
                  <p id="vote-error" className="field__error" role="alert">
                    {error}
                  </p>
                ) : null}
                <div className="form__actions">
                  <button type="submit" className="btn btn--primary" disabled={busy}>
                    {busy ? t('dao.vote.busy') : p.myVote ? t('dao.vote.change') : t('dao.vote.submit')}
                  </button>
                </div>
              </form>
            ) : (
              <p>{t(p.state === 'pending' ? 'dao.vote.pending' : 'dao.vote.closed')}</p>
            )}
          </section>
        </div>
      )}
    </Page>
  );
}
