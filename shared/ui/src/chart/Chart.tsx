import { Suspense, lazy, useState, type ReactNode } from 'react';
import type { ChartSeries } from './plot';

export type { ChartSeries } from './plot';

// uPlot and its CSS arrive with the first chart, never in a page's first load.
const Plot = lazy(() => import(/* webpackChunkName: "chart" */ './plot'));

export type ChartProps = {
  /** The chart's name for assistive technology. */
  title: string;
  /** The one-line text alternative, shown above the chart. */
  summary: string;
  /** Days (YYYY-MM-DD) along the x axis. */
  days: string[];
  series: ChartSeries[];
  /**
   * The same figures as exact text, for "show as table". The rows are made only when the table is
   * shown: formatting a year of figures is most of a chart's first render.
   */
  table: { head: string[]; rows: () => { key: string; cells: string[] }[] };
  labels: { showTable: string; showChart: string };
  /** Extra controls (a range switch) next to the toggle. */
  controls?: ReactNode;
  height?: number;
};

/**
 * A line chart with its text alternative: a one-line summary and a "show as table" toggle whose table
 * carries the exact figures (the drawing only places points; no amount is read off it).
 */
export function Chart({ title, summary, days, series, table, labels, controls, height = 240 }: ChartProps) {
  const [asTable, setAsTable] = useState(false);
  return (
    <figure className="chart" aria-label={title}>
      <figcaption className="chart__summary">{summary}</figcaption>
      <div className="chart__controls">
        {controls}
        <button type="button" className="btn btn--link chart__toggle" aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
          {asTable ? labels.showChart : labels.showTable}
        </button>
      </div>
      {asTable ? (
        // A box that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <div className="chart__table-wrap" tabIndex={0} role="region" aria-label={title}>
          <table className="data-table">
            <thead>
              <tr>
                {table.head.map((h, i) => (
                  <th key={h} scope="col" className={i ? 'num' : undefined}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows().map((r) => (
                <tr key={r.key}>
                  {r.cells.map((c, i) => (i ? <td key={i} className="num">{c}</td> : <th key={i} scope="row">{c}</th>))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Suspense fallback={<div className="skeleton chart__canvas" style={{ height }} />}>
          <Plot days={days} series={series} height={height} />
        </Suspense>
      )}
    </figure>
  );
}
