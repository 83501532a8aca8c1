import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { solvencyAttestBodySchema, type DeclaredAddress, type SolvencySnapshot } from '@app/contracts';
import { DataTable, Field } from '@app/ui';
import { useConsole, useOperatorRead } from '../client';
import { bpsPercent, coinText } from '../format';
import { CodeConfirm } from './CodeConfirm';
import { DoneNotice, ReadState } from './ReadState';

/**
 * A snapshot's reserves over its liabilities per currency, in basis points rounded down (bigint):
 * only the addresses that have proven control count; null where nothing is owed.
 */
export function snapshotBps(s: SolvencySnapshot): { currency: string; reserves: bigint; bps: bigint | null }[] {
  return s.header.currencies.map((currency, i) => {
    const owed = BigInt(s.header.sums[i] ?? '0');
    const reserves = s.reserves.filter((r) => r.currency === currency).reduce((sum, r) => sum + BigInt(r.balance), 0n);
    return { currency, reserves, bps: owed === 0n ? null : (reserves * 10_000n) / owed };
  });
}

/** The role order the addresses are grouped in. */
const ROLES: DeclaredAddress['role'][] = ['pool', 'float', 'cold', 'treasury'];

/**
 * The latest proof-of-solvency snapshot on the overview: its ratio per currency and each declared
 * address by role. An address awaiting its proof of control (the cold address: its key is offline)
 * shows the exact message its key holder signs; the operator pastes the signature, the API checks it
 * and only then counts the address's balances at the snapshot's block.
 */
export function SolvencyProofs() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { call } = useConsole();
  const list = useOperatorRead<{ items: SolvencySnapshot[] }>('solvency');
  const [chosen, setChosen] = useState<{ snapshotId: number; address: DeclaredAddress } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const roleText = (a: DeclaredAddress) => (a.role === 'pool' ? t('overview.proof.roles.pool', { pools: a.pool ?? '' }) : t(`overview.proof.roles.${a.role}`));

  const attest = async (totp: string, form: FormData) => {
    if (!chosen) return;
    const body = solvencyAttestBodySchema.safeParse({ address: chosen.address.address, signature: String(form.get('signature') ?? '').trim() });
    if (!body.success) throw new Error(t('overview.proof.badSignature'));
    await call(`solvency/${chosen.snapshotId}/attest`, { method: 'POST', body: body.data, totp });
    setDone(t('overview.proof.attested', { role: roleText(chosen.address), id: chosen.snapshotId }));
    setChosen(null);
    list.reload();
  };

  return (
    <section className="card operator__wide" aria-labelledby="ov-proof" data-testid="solvency-proofs">
      <h2 id="ov-proof">{t('overview.proof.title')}</h2>
      <DoneNotice text={done} />
      <ReadState read={list}>
        {(data) => {
          const s = data.items[0];
          if (!s) return <p className="muted">{t('overview.proof.none')}</p>;
          const id = s.header.snapshotId;
          const addresses = [...s.addresses].sort((a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role));
          return (
            <>
              <p data-testid="proof-snapshot" data-snapshot={id}>{t('overview.proof.snapshot', { id, block: s.header.blockNumber })}</p>
              <ul className="operator__solvency" aria-label={t('overview.proof.ratios', { id })}>
                {snapshotBps(s).map((f) => (
                  <li key={f.currency} data-testid="proof-ratio" data-currency={f.currency} data-reserves={String(f.reserves)}>
                    {t('overview.solvency.ratio', { currency: f.currency, ratio: f.bps === null ? t('overview.unknown') : bpsPercent(f.bps, lang, 2) })}
                  </li>
                ))}
              </ul>
              <DataTable
                caption={t('overview.proof.addresses', { id })}
                columns={[
                  { key: 'role', header: t('overview.proof.role'), cell: roleText },
                  { key: 'address', header: t('overview.reconcile.address'), cell: (a) => a.address, className: 'operator__mono' },
                  {
                    key: 'held',
                    header: t('overview.proof.held'),
                    cell: (a) =>
                      a.signature === null
                        ? t('overview.proof.notCounted')
                        : s.reserves
                            .filter((r) => r.address === a.address)
                            .map((r) => coinText(r.balance, r.currency, lang))
                            .join(', ') || t('overview.none'),
                  },
                  {
                    key: 'proof',
                    header: t('overview.proof.control'),
                    cell: (a) =>
                      a.signature !== null ? (
                        <span className="operator__ok">{t('overview.proof.proven')}</span>
                      ) : (
                        <>
                          <span className="operator__bad">{t('overview.proof.awaiting')}</span>{' '}
                          <button type="button" className="btn btn--sm btn--outline" data-testid="proof-submit" onClick={() => { setDone(null); setChosen({ snapshotId: id, address: a }); }}>
                            {t('overview.proof.submit')}
                          </button>
                        </>
                      ),
                  },
                ]}
                rows={addresses}
                rowKey={(a) => a.address}
                rowAttrs={(a) => ({ 'data-testid': 'proof-address', 'data-role': a.role, 'data-proven': a.signature !== null, className: a.signature === null ? 'operator__row--bad' : undefined })}
              />
            </>
          );
        }}
      </ReadState>
      {chosen ? (
        <CodeConfirm
          title={t('overview.proof.confirmTitle', { role: roleText(chosen.address), id: chosen.snapshotId })}
          submitLabel={t('overview.proof.record')}
          onConfirm={attest}
          onCancel={() => setChosen(null)}
        >
          <p className="operator__mono" data-testid="proof-address-chosen">{chosen.address.address}</p>
          <p className="muted">{t('overview.proof.how')}</p>
          <div className="field">
            <label htmlFor="proof-message">{t('overview.proof.message')}</label>
            <textarea id="proof-message" readOnly rows={3} value={chosen.address.message} data-testid="proof-message" />
          </div>
          <Field id="proof-signature" name="signature" label={t('unclaimed.signature')} hint={t('unclaimed.signatureHint')} required className="field--mono" />
        </CodeConfirm>
      ) : null}
    </section>
  );
}
