import { useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { apiFailure, apiMessages as M, type Profile, type WalletState } from '@app/contracts';
import { Field, useNotify, useObservable, useRemote } from '@app/ui';
import { isUserRejection } from '@app/web3';
import { useMessage } from '../forms/errors';
import { OwnerCodeButton } from './OwnerCodeButton';

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-6)}`;
const NETWORKS: Record<number, string> = { 1: 'Ethereum', 56: 'BNB Chain', 137: 'Polygon', 250: 'Fantom' };

type Action = 'link' | 'replace' | 'unlink';

/**
 * The linked wallet; link one (the shell links a connected wallet with EIP-4361; an account that
 * already holds money or rewards adds the password or a mailed code), replace it (the new
 * wallet's proof plus the password or a mailed code), or unlink it (the same proof).
 */
export function WalletSection({ profile, onChanged }: { profile: Profile; onChanged(): void }) {
  const { t } = useTranslation();
  const { api, bus, wallet } = useRemote();
  const state = useObservable<WalletState | null>(bus.wallet$, null);
  const notify = useNotify();
  const message = useMessage();
  const [action, setAction] = useState<Action | null>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const linked = profile.walletAddress;
  const network = state?.chainId ? `${NETWORKS[state.chainId] ?? t('settings.wallet.network', { id: state.chainId })}` : null;

  const report = (error: unknown) => {
    if (isUserRejection(error)) return notify({ kind: 'warning', message: t('settings.wallet.rejected') });
    const failure = apiFailure(error);
    const fields = failure?.fields ?? {};
    setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, message(v)])));
    notify({ kind: 'error', title: t('form.errorTitle'), message: message(failure?.message ?? t('form.failed')) });
  };

  const proof = () => (password ? { password } : code ? { code } : {});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password && !code) return setErrors({ password: message(M.ownerProofRequired) });
    setErrors({});
    setBusy(true);
    try {
      if (action === 'link') {
        if (!wallet.proveNewWallet || !state?.connected) throw new Error(t('settings.wallet.connectFirst'));
        await wallet.proveNewWallet(async (p) => {
          const answer = await api.call('connectMm', { body: { id: profile.id, metaMaskAddress: p.address, message: p.message, signature: p.signature, ...proof() } });
          notify({ kind: 'success', message: message(answer.message) });
        });
      } else if (action === 'unlink') {
        const answer = await api.call('settingsWalletUnlink', { body: proof() });
        bus.send({ type: 'session/reload-user' });
        notify({ kind: 'success', message: message(answer.message) });
      } else {
        if (!wallet.proveNewWallet) throw new Error(t('settings.wallet.unsupported'));
        await wallet.proveNewWallet(async (p) => {
          const answer = await api.call('settingsWalletReplace', { body: { metaMaskAddress: p.address, message: p.message, signature: p.signature, ...proof() } });
          notify({ kind: 'success', message: message(answer.message) });
        });
      }
      setAction(null);
      setPassword('');
      setCode('');
      onChanged();
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card settings__section" aria-labelledby="settings-wallet">
      <h2 id="settings-wallet">{t('settings.wallet.title')}</h2>
      {linked ? (
        <dl className="settings__facts">
          <dt>{t('settings.wallet.linked')}</dt>
          <dd data-testid="settings-wallet" title={linked}>{short(linked)}</dd>
          <dt>{t('settings.wallet.networkLabel')}</dt>
          <dd>{network ?? t('settings.wallet.notConnected')}</dd>
        </dl>
      ) : (
        <p>{t('settings.wallet.none')}</p>
      )}
      <div className="form__actions">
        {linked ? (
          <>
            <button type="button" className="btn btn--outline" aria-expanded={action === 'replace'} onClick={() => setAction(action === 'replace' ? null : 'replace')}>
              {t('settings.wallet.replace')}
            </button>
            <button type="button" className="btn btn--gray" aria-expanded={action === 'unlink'} onClick={() => setAction(action === 'unlink' ? null : 'unlink')}>
              {t('settings.wallet.unlink')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="btn btn--primary" onClick={() => bus.send({ type: 'wallet/connect' })}>
              {t('settings.wallet.link')}
            </button>
            <button type="button" className="btn btn--outline" aria-expanded={action === 'link'} onClick={() => setAction(action === 'link' ? null : 'link')}>
              {t('settings.wallet.linkWithProof')}
            </button>
          </>
        )}
      </div>
      {action ? (
        <form className="form settings__subform" noValidate onSubmit={submit} aria-busy={busy}>
          <p className="field__hint">{t(`settings.wallet.${action}Hint`)}</p>
          <Field id="settings-wallet-password" type="password" autoComplete="current-password" label={t('settings.wallet.password')} value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
          <OwnerCodeButton />
          <Field id="settings-wallet-code" label={t('settings.wallet.code')} autoComplete="one-time-code" inputMode="numeric" value={code} error={errors.code} onChange={(e) => setCode(e.target.value)} />
          <div className="form__actions">
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {t(action === 'unlink' ? 'settings.wallet.confirmUnlink' : 'settings.wallet.signNew')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
