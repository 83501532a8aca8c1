// The chart's drawing, in its own chunk with uPlot (docs/architecture.md says why uPlot).
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

export type ChartSeries = { label: string; values: (number | null)[]; tone?: 'primary' | 'success' | 'info'; scale?: 'left' | 'right' };

/** A series' colour is a chart token of the brand's theme: primary, success and info tones are series 1, 2 and 3. */
const SERIES_TOKEN = { primary: '--chart-1', success: '--chart-2', info: '--chart-3' } as const;

/** A token's value as the page's theme has it (uPlot draws on a canvas, which takes no var()). Unset: uPlot's own default. */
const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || undefined;

function options(width: number, height: number, series: ChartSeries[]): uPlot.Options {
  const text = cssVar('--text-muted');
  const grid = cssVar('--border');
  const axis = (scale: string, side: 0 | 1 | 2 | 3): uPlot.Axis => ({ scale, side, stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, size: 56 });
  const hasRight = series.some((s) => s.scale === 'right');
  return {
    width,
    height,
    // The exact figures are in the table and the summary; the legend would print floats.
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true } },
    axes: [
      { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, space: 60, values: (_u, ticks) => ticks.map((t) => new Date(t * 1000).toISOString().slice(5, 10)) },
      axis('left', 3),
      ...(hasRight ? [{ ...axis('right', 1), grid: { show: false } }] : []),
    ],
    series: [{}, ...series.map((s) => ({ label: s.label, scale: s.scale ?? 'left', stroke: cssVar(SERIES_TOKEN[s.tone ?? 'primary']), width: 2, spanGaps: true }))],
  };
}

/** Draws the series; redraws when the theme changes (colours come from the design tokens) or the box resizes. */
export default function Plot({ days, series, height }: { days: string[]; series: ChartSeries[]; height: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data: uPlot.AlignedData = [days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000), ...series.map((s) => s.values)];
    let plot: uPlot | null = null;
    const draw = () => {
      plot?.destroy();
      plot = new uPlot(options(Math.max(200, el.clientWidth), height, series), data, el);
    };
    draw();
    const themeWatch = new MutationObserver(draw);
    themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const resize = new ResizeObserver(() => plot?.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      themeWatch.disconnect();
      resize.disconnect();
      plot?.destroy();
    };
  }, [days, series, height]);
  return <div ref={box} className="chart__canvas" aria-hidden="true" />;
}
