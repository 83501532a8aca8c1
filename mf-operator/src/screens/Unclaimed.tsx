import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { assignBodySchema, claimQuerySchema, poolNameSchema } from '@app/contracts';
import { DataTable, Field, SelectField } from '@app/ui';
import { useConsole, useOperatorRead } from '../client';
import { coinText, utcTime } from '../format';
import { CodeConfirm } from './CodeConfirm';
import { DoneNotice, ReadState } from './ReadState';

type Transfer = { id: number; currency: string; amount: string; from: string; to: string; pool: string | null; transaction: string; createdAt: string };
type Claim = { id: number; userId: string; pool: string; signer: string; message: string };

/**
 * Transfers nobody reported: assigned to an account only with the sender's proof (the message
 * the API makes, signed by the sending wallet), which the API checks again.
 */
export function Unclaimed() {
  const { t, i18n } = useTranslation();
  const { call } = useConsole();
  const list = useOperatorRead<{ items: Transfer[] }>('unclaimed');
  const [chosen, setChosen] = useState<Transfer | null>(null);
  const [claim, setClaim] = useState<Claim | null>(null);
  const [claimError, setClaimError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const prepare = async (form: FormData) => {
    if (!chosen) return;
    const q = claimQuerySchema.safeParse({ account: String(form.get('account') ?? '').trim(), pool: String(form.get('pool') ?? '').trim() });
    if (!q.success) return setClaimError(t('form.invalid'));
    setClaimError(null);
    try {
      setClaim(await call<Claim>(`unclaimed/${chosen.id}/claim-message?${new URLSearchParams(q.data).toString()}`));
    } catch (e) {
      setClaimError(e instanceof Error ? e.message : String(e));
    }
  };
  const assign = async (totp: string, form: FormData) => {
    if (!chosen || !claim) return;
    const body = assignBodySchema.safeParse({ account: claim.userId, pool: claim.pool, message: claim.message, signature: String(form.get('signature') ?? '').trim() });
    if (!body.success) throw new Error(t('unclaimed.badSignature'));
    await call(`unclaimed/${chosen.id}/assign`, { method: 'POST', body: body.data, totp });
    setDone(t('unclaimed.assigned', { id: chosen.id }));
    setChosen(null);
    setClaim(null);
    list.reload();
  };

  return (
    <>
      <p className="muted">{t('unclaimed.intro')}</p>
      <DoneNotice text={done} />
      {chosen ? (
        <section className="card" aria-labelledby="claim-title">
          <h2 id="claim-title">{t('unclaimed.assignTitle', { id: chosen.id, amount: coinText(chosen.amount, chosen.currency, i18n.language) })}</h2>
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              void prepare(new FormData(e.currentTarget));
            }}
            noValidate
          >
            <Field id="claim-account" name="account" label={t('unclaimed.account')} hint={t('unclaimed.accountHint')} required />
            <SelectField id="claim-pool" name="pool" label={t('unclaimed.pool')} options={poolNameSchema.options.map((p) => ({ value: p, label: p }))} defaultValue={chosen.pool ?? poolNameSchema.options[0]} />
            {claimError ? (
              <p className="field__error" role="alert">
                {claimError}
              </p>
            ) : null}
            <div className="form__actions">
              <button type="submit" className="btn btn--outline">
                {t('unclaimed.makeMessage')}
              </button>
              <button type="button" className="btn btn--gray" onClick={() => { setChosen(null); setClaim(null); }}>
                {t('form.cancel')}
              </button>
            </div>
          </form>
          {claim ? (
            <CodeConfirm title={t('unclaimed.proofTitle', { signer: claim.signer })} submitLabel={t('unclaimed.assign')} onConfirm={assign}>
              <div className="field">
                <label htmlFor="claim-message">{t('unclaimed.message')}</label>
                <textarea id="claim-message" readOnly rows={8} value={claim.message} />
              </div>
              <Field id="claim-signature" name="signature" label={t('unclaimed.signature')} hint={t('unclaimed.signatureHint')} required className="field--mono" />
            </CodeConfirm>
          ) : null}
        </section>
      ) : null}
      <ReadState read={list}>
        {(data) => (
          <DataTable
            caption={t('unclaimed.title')}
            columns={[
              { key: 'id', header: t('withdrawals.col.id'), cell: (u) => u.id },
              { key: 'amount', header: t('withdrawals.col.amount'), cell: (u) => coinText(u.amount, u.currency, i18n.language), numeric: true },
              { key: 'from', header: t('unclaimed.from'), cell: (u) => u.from, className: 'operator__mono' },
              { key: 'to', header: t('unclaimed.to'), cell: (u) => u.to, className: 'operator__mono' },
              { key: 'at', header: t('audit.col.at'), cell: (u) => utcTime(u.createdAt) },
              {
                key: 'actions',
                header: t('withdrawals.col.actions'),
                cell: (u) => (
                  <button type="button" className="btn btn--sm btn--outline" onClick={() => { setDone(null); setClaim(null); setChosen(u); }}>
                    {t('unclaimed.assign')}
                  </button>
                ),
              },
            ]}
            rows={data.items}
            rowKey={(u) => u.id}
            empty={<p>{t('unclaimed.none')}</p>}
          />
        )}
      </ReadState>
    </>
  );
}
