import { useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { currencyCodeSchema, POOL_NAMES, settingChangeBodySchema, type SettingChange, type SettingChangeBody, type SettingPreview } from '@app/contracts';
import { DataTable, Field, FormSummary, SelectField } from '@app/ui';
import { formatDecimal, parseUnits } from '@app/web3';
import { useConsole, useOperatorRead } from '../client';
import { apyPercent, bpsPercent, coinText, decimalsFor, percentToBps, percentToFraction, utcTime } from '../format';
import { CodeConfirm } from './CodeConfirm';
import { DoneNotice, ReadState } from './ReadState';

const CURRENCIES = currencyCodeSchema.options;
const RULE_FIELDS = ['fee', 'minimum', 'approvalThreshold', 'dualApprovalThreshold'] as const;
/** The rule's fields that may be removed (null): the minimum closes the currency, a threshold no longer applies. */
const NULLABLE = ['minimum', 'approvalThreshold', 'dualApprovalThreshold'] as const;
const LIMIT_FIELDS = ['perHour', 'perDay', 'windowHours'] as const;
const KINDS = ['apy', 'payout', 'limits', 'referral'] as const;
type Kind = (typeof KINDS)[number];
const kindKey = { apy: 'kindApy', payout: 'kindPayout', limits: 'kindLimits', referral: 'kindReferral' } as const;

type Rank = { title: string; capitalUsd: string; bonusBps: number };
/** The ranks as the API shows them (JSON, `settingFieldSchema`), one after another. */
export function ranksText(json: string, lang: string, rank: (r: { title: string; capital: string; bonus: string }) => string) {
  return (JSON.parse(json) as Rank[]).map((r) => rank({ title: r.title, capital: `${formatDecimal(r.capitalUsd, lang)}\u00a0USD`, bonus: bpsPercent(BigInt(r.bonusBps), lang) })).join(' · ');
}
/** The levels' basis points as the API shows them ("1000 300") in percentages. */
export const levelsText = (bps: string, lang: string) => bps.split(' ').map((b) => bpsPercent(BigInt(b), lang)).join(' · ');

/** One field's value as the operator reads it: a percentage, coins with every digit, a count, or what none means. */
function useValueText() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (c: Pick<SettingPreview, 'kind' | 'target'>, field: string, value: string | null) => {
    if (value === null) return field === 'minimum' ? t('money.closed') : t('money.never');
    if (c.kind === 'apy') return apyPercent(value, lang);
    if (c.kind === 'payout') return coinText(value, c.target, lang);
    if (field === 'levels') return levelsText(value, lang);
    if (field === 'ranks') return ranksText(value, lang, (r) => t('money.referral.rank', r));
    return /^\d+$/.test(value) ? formatDecimal(value, lang) : value;
  };
}

/** What a change does, one line per field: "Fee: 0.001 ETH → 0.002 ETH", then when. */
function ChangeText({ change }: { change: SettingPreview }) {
  const { t } = useTranslation();
  const text = useValueText();
  return (
    <>
      <ul className="operator__changes">
        {change.changes.map((c) => (
          <li key={c.field}>
            {/* An APY or a rule names its pool or currency; the limits and the programme are one setting each. */}
            {t(change.kind === 'apy' || change.kind === 'payout' ? 'money.change.line' : 'money.change.lineOwn', {
              field: t(`money.change.field.${c.field}`),
              target: change.target,
              from: text(change, c.field, c.from),
              to: text(change, c.field, c.to),
            })}
          </li>
        ))}
      </ul>
      <p className="muted">{change.effectiveFrom ? t('money.change.from', { day: change.effectiveFrom }) : t('money.change.onApproval')}</p>
    </>
  );
}

