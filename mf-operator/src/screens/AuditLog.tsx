import { useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { auditQuerySchema, type AuditEntry, type AuditVerify } from '@app/contracts';
import { DataTable } from '@app/ui';
import { useConsole, useOperatorRead } from '../client';
import { utcTime } from '../format';
import { ReadState } from './ReadState';

const detail = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** The entries as CSV (RFC 4180): every field quoted, so commas and quotes in a reason stay in their cell. */
export function auditCsv(items: AuditEntry[]): string {
  const cell = (v: string) => `"${v.replaceAll('"', '""')}"`;
  const head = ['seq', 'at', 'actor', 'action', 'target', 'before', 'after', 'hash'];
  const rows = items.map((e) => [String(e.seq), e.at, e.actor, e.action, e.target ?? '', detail(e.before), detail(e.after), e.hash].map(cell).join(','));
  return `${[head.join(','), ...rows].join('\r\n')}\r\n`;
}

/** The audit log: filter by operator, action and target; export what is shown; check the chain. */
export function AuditLog() {
  const { t } = useTranslation();
  const { call } = useConsole();
  const [query, setQuery] = useState('');
  const [invalid, setInvalid] = useState(false);
  const log = useOperatorRead<{ items: AuditEntry[] }>(`audit${query ? `?${query}` : ''}`);
  const [verify, setVerify] = useState<AuditVerify | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);

  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const raw: Record<string, string> = {};
    for (const k of ['actor', 'action', 'target']) {
      const v = String(form.get(k) ?? '').trim();
      if (v) raw[k] = v;
    }
    const ok = auditQuerySchema.safeParse(raw).success;
    setInvalid(!ok);
    if (ok) setQuery(new URLSearchParams(raw).toString());
  };
  const check = () => {
    setVerifyError(null);
    call<AuditVerify>('audit/verify').then(setVerify, (e: unknown) => setVerifyError(e instanceof Error ? e.message : String(e)));
  };
  const exportHref = log.data ? `data:text/csv;charset=utf-8,${encodeURIComponent(auditCsv(log.data.items))}` : undefined;

  return (
    <>
      <form className="card operator__filters" aria-label={t('audit.filters.label')} onSubmit={filter} noValidate>
        {(['actor', 'action', 'target'] as const).map((k) => (
          <div className="field" key={k}>
            <label htmlFor={`a-${k}`}>{t(`audit.filters.${k}`)}</label>
            <input id={`a-${k}`} name={k} maxLength={200} />
          </div>
        ))}
        <div className="form__actions">
          <button type="submit" className="btn btn--outline">
            {t('withdrawals.filters.apply')}
          </button>
          {exportHref ? (
            <a className="btn btn--gray" href={exportHref} download="operator-audit.csv">
              {t('audit.export')}
            </a>
          ) : null}
          <button type="button" className="btn btn--gray" onClick={check}>
            {t('audit.verify')}
          </button>
        </div>
        {invalid ? (
          <p className="field__error" role="alert">
            {t('form.invalid')}
          </p>
        ) : null}
      </form>
      {verify ? (
        <p className={`alert ${verify.ok ? 'operator__done' : 'alert--error'}`} role="status" data-testid="audit-verify">
          {verify.ok ? t('audit.verified', { rows: verify.rows }) : t('audit.broken', { seq: verify.brokenAt, problem: verify.problem })}
        </p>
      ) : null}
      {verifyError ? (
        <p className="alert alert--error" role="alert">
          {verifyError}
        </p>
      ) : null}
      <ReadState read={log}>
        {(data) => (
          <DataTable
            caption={t('audit.title')}
            columns={[
              { key: 'seq', header: t('audit.col.seq'), cell: (e) => e.seq },
              { key: 'at', header: t('audit.col.at'), cell: (e) => utcTime(e.at) },
              { key: 'actor', header: t('audit.col.actor'), cell: (e) => e.actor },
              { key: 'action', header: t('audit.col.action'), cell: (e) => e.action },
              { key: 'target', header: t('audit.col.target'), cell: (e) => e.target ?? '' },
              { key: 'after', header: t('audit.col.after'), cell: (e) => detail(e.after), className: 'operator__mono' },
            ]}
            rows={data.items}
            rowKey={(e) => e.seq}
            rowAttrs={(e) => ({ 'data-testid': 'audit-row', 'data-action': e.action, 'data-actor': e.actor, 'data-target': e.target ?? '' })}
            empty={<p>{t('audit.none')}</p>}
          />
        )}
      </ReadState>
    </>
  );
}
