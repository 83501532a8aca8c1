import { useState } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import type { PoolGraphRange, PoolName } from '@app/contracts';
import { formatDay, formatPercent, formatUsd } from '@app/web3';
import { useRemote, useServerData } from '@app/ui';
import { Chart } from '@app/ui/chart';
import { Panel } from './Panel';

// The server's ranges (its contract's list, copied as types only: a value imported from the
// contracts would bring zod into the page's first load).
const RANGES: readonly PoolGraphRange[] = ['30D', '90D', '1Y', 'All'];
const bpsFraction = (bps: number) => `${Math.trunc(bps / 10000)}.${String(bps % 10000).padStart(4, '0')}`;

/** APY and TVL history from the pool's books (/pools/{pool}/graph), the range chosen on the server. */
export function Graph({ pool }: { pool: PoolName }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { api } = useRemote();
  // The first range is the one the page's early call asks for (firstCalls in mf-pools/routes.json).
  const [range, setRange] = useState<PoolGraphRange>('90D');
  const { state, reload } = useServerData((signal) => api.call('poolGraph', { params: { pool }, query: { range }, signal }), [api, pool, range]);
  const controls = (
    <div className="segmented" role="group" aria-label={t('insight.range')}>
      {RANGES.map((r) => (
        <button key={r} type="button" className="btn btn--xs btn--gray" aria-pressed={range === r} onClick={() => setRange(r)}>
          {t(`insight.ranges.${r}`)}
        </button>
      ))}
    </div>
  );
  return (
    <Panel id="graph" title={t('insight.graph')} state={state} onRetry={reload}>
      {(data) => {
        const points = data.points;
        if (!points.length) return <p className="muted">{t('insight.noGraph')}</p>;
        const first = points[0]!;
        const last = points[points.length - 1]!;
        return (
          <Chart
            title={t('insight.graph')}
            summary={t('insight.graphSummary', {
              from: formatDay(first.date),
              to: formatDay(last.date),
              apy: formatPercent(bpsFraction(last.apyBps), lang),
              tvl: formatUsd(last.tvlUsd, lang),
            })}
            days={points.map((p) => p.date)}
            // Plotting needs numbers; the summary and the table carry the exact figures.
            series={[
              { label: t('insight.apy'), values: points.map((p) => p.apyBps / 100), tone: 'primary', scale: 'left' },
              { label: t('insight.tvl'), values: points.map((p) => Number(p.tvlUsd)), tone: 'success', scale: 'right' },
            ]}
            table={{
              head: [t('insight.day'), t('insight.apy'), t('insight.tvl')],
              rows: () => points.map((p) => ({ key: p.date, cells: [formatDay(p.date), formatPercent(bpsFraction(p.apyBps), lang), formatUsd(p.tvlUsd, lang)] })),
            }}
            labels={{ showTable: t('insight.showTable'), showChart: t('insight.showChart') }}
            controls={controls}
          />
        );
      }}
    </Panel>
  );
}