/** A referral version's parts from the form: rates and bonuses typed in percent, one rank a line; an error key when one cannot be read. */
function referralParts(text: (k: string) => string): Record<string, unknown> | { error: string } {
  const raw: Record<string, unknown> = {};
  if (text('levels')) {
    const levels = text('levels').split(/\s+/).map(percentToBps);
    if (levels.some((l) => l === undefined)) return { error: 'money.change.invalid.levels' };
    raw.levels = levels;
  }
  if (text('ranks')) {
    const ranks = text('ranks')
      .split(/\r?\n/)
      .filter((line) => line.trim())
      .map((line) => {
        const [title = '', capital = '', bonus = '', ...extra] = line.split(';').map((x) => x.trim());
        const bonusBps = percentToBps(bonus);
        return title && !extra.length && /^\d{1,20}([.,]\d{1,8})?$/.test(capital) && bonusBps !== undefined ? { title, capitalUsd: capital.replace(',', '.'), bonusBps } : null;
      });
    if (ranks.some((r) => r === null)) return { error: 'money.change.invalid.ranks' };
    raw.ranks = ranks;
  }
  if (text('currency')) raw.currency = text('currency');
  if (text('vestingDays')) {
    if (!/^\d{1,3}$/.test(text('vestingDays'))) return { error: 'money.change.invalid.count' };
    raw.vestingDays = Number(text('vestingDays'));
  }
  return Object.keys(raw).length ? raw : { error: 'money.change.invalid.nothing' };
}

/** The proposal's form as the contract's body; an error key when a figure cannot be read. */
export function bodyOf(form: FormData): { body: SettingChangeBody } | { error: string } {
  const text = (k: string) => String(form.get(k) ?? '').trim();
  let raw: Record<string, unknown>;
  if (text('kind') === 'limits') {
    raw = { kind: 'limits' };
    for (const f of LIMIT_FIELDS) {
      if (!text(f)) continue;
      if (!/^\d{1,7}$/.test(text(f))) return { error: 'money.change.invalid.count' };
      raw[f] = Number(text(f));
    }
    if (Object.keys(raw).length === 1) return { error: 'money.change.invalid.nothing' };
  } else if (text('kind') === 'referral') {
    const parts = referralParts(text);
    if ('error' in parts) return parts as { error: string };
    raw = { kind: 'referral', effectiveFrom: text('effectiveFrom'), ...parts };
  } else if (text('kind') === 'apy') {
    const apy = percentToFraction(text('apy'));
    if (apy === undefined) return { error: 'money.change.invalid.apy' };
    raw = { kind: 'apy', pool: text('pool'), apy, effectiveFrom: text('effectiveFrom') };
  } else {
    const currency = text('currency');
    const decimals = decimalsFor(currency) ?? 0;
    raw = { kind: 'payout', currency };
    for (const f of RULE_FIELDS) {
      if ((NULLABLE as readonly string[]).includes(f) && form.get(`${f}None`)) raw[f] = null;
      else if (text(f)) {
        try {
          raw[f] = parseUnits(text(f).replace(',', '.'), decimals).toString();
        } catch {
          return { error: 'money.change.invalid.amount' };
        }
      }
    }
    if (Object.keys(raw).length === 2) return { error: 'money.change.invalid.nothing' };
  }
  const parsed = settingChangeBodySchema.safeParse(raw);
  return parsed.success ? { body: parsed.data } : { error: 'form.invalid' };
}

