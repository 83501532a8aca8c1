import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { useNotify } from '@app/ui';

// The QR code's generator stays out of the page's first load.
const InviteQr = lazy(() => import(/* webpackChunkName: "invite-qr" */ './InviteQr').then((m) => ({ default: m.InviteQr })));

/** Puts text on the clipboard; where the Clipboard API is refused, through a selected field. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.select();
    return document.execCommand('copy');
  }
}

/** The referral id and link, Copy, and the link as a QR code. */
export function Invite({ referralId, referralLink }: { referralId: string; referralLink: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    const ok = await copyText(referralLink, document.getElementById('referral-link') as HTMLInputElement | null);
    setCopied(ok ? 'copied' : 'failed');
    if (ok) notify({ kind: 'success', message: t('invite.copied') });
  };
  return (
    <div className="referral-invite">
      <div className="referral-invite__text">
        <dl className="stat">
          <dt>{t('invite.id')}</dt>
          <dd data-testid="referral-id">{referralId}</dd>
        </dl>
        <div className="field field--mono">
          <label className="field__label" htmlFor="referral-link">
            {t('invite.link')}
          </label>
          <input id="referral-link" type="text" readOnly value={referralLink} onFocus={(e) => e.currentTarget.select()} aria-describedby="referral-link-hint" />
          <p id="referral-link-hint" className="field__hint">
            {t('invite.hint')}
          </p>
        </div>
        <div className="form__actions">
          <button type="button" className="btn btn--primary" onClick={() => void copy()}>
            {t('invite.copy')}
          </button>
          <span role="status" className={copied === 'failed' ? 'field__error' : 'muted'}>
            {copied === 'copied' ? t('invite.copied') : copied === 'failed' ? t('invite.copyFailed') : ''}
          </span>
        </div>
      </div>
      <figure className="referral-qr">
        <Suspense fallback={<div className="skeleton referral-qr__placeholder" />}>
          <InviteQr value={referralLink} label={t('invite.qr')} />
        </Suspense>
        <figcaption className="muted">{t('invite.qrCaption')}</figcaption>
      </figure>
    </div>
  );
}
