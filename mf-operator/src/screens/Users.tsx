import { useState, type FormEvent } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { userLookupQuery } from '@app/contracts';
import { DataTable } from '@app/ui';
import { useOperatorRead } from '../client';
import { coinText, utcTime } from '../format';

type Move = { id: number; pool: string; currency: string; amount: string; status: string; transaction: string | null; createdAt: string };
type Found = {
  account: { id: string; email: string | null; wallet: string | null; role: string | null; lang: string | null; createdAt: string };
  holds: { withdrawalsHeldUntil: string | null };
  positions: { pool: string; currency: string; balance: string }[];
  deposits: Move[];
  withdrawals: Move[];
  sessions: { id: string; createdAt: string; expiresAt: string; ip: string | null; userAgent: string | null }[];
  audit: { seq: number; actor: string; action: string; at: string }[];
};

function Moves({ id, title, items }: { id: string; title: string; items: Move[] }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <DataTable
        captionId={id}
        columns={[
          { key: 'id', header: t('withdrawals.col.id'), cell: (m) => m.id },
          { key: 'pool', header: t('withdrawals.col.pool'), cell: (m) => m.pool },
          { key: 'amount', header: t('withdrawals.col.amount'), cell: (m) => coinText(m.amount, m.currency, i18n.language), numeric: true },
          { key: 'status', header: t('withdrawals.col.status'), cell: (m) => m.status },
          { key: 'at', header: t('audit.col.at'), cell: (m) => utcTime(m.createdAt) },
        ]}
        rows={items}
        rowKey={(m) => m.id}
        empty={<p>{t('overview.none')}</p>}
      />
    </section>
  );
}

/** A read-only look at one account, by e-mail, wallet or id; the API audits every lookup. */
export function Users() {
  const { t, i18n } = useTranslation();
  const [q, setQ] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const found = useOperatorRead<Found>(q === null ? null : `users?${new URLSearchParams({ q }).toString()}`);
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('q') ?? '').trim();
    const ok = userLookupQuery.safeParse({ q: text }).success;
    setInvalid(!ok);
    if (ok) setQ(text);
  };
  const u = found.data;
  return (
    <>
      <form className="card operator__filters" role="search" onSubmit={search} noValidate>
        <div className="field">
          <label htmlFor="u-q">{t('users.query')}</label>
          <input id="u-q" name="q" maxLength={320} aria-describedby="u-q-hint" aria-invalid={invalid || undefined} />
          <p id="u-q-hint" className="field__hint">
            {t('users.hint')}
          </p>
          {invalid ? <p className="field__error">{t('users.invalid')}</p> : null}
        </div>
        <div className="form__actions">
          <button type="submit" className="btn btn--outline">
            {t('users.search')}
          </button>
        </div>
      </form>
      {q === null ? null : found.error ? (
        <p className="alert alert--error" role="alert">
          {found.error}
        </p>
      ) : !u || found.loading ? (
        <p aria-busy="true">{t('form.loading')}</p>
      ) : (
        <div className="operator__grid" data-testid="user-found">
          <section className="card" aria-labelledby="u-account">
            <h2 id="u-account">{t('users.account')}</h2>
            <dl className="settings__facts">
              <dt>{t('users.id')}</dt>
              <dd>{u.account.id}</dd>
              <dt>{t('users.email')}</dt>
              <dd>{u.account.email ?? '—'}</dd>
              <dt>{t('users.wallet')}</dt>
              <dd>{u.account.wallet ?? '—'}</dd>
              <dt>{t('users.role')}</dt>
              <dd>{u.account.role ?? '—'}</dd>
              <dt>{t('users.since')}</dt>
              <dd>{utcTime(u.account.createdAt)}</dd>
              <dt>{t('users.hold')}</dt>
              <dd>{u.holds.withdrawalsHeldUntil ? utcTime(u.holds.withdrawalsHeldUntil) : t('overview.none')}</dd>
            </dl>
          </section>
          <section className="card" aria-labelledby="u-positions">
            <h2 id="u-positions">{t('users.positions')}</h2>
            {u.positions.length === 0 ? (
              <p>{t('overview.none')}</p>
            ) : (
              <ul>
                {u.positions.map((p) => (
                  <li key={`${p.pool}:${p.currency}`}>{`${p.pool}: ${coinText(p.balance, p.currency, i18n.language)}`}</li>
                ))}
              </ul>
            )}
            <h3>{t('users.sessions')}</h3>
            <p>{t('users.sessionsOpen', { count: u.sessions.length })}</p>
          </section>
          <Moves id="u-deposits" title={t('users.deposits')} items={u.deposits} />
          <Moves id="u-withdrawals" title={t('users.withdrawals')} items={u.withdrawals} />
          <section className="card operator__wide" aria-labelledby="u-audit">
            <h2 id="u-audit">{t('users.audit')}</h2>
            <ul>
              {u.audit.map((a) => (
                <li key={a.seq}>{`${utcTime(a.at)} · ${a.actor} · ${a.action}`}</li>
              ))}
            </ul>
          </section>
        </div>
      )}
    </>
  );
}