/** Propose a change: fill in, see the preview (from what to what, and when), then confirm it with a fresh code. */
function ProposeChange({ onProposed }: { onProposed: (text: string) => void }) {
  const { t } = useTranslation();
  const { call } = useConsole();
  const [kind, setKind] = useState<Kind>('apy');
  const [error, setError] = useState<string | undefined>();
  const [preview, setPreview] = useState<{ body: SettingChangeBody; shown: SettingPreview } | null>(null);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

  const show = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const b = bodyOf(new FormData(event.currentTarget));
    if ('error' in b) return setError(t(b.error));
    setError(undefined);
    try {
      setPreview({ body: b.body, shown: await call<SettingPreview>('setting-changes/preview', { method: 'POST', body: b.body }) });
    } catch (e) {
      setError(e instanceof Error ? e.message : t('form.failed'));
    }
  };
  const propose = async (totp: string) => {
    if (!preview) return;
    const made = await call<SettingChange>('setting-changes', { method: 'POST', body: preview.body, totp });
    setPreview(null);
    onProposed(t('money.change.proposed', { id: made.id }));
  };

  if (preview) {
    return (
      <CodeConfirm title={t('money.change.previewTitle')} submitLabel={t('money.change.propose')} onConfirm={propose} onCancel={() => setPreview(null)}>
        <div data-testid="change-preview">
          <ChangeText change={preview.shown} />
        </div>
        <p className="muted">{t('money.change.fourEyes')}</p>
      </CodeConfirm>
    );
  }
  return (
    <form className="card form operator__propose" aria-labelledby="m-propose" onSubmit={(e) => void show(e)} noValidate>
      <h2 id="m-propose">{t('money.change.title')}</h2>
      <SelectField
        id="c-kind"
        name="kind"
        label={t('money.change.kind')}
        options={KINDS.map((k) => ({ value: k, label: t(`money.change.${kindKey[k]}`) }))}
        value={kind}
        onChange={(e) => setKind(KINDS.find((k) => k === e.target.value) ?? 'apy')}
      />
      {kind === 'apy' ? (
        <>
          <SelectField id="c-pool" name="pool" label={t('withdrawals.col.pool')} options={POOL_NAMES.map((p) => ({ value: p, label: p }))} />
          <Field id="c-apy" name="apy" inputMode="decimal" label={t('money.change.apy')} required />
          <Field id="c-from" name="effectiveFrom" type="date" min={tomorrow} label={t('money.change.effectiveFrom')} hint={t('money.change.effectiveHint')} required />
        </>
      ) : kind === 'limits' ? (
        <>
          <p className="muted">{t('money.change.limitsHint')}</p>
          {LIMIT_FIELDS.map((f) => (
            <Field key={f} id={`c-${f}`} name={f} inputMode="numeric" label={t(`money.change.field.${f}`)} />
          ))}
        </>
      ) : kind === 'referral' ? (
        <>
          <Field id="c-from" name="effectiveFrom" type="date" min={tomorrow} label={t('money.change.effectiveFrom')} hint={t('money.change.referralHint')} required />
          <Field id="c-levels" name="levels" inputMode="decimal" label={t('money.change.field.levels')} hint={t('money.change.levelsHint')} />
          <div className="field">
            <label htmlFor="c-ranks">{t('money.change.field.ranks')}</label>
            <textarea id="c-ranks" name="ranks" rows={3} aria-describedby="c-ranks-hint" />
            <p id="c-ranks-hint" className="field__hint">
              {t('money.change.ranksHint')}
            </p>
          </div>
          <SelectField id="c-referral-currency" name="currency" label={t('money.change.field.currency')} options={[{ value: '', label: t('money.change.keep') }, ...CURRENCIES.map((c) => ({ value: c, label: c }))]} />
          <Field id="c-vestingDays" name="vestingDays" inputMode="numeric" label={t('money.change.field.vestingDays')} />
        </>
      ) : (
        <>
          <SelectField id="c-currency" name="currency" label={t('withdrawals.filters.currency')} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
          <p className="muted">{t('money.change.keepHint')}</p>
          {RULE_FIELDS.map((f) => (
            <div key={f}>
              <Field id={`c-${f}`} name={f} inputMode="decimal" label={t(`money.change.field.${f}`)} />
              {(NULLABLE as readonly string[]).includes(f) ? (
                <div className="field field--check">
                  <div className="field__check-row">
                    <input id={`c-${f}-none`} name={`${f}None`} type="checkbox" value="yes" />
                    <label htmlFor={`c-${f}-none`}>{t(`money.change.none.${f}`)}</label>
                  </div>
                </div>
              ) : null}
            </div>
          ))}
        </>
      )}
      <FormSummary text={error} />
      <div className="form__actions">
        <button type="submit" className="btn btn--primary">
          {t('money.change.preview')}
        </button>
      </div>
    </form>
  );
}

type Decision = { change: SettingChange; kind: 'approve' | 'reject' };

/**
 * The money settings' changes: propose one with its preview, the pending ones to approve (another
 * operator) or reject with a reason, and the decided ones. `onApplied` re-reads the settings.
 */
