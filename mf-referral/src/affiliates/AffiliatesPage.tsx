import { useState } from 'react';
import { Link } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import type { Affiliate, AffiliateSort } from '@app/contracts';
import { formatDay, formatUsd } from '@app/web3';
import { Amount, Page, useCabinetRevision, useRemote, useServerData } from '@app/ui';
import { Panel } from '../Panel';

const PAGE_SIZE = 20;
const whole = { minFraction: 0, maxFraction: 0 };
// The orders the server offers (its contract's list, copied as types only: a value imported from the
// contracts would bring zod into this page's first load).
const SORTS: readonly AffiliateSort[] = ['joined_desc', 'joined_asc', 'capital_desc', 'capital_asc', 'rewards_desc', 'rewards_asc'];

/** A labelled select of the list's filter or order. */
function Choice({ id, label, value, options, onChange }: { id: string; label: string; value: string; options: [string, string][]; onChange(value: string): void }) {
  return (
    <div className="field field--inline">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** /cabinet/affiliates: the downline of one level at a time, sorted and paged by the server. */
export function AffiliatesPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { api } = useRemote();
  const [level, setLevel] = useState(1);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<AffiliateSort>('joined_desc');
  // The levels the programme has (and their members), for the filter.
  const overview = useServerData((signal) => api.call('referrals', { signal }), [api]);
  const list = useServerData((signal) => api.call('referralsAffiliates', { query: { level, page, size: PAGE_SIZE, sort }, signal }), [api, level, page, sort]);
  useCabinetRevision(api, () => {
    overview.reload();
    list.reload();
  });
  // A member's capital is shown as the band it falls in, never the amount (another member's holdings).
  const bandText = ({ fromUsd, toUsd }: Affiliate['capitalBand']) =>
    toUsd === '0'
      ? t('affiliates.capitalNone')
      : toUsd === null
        ? t('affiliates.capitalTop', { from: formatUsd(fromUsd, lang, whole) })
        : t('affiliates.capitalBand', { from: formatUsd(fromUsd, lang, whole), to: formatUsd(toUsd, lang, whole) });
  const levels = overview.state.status === 'ready' ? overview.state.data.levels : [{ level: 1, members: 0 }];

  const filters = (
    <div className="referral-filters">
      <Choice
        id="affiliates-level"
        label={t('affiliates.level')}
        value={String(level)}
        options={levels.map((l) => [String(l.level), t('affiliates.levelOption', { level: l.level, members: l.members })])}
        onChange={(v) => {
          setLevel(Number(v));
          setPage(1);
        }}
      />
      <Choice
        id="affiliates-sort"
        label={t('affiliates.sort')}
        value={sort}
        options={SORTS.map((s) => [s, t(`affiliates.sorts.${s}`)])}
        onChange={(v) => {
          setSort(v as AffiliateSort);
          setPage(1);
        }}
      />
    </div>
  );

  return (
    <Page title={t('affiliates.title')}>
      <p>
        <Link to="/cabinet/refferal">{t('affiliates.back')}</Link>
      </p>
      <Panel id="affiliates" title={t('affiliates.listTitle', { level })} state={list.state} onRetry={list.reload} head={filters}>
        {(data) => (
          <>
            {data.items.length === 0 ? (
              <p className="muted" data-testid="affiliates-empty">
                {t('affiliates.none')}
              </p>
            ) : (
              <table className="data-table data-table--cards" data-testid="affiliates-table">
                <caption className="visually-hidden">{t('affiliates.caption', { level: data.level })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('affiliates.member')}</th>
                    <th scope="col">{t('affiliates.joined')}</th>
                    <th scope="col" className="num">{t('affiliates.capital')}</th>
                    <th scope="col" className="num">{t('affiliates.rewards')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((m, i) => (
                    <tr key={`${data.page}-${i}`} data-testid="affiliate">
                      <th scope="row" data-label={t('affiliates.member')} data-testid="affiliate-member">
                        {m.member}
                      </th>
                      <td data-label={t('affiliates.joined')}>{formatDay(m.joinedAt)}</td>
                      <td className="num" data-label={t('affiliates.capital')} data-testid="affiliate-capital">
                        {bandText(m.capitalBand)}
                      </td>
                      <td className="num" data-label={t('affiliates.rewards')} data-testid="affiliate-rewards">
                        <Amount units={m.rewards} decimals={data.decimals} currency={data.currency} lang={lang} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {data.total > data.size ? (
              <nav className="pager" aria-label={t('affiliates.pages')}>
                <button type="button" className="btn btn--gray btn--sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                  {t('affiliates.previous')}
                </button>
                <span>{t('affiliates.page', { page: data.page, pages: Math.ceil(data.total / data.size) })}</span>
                <button type="button" className="btn btn--gray btn--sm" disabled={page * data.size >= data.total} onClick={() => setPage((p) => p + 1)}>
                  {t('affiliates.next')}
                </button>
              </nav>
            ) : null}
          </>
        )}
      </Panel>
    </Page>
  );
}
