import { useMemo, useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { type BalanceResponse, type CabinetSummary, POOL_NAMES, type PoolName } from '@app/contracts';
import { formatDay, formatUsd } from '@app/web3';
import { useRemote, useServerData } from '@app/ui';
import { Chart } from '@app/ui/chart';
import { Panel } from './Panel';
import { addDays, centsOf, centsText } from './money';

const RANGES = { '7D': 7, '30D': 30, '90D': 90, '1Y': 365, All: 0 } as const;
type Range = keyof typeof RANGES;

/** Value per day in cents (today's prices), from the running balances /balance gives per position. */
export function dailyValues(items: BalanceResponse['items'], prices: Map<string, string>, decimals: Record<string, number>, end: string): { day: string; cents: bigint }[] {
  if (!items.length) return [];
  const byDay = new Map<string, BalanceResponse['items']>();
  for (const i of items) byDay.set(i.date, [...(byDay.get(i.date) ?? []), i]);
  const balances = new Map<string, { currency: string; units: bigint }>();
  const out: { day: string; cents: bigint }[] = [];
  const last = items[items.length - 1]!.date > end ? items[items.length - 1]!.date : end;
  for (let day = items[0]!.date; day <= last; day = addDays(day, 1)) {
    for (const i of byDay.get(day) ?? []) balances.set(`${i.pool}|${i.currency}`, { currency: i.currency, units: BigInt(i.balance ?? '0') });
    let cents = 0n;
    for (const b of balances.values()) cents += centsOf(b.units, prices.get(b.currency) ?? '0', decimals[b.currency] ?? 18);
    out.push({ day, cents });
  }
  return out;
}

export function BalanceHistory({ summary, revision }: { summary: CabinetSummary; revision: string }) {
  const { t, i18n } = useTranslation();
  const { api } = useRemote();
  const lang = i18n.language;
  const [range, setRange] = useState<Range>('30D');
  const [pool, setPool] = useState<PoolName | 'all'>('all');
  const { state, reload } = useServerData((signal) => api.call('balance', { query: pool === 'all' ? {} : { pool }, signal }), [api, pool, revision]);
  const prices = useMemo(() => new Map(summary.currencies.map((c) => [c.currency, c.priceUsd])), [summary]);

  const controls = (
    <div className="chart__controls">
      <div className="segmented" role="group" aria-label={t('history.range')}>
        {(Object.keys(RANGES) as Range[]).map((r) => (
          <button key={r} type="button" className="btn btn--xs btn--gray" aria-pressed={range === r} onClick={() => setRange(r)}>
            {t(`history.ranges.${r}`)}
          </button>
        ))}
      </div>
      <label className="field field--inline">
        <span>{t('history.pool')}</span>{' '}
        <select value={pool} onChange={(e) => setPool(e.target.value as PoolName | 'all')}>
          <option value="all">{t('history.allPools')}</option>
          {POOL_NAMES.map((p) => (
            <option key={p} value={p}>
              {t(`kinds.${p}`)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );

  return (
    <Panel id="balance-history" title={t('history.title')} state={state} onRetry={reload}>
      {(data) => {
        const all = dailyValues(data.items, prices, summary.decimals, summary.asOf);
        const days = RANGES[range] ? all.filter((v) => v.day > addDays(summary.asOf, -RANGES[range])) : all;
        if (!days.length) return <>{controls}<p className="muted">{t('history.empty')}</p></>;
        const first = days[0]!;
        const last = days[days.length - 1]!;
        return (
          <Chart
            title={t('history.title')}
            summary={t('history.summary', { from: formatDay(first.day), to: formatDay(last.day), start: formatUsd(centsText(first.cents), lang), end: formatUsd(centsText(last.cents), lang) })}
            days={days.map((d) => d.day)}
            // Plotting needs numbers; the text above and the table carry the exact figures.
            series={[{ label: t('history.value'), values: days.map((d) => Number(d.cents) / 100) }]}
            table={{ head: [t('history.day'), t('history.value')], rows: () => days.map((d) => ({ key: d.day, cells: [formatDay(d.day), formatUsd(centsText(d.cents), lang)] })) }}
            labels={{ showTable: t('chart.showTable'), showChart: t('chart.showChart') }}
            controls={controls}
          />
        );
      }}
    </Panel>
  );
}