export function SettingChanges({ onApplied }: { onApplied: () => void }) {
  const { t } = useTranslation();
  const { call } = useConsole();
  const pending = useOperatorRead<{ items: SettingChange[] }>('setting-changes?status=pending');
  const all = useOperatorRead<{ items: SettingChange[] }>('setting-changes');
  const [decision, setDecision] = useState<Decision | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const reload = () => {
    pending.reload();
    all.reload();
  };

  const decide = async (totp: string, form: FormData) => {
    if (!decision) return;
    const { change, kind } = decision;
    if (kind === 'approve') {
      await call(`setting-changes/${change.id}/approve`, { method: 'POST', body: {}, totp });
      setDone(t('money.change.applied', { id: change.id }));
      onApplied();
    } else {
      const reason = String(form.get('reason') ?? '').trim();
      if (!reason) throw new Error(t('money.change.reasonNeeded'));
      await call(`setting-changes/${change.id}/reject`, { method: 'POST', body: { reason }, totp });
      setDone(t('money.change.rejected', { id: change.id }));
    }
    setDecision(null);
    reload();
  };

  const decided = (all.data?.items ?? []).filter((c) => c.status !== 'pending');
  return (
    <>
      <DoneNotice text={done} />
      <ProposeChange
        onProposed={(text) => {
          setDone(text);
          reload();
        }}
      />
      {decision ? (
        <CodeConfirm
          title={t(`money.change.${decision.kind}Title`, { id: decision.change.id })}
          submitLabel={t(`money.change.${decision.kind}`)}
          onConfirm={decide}
          onCancel={() => setDecision(null)}
        >
          <ChangeText change={decision.change} />
          {decision.kind === 'reject' ? <Field id="c-reason" name="reason" label={t('money.change.reason')} maxLength={500} required /> : null}
        </CodeConfirm>
      ) : null}
      <section className="card operator__wide" aria-labelledby="m-pending">
        <h2 id="m-pending">{t('money.change.pending')}</h2>
        <ReadState read={pending}>
          {(data) => (
            <DataTable
              captionId="m-pending"
              columns={[
                { key: 'id', header: t('withdrawals.col.id'), cell: (c) => c.id },
                {
                  key: 'what',
                  header: t('money.change.what'),
                  cell: (c) => (
                    <>
                      <ChangeText change={c} />
                      {c.stale ? <p className="operator__flag">{t('money.change.stale')}</p> : null}
                    </>
                  ),
                },
                {
                  key: 'proposedBy',
                  header: t('money.change.proposedBy'),
                  cell: (c) => (
                    <>
                      {c.proposedBy} <span className="muted">{utcTime(c.createdAt)}</span>
                    </>
                  ),
                },
                {
                  key: 'actions',
                  header: t('withdrawals.col.actions'),
                  cell: (c) => (
                    <span className="operator__actions">
                      <button type="button" className="btn btn--sm btn--primary" onClick={() => { setDone(null); setDecision({ change: c, kind: 'approve' }); }} aria-label={t('money.change.approveOne', { id: c.id })}>
                        {t('money.change.approve')}
                      </button>
                      <button type="button" className="btn btn--sm btn--gray" onClick={() => { setDone(null); setDecision({ change: c, kind: 'reject' }); }} aria-label={t('money.change.rejectOne', { id: c.id })}>
                        {t('money.change.reject')}
                      </button>
                    </span>
                  ),
                },
              ]}
              rows={data.items}
              rowKey={(c) => c.id}
              rowAttrs={(c) => ({ 'data-testid': 'setting-change', 'data-id': c.id })}
              empty={<p>{t('money.change.nonePending')}</p>}
            />
          )}
        </ReadState>
      </section>
      <section className="card operator__wide" aria-labelledby="m-history">
        <h2 id="m-history">{t('money.change.history')}</h2>
        <ReadState read={all}>
          {() =>
            decided.length === 0 ? (
              <p>{t('money.change.noneDecided')}</p>
            ) : (
              <ul className="operator__history">
                {decided.map((c) => (
                  <li key={c.id} data-testid="setting-change-decided" data-id={c.id} data-status={c.status}>
                    <strong>{t(`money.change.status.${c.status}`, { id: c.id, by: c.decidedBy, proposer: c.proposedBy, at: c.decidedAt ? utcTime(c.decidedAt) : '' })}</strong>
                    {c.reason ? ` ${t('money.change.because', { reason: c.reason })}` : null}
                    <ChangeText change={c} />
                  </li>
                ))}
              </ul>
            )
          }
        </ReadState>
      </section>
    </>
  );
}
