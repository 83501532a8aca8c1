import { useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { currencyCodeSchema, operatorWithdrawalsQuery, payoutStatusSchema, type ApprovalResult } from '@app/contracts';
import { DataTable, SelectField } from '@app/ui';
import { parseUnits } from '@app/web3';
import { useConsole, useOperatorRead } from '../client';
import { coinText, decimalsFor, hoursSince, utcTime } from '../format';
import { CodeConfirm } from './CodeConfirm';
import { DoneNotice, ReadState } from './ReadState';

type Item = {
  id: number;
  userId: string;
  pool: string;
  currency: string;
  amount: string;
  status: string;
  to: string;
  reason: string | null;
  createdAt: string;
  approvals: number;
  approvalsNeeded: number;
};
type Decision = { item: Item; kind: 'approve' | 'reject' };

const CURRENCIES = currencyCodeSchema.options;

/** The filters as the API's query: amounts typed in coins become base units of the chosen currency. */
function queryOf(form: FormData): { query: string } | { error: 'amountNeedsCurrency' | 'invalid' } {
  const text = (k: string) => String(form.get(k) ?? '').trim();
  const raw: Record<string, string> = {};
  for (const k of ['status', 'currency', 'user', 'olderThanHours']) if (text(k)) raw[k] = text(k);
  if (text('minAmount')) {
    const d = raw.currency ? decimalsFor(raw.currency) : undefined;
    if (d === undefined) return { error: 'amountNeedsCurrency' };
    try {
      raw.minAmount = parseUnits(text('minAmount').replace(',', '.'), d, 'up').toString();
    } catch {
      return { error: 'invalid' };
    }
  }
  if (!operatorWithdrawalsQuery.safeParse(raw).success) return { error: 'invalid' };
  return { query: new URLSearchParams(raw).toString() };
}

/** The withdrawals queue: filters, and approve or reject (with a reason), each with a fresh code. */
export function Withdrawals() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { call } = useConsole();
  const [query, setQuery] = useState('status=awaiting_approval');
  const [filterError, setFilterError] = useState<string | undefined>();
  const list = useOperatorRead<{ items: Item[] }>(`withdrawals${query ? `?${query}` : ''}`);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = queryOf(new FormData(event.currentTarget));
    if ('error' in q) return setFilterError(t(`withdrawals.filters.${q.error}`));
    setFilterError(undefined);
    setQuery(q.query);
  };

  const decide = async (totp: string, form: FormData) => {
    if (!decision) return;
    const { item, kind } = decision;
    if (kind === 'approve') {
      const r = await call<ApprovalResult>(`withdrawals/${item.id}/approve`, { method: 'POST', body: {}, totp });
      setDone(r.status === 'requested' ? t('withdrawals.approved', { id: item.id }) : t('withdrawals.approvedPartly', { id: item.id, approvals: r.approvals, needed: r.needed }));
    } else {
      const reason = String(form.get('reason') ?? '').trim();
      await call(`withdrawals/${item.id}/reject`, { method: 'POST', body: reason ? { reason } : {}, totp });
      setDone(t('withdrawals.rejected', { id: item.id }));
    }
    setDecision(null);
    list.reload();
  };

  return (
    <>
      <form className="card operator__filters" aria-label={t('withdrawals.filters.label')} onSubmit={filter} noValidate>
        <SelectField
          id="w-status"
          name="status"
          label={t('withdrawals.filters.status')}
          options={[{ value: '', label: t('withdrawals.filters.any') }, ...payoutStatusSchema.options.map((s) => ({ value: s, label: t(`withdrawals.status.${s}`) }))]}
          defaultValue="awaiting_approval"
        />
        <SelectField
          id="w-currency"
          name="currency"
          label={t('withdrawals.filters.currency')}
          options={[{ value: '', label: t('withdrawals.filters.any') }, ...CURRENCIES.map((c) => ({ value: c, label: c }))]}
          defaultValue=""
        />
        <div className="field">
          <label htmlFor="w-min">{t('withdrawals.filters.minAmount')}</label>
          <input id="w-min" name="minAmount" inputMode="decimal" />
        </div>
        <div className="field">
          <label htmlFor="w-age">{t('withdrawals.filters.olderThanHours')}</label>
          <input id="w-age" name="olderThanHours" inputMode="numeric" />
        </div>
        <div className="field">
          <label htmlFor="w-user">{t('withdrawals.filters.user')}</label>
          <input id="w-user" name="user" />
        </div>
        <div className="form__actions">
          <button type="submit" className="btn btn--outline">
            {t('withdrawals.filters.apply')}
          </button>
        </div>
        {filterError ? (
          <p className="field__error" role="alert">
            {filterError}
          </p>
        ) : null}
      </form>

      <DoneNotice text={done} />

      {decision ? (
        <CodeConfirm
          title={t(`withdrawals.${decision.kind}Title`, { id: decision.item.id, amount: coinText(decision.item.amount, decision.item.currency, lang) })}
          submitLabel={t(`withdrawals.${decision.kind}`)}
          onConfirm={decide}
          onCancel={() => setDecision(null)}
        >
          {decision.kind === 'reject' ? (
            <div className="field">
              <label htmlFor="w-reason">{t('withdrawals.reason')}</label>
              <input id="w-reason" name="reason" maxLength={500} />
            </div>
          ) : (
            <p className="muted">{t('withdrawals.approvalsSoFar', { approvals: decision.item.approvals, needed: decision.item.approvalsNeeded })}</p>
          )}
        </CodeConfirm>
      ) : null}

      <ReadState read={list}>
        {(data) => (
          <DataTable
            caption={t('withdrawals.title')}
            columns={[
              { key: 'id', header: t('withdrawals.col.id'), cell: (w) => w.id },
              { key: 'user', header: t('withdrawals.col.user'), cell: (w) => w.userId, className: 'operator__mono' },
              { key: 'pool', header: t('withdrawals.col.pool'), cell: (w) => w.pool },
              { key: 'amount', header: t('withdrawals.col.amount'), cell: (w) => coinText(w.amount, w.currency, lang), numeric: true },
              { key: 'status', header: t('withdrawals.col.status'), cell: (w) => t(`withdrawals.status.${w.status}`) },
              { key: 'approvals', header: t('withdrawals.col.approvals'), cell: (w) => t('withdrawals.approvalsCount', { approvals: w.approvals, needed: w.approvalsNeeded }), testId: 'approvals' },
              { key: 'age', header: t('withdrawals.col.age'), cell: (w) => <span title={utcTime(w.createdAt)}>{t('withdrawals.hours', { count: hoursSince(w.createdAt) })}</span> },
              {
                key: 'actions',
                header: t('withdrawals.col.actions'),
                cell: (w) =>
                  w.status === 'awaiting_approval' ? (
                    <span className="operator__actions">
                      <button type="button" className="btn btn--sm btn--primary" onClick={() => { setDone(null); setDecision({ item: w, kind: 'approve' }); }} aria-label={t('withdrawals.approveOne', { id: w.id })}>
                        {t('withdrawals.approve')}
                      </button>
                      <button type="button" className="btn btn--sm btn--gray" onClick={() => { setDone(null); setDecision({ item: w, kind: 'reject' }); }} aria-label={t('withdrawals.rejectOne', { id: w.id })}>
                        {t('withdrawals.reject')}
                      </button>
                    </span>
                  ) : null,
              },
            ]}
            rows={data.items}
            rowKey={(w) => w.id}
            rowAttrs={(w) => ({ 'data-testid': 'operator-withdrawal', 'data-id': w.id, 'data-status': w.status })}
            empty={<p data-testid="withdrawals-empty">{t('withdrawals.none')}</p>}
          />
        )}
      </ReadState>
    </>
  );
}
