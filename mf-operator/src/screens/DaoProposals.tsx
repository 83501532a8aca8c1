import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { newProposalBodySchema } from '@app/contracts';
import { DataTable, Field } from '@app/ui';
import { useConsole, useOperatorRead } from '../client';
import { utcTime } from '../format';
import { CodeConfirm } from './CodeConfirm';
import { DoneNotice, ReadState } from './ReadState';

type Proposal = { id: string; title: string; state: 'active' | 'pending' | 'closed'; choices: string[]; startsAt: string; endsAt: string };

/** A local date-time field's value (no zone) as an ISO instant in UTC, or undefined. */
const instant = (local: string) => (local ? `${local}${local.length === 16 ? ':00' : ''}Z` : undefined);

/** DAO proposals: open one (title, text, choices, voting window in UTC, quorum) or close one now. */
export function DaoProposals() {
  const { t } = useTranslation();
  const { call } = useConsole();
  const list = useOperatorRead<{ items: Proposal[] }>('dao/proposals');
  const [closing, setClosing] = useState<Proposal | null>(null);
  const [creating, setCreating] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const create = async (totp: string, form: FormData) => {
    const text = (k: string) => String(form.get(k) ?? '').trim();
    const startsAt = instant(text('startsAt')) ?? new Date().toISOString();
    const body = newProposalBodySchema.safeParse({
      title: text('title'),
      body: text('body'),
      choices: text('choices').split(',').map((c) => c.trim()).filter(Boolean),
      startsAt,
      endsAt: instant(text('endsAt')),
      snapshotAt: startsAt,
      ...(text('quorumUsd') ? { quorumUsd: text('quorumUsd') } : {}),
    });
    if (!body.success) throw new Error(t('dao.invalid'));
    const made = await call<{ id: string }>('dao/proposals', { method: 'POST', body: body.data, totp });
    setDone(t('dao.created', { id: made.id }));
    setCreating(false);
    list.reload();
  };
  const close = async (totp: string) => {
    if (!closing) return;
    await call(`dao/proposals/${closing.id}/close`, { method: 'POST', body: {}, totp });
    setDone(t('dao.closed', { id: closing.id }));
    setClosing(null);
    list.reload();
  };

  return (
    <>
      <DoneNotice text={done} />
      {creating ? (
        <CodeConfirm title={t('dao.new')} submitLabel={t('dao.create')} onConfirm={create} onCancel={() => setCreating(false)}>
          <Field id="p-title" name="title" label={t('dao.fields.title')} maxLength={200} required />
          <div className="field">
            <label htmlFor="p-body">{t('dao.fields.body')}</label>
            <textarea id="p-body" name="body" rows={5} maxLength={20_000} />
          </div>
          <Field id="p-choices" name="choices" label={t('dao.fields.choices')} hint={t('dao.fields.choicesHint')} required />
          <Field id="p-starts" name="startsAt" type="datetime-local" label={t('dao.fields.startsAt')} hint={t('dao.fields.utc')} />
          <Field id="p-ends" name="endsAt" type="datetime-local" label={t('dao.fields.endsAt')} hint={t('dao.fields.utc')} required />
          <Field id="p-quorum" name="quorumUsd" inputMode="decimal" label={t('dao.fields.quorum')} />
        </CodeConfirm>
      ) : (
        <p>
          <button type="button" className="btn btn--primary" onClick={() => { setDone(null); setCreating(true); }}>
            {t('dao.new')}
          </button>
        </p>
      )}
      {closing ? <CodeConfirm title={t('dao.closeTitle', { title: closing.title })} submitLabel={t('dao.close')} onConfirm={close} onCancel={() => setClosing(null)} /> : null}
      <ReadState read={list}>
        {(data) => (
          <DataTable
            caption={t('dao.title')}
            columns={[
              { key: 'id', header: t('withdrawals.col.id'), cell: (p) => p.id },
              { key: 'title', header: t('dao.fields.title'), cell: (p) => p.title },
              { key: 'state', header: t('dao.state'), cell: (p) => t(`dao.states.${p.state}`) },
              { key: 'ends', header: t('dao.fields.endsAt'), cell: (p) => utcTime(p.endsAt) },
              {
                key: 'actions',
                header: t('withdrawals.col.actions'),
                cell: (p) =>
                  p.state === 'closed' ? null : (
                    <button type="button" className="btn btn--sm btn--gray" onClick={() => { setDone(null); setClosing(p); }} aria-label={t('dao.closeOne', { title: p.title })}>
                      {t('dao.close')}
                    </button>
                  ),
              },
            ]}
            rows={data.items}
            rowKey={(p) => p.id}
            empty={<p>{t('dao.none')}</p>}
          />
        )}
      </ReadState>
    </>
  );
}
