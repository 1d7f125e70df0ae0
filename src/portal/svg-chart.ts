/** One bar of a chart: a UTC day and its value. */
export interface ChartPoint {
  label: string;
  value: number;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A bar chart as inline SVG, drawn on the server: no script, no third-party asset, readable by
 * screen readers (a title, and each bar's value in its own <title>).
 */
export function barChart(title: string, points: ChartPoint[], width = 420, height = 120): string {
  const max = Math.max(1, ...points.map((p) => p.value));
  const gap = 2;
  const barWidth = Math.max(1, (width - gap * (points.length - 1)) / Math.max(1, points.length));
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const bars = points
    .map((p, i) => {
      const h = Math.round((p.value / max) * (height - 4));
      return `<rect class="chart-bar" x="${(i * (barWidth + gap)).toFixed(1)}" y="${height - h}" width="${barWidth.toFixed(1)}" height="${h}"><title>${escape(p.label)}: ${p.value}</title></rect>`;
    })
    .join('');
  return (
    `<figure class="chart"><figcaption>${escape(title)} <span class="hint">— ${total.toLocaleString('en-US')} in ${points.length} days</span></figcaption>` +
    `<svg viewBox="0 0 ${width} ${height}" width="100%" height="${height}" role="img" aria-label="${escape(title)}: ${total} in ${points.length} days" preserveAspectRatio="none"><line class="chart-axis" x1="0" y1="${height - 0.5}" x2="${width}" y2="${height - 0.5}"></line>${bars}</svg></figure>`
  );
}

/** The last `days` UTC days, oldest first, as YYYY-MM-DD. */
export function lastDays(days: number, now = new Date()): string[] {
  const today = Date.parse(now.toISOString().slice(0, 10));
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** How a series is bucketed (as the stats API's timeseries). */
export type SeriesInterval = 'hour' | 'day' | 'month';

/** One bucket of a series: its start as the stats API gives it (YYYY-MM-DD, YYYY-MM-01 or YYYY-MM-DDTHH:00:00Z). */
export interface SeriesPoint {
  date: string;
  value: number;
}

export interface TimeseriesChartInput {
  /** Unique on the page: the ids of the title and description. */
  id: string;
  /** `Unique visitors per day`. */
  title: string;
  /** The metric's name in the table fallback's header (`Unique visitors`). */
  metric: string;
  interval: SeriesInterval;
  points: SeriesPoint[];
  /** A value as shown (`41 %`, `1m 13s`); default: a grouped integer. */
  format?: (value: number) => string;
  /** The highest value the y-axis may need (100 for percents). */
  ceiling?: number;
}

const PLOT_TOP = 22;
const PLOT_HEIGHT = 170;
const AXIS_LABEL_Y = PLOT_TOP + PLOT_HEIGHT + 22;
const CHART_HEIGHT = AXIS_LABEL_Y + 8;
/** The plot's own coordinates: stretched to the width (the text around it is not: see timeseriesChart). */
const PLOT_W = 1000;
const PLOT_H = 100;
const MAX_X_TICKS = 6;
const Y_STEPS = 4;

const grouped = (n: number) => n.toLocaleString('en-US');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A bucket's label on the x-axis: `Nov 3`, `14:00`, `Nov` (`Nov 2026` on the first tick and in January). */
export function bucketLabel(date: string, interval: SeriesInterval, first = false): string {
  const month = MONTHS[Number(date.slice(5, 7)) - 1];
  if (interval === 'hour') return `${date.slice(11, 13)}:00`;
  if (interval === 'month') return first || month === 'Jan' ? `${month} ${date.slice(0, 4)}` : month;
  return `${month} ${Number(date.slice(8, 10))}`;
}

/** A bucket in full, for tooltips and the table: `Tue, Nov 3, 2026`, `Nov 3, 2026, 14:00–15:00 UTC`, `November 2026`. */
export function bucketName(date: string, interval: SeriesInterval): string {
  const at = new Date(interval === 'hour' ? date : `${date.slice(0, 10)}T00:00:00Z`);
  if (interval === 'month') return at.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const day = at.toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  if (interval === 'day') return day;
  const hour = Number(date.slice(11, 13));
  return `${day}, ${String(hour).padStart(2, '0')}:00–${String((hour + 1) % 24).padStart(2, '0')}:00 UTC`;
}

/** The y-axis' top and step: 4 steps of 1, 2, 2.5, 3, 4, 5, 6 or 8 × 10ⁿ (whole numbers), covering `max`. */
export function yScale(max: number, ceiling = Infinity): { top: number; step: number } {
  if (max <= 0) return { top: Y_STEPS, step: 1 };
  const raw = max / Y_STEPS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 2.5, 3, 4, 5, 6, 8, 10].map((m) => m * power).find((s) => s >= raw && Number.isInteger(s)) ?? 10 * power);
  const top = step * Y_STEPS;
  return top > ceiling && ceiling >= max ? { top: ceiling, step: ceiling / Y_STEPS } : { top, step };
}

/** Which buckets get a label: at most 6, evenly spread, the first and the last among them. */
export function tickIndexes(count: number, max = MAX_X_TICKS): number[] {
  if (count <= max) return Array.from({ length: count }, (_, i) => i);
  return [...new Set(Array.from({ length: max }, (_, i) => Math.round((i * (count - 1)) / (max - 1))))];
}

/**
 * A line chart of a series as inline SVG, drawn on the server: the plot stretches to the width (its
 * own coordinates, `preserveAspectRatio="none"`, strokes that do not scale) while the axes' text is
 * laid out in the outer SVG's pixels and percents, so labels stay readable from 390 px to wide
 * screens. Dated x-axis ticks, y-axis values on their gridlines; for screen readers a title and a
 * description (total, highest bucket), each bucket's value in a tooltip, and the figures as a table.
 */
export function timeseriesChart(input: TimeseriesChartInput): string {
  const format = input.format ?? grouped;
  const { points, interval } = input;
  const n = points.length;
  const { top, step } = yScale(Math.max(0, ...points.map((p) => p.value)), input.ceiling);
  const xOf = (i: number) => (n <= 1 ? PLOT_W / 2 : ((i + 0.5) / n) * PLOT_W);
  const yOf = (v: number) => PLOT_H - (Math.max(0, v) / top) * PLOT_H;
  const coords =
    n === 1 ? [`0,${yOf(points[0].value)}`, `${PLOT_W},${yOf(points[0].value)}`] : points.map((p, i) => `${xOf(i).toFixed(1)},${yOf(p.value).toFixed(2)}`);
  const line = coords.length ? `M${coords.join('L')}` : '';
  const area = coords.length ? `${line}L${coords.at(-1)!.split(',')[0]},${PLOT_H}L${coords[0].split(',')[0]},${PLOT_H}Z` : '';
  const grid = Array.from({ length: Y_STEPS + 1 }, (_, i) => i * step);
  const gridLines = grid
    .map((v) => `<line class="chart-grid" x1="0" x2="${PLOT_W}" y1="${yOf(v).toFixed(2)}" y2="${yOf(v).toFixed(2)}" vector-effect="non-scaling-stroke"></line>`)
    .join('');
  // Each bucket's full width, for its tooltip.
  const hovers = points
    .map(
      (p, i) =>
        `<rect class="chart-hover" x="${((i / Math.max(1, n)) * PLOT_W).toFixed(1)}" y="0" width="${(PLOT_W / Math.max(1, n)).toFixed(1)}" height="${PLOT_H}"><title>${escape(bucketName(p.date, interval))}: ${escape(format(p.value))}</title></rect>`,
    )
    .join('');
  const yLabels = grid
    .map((v) => `<text class="chart-y" x="0" y="${(PLOT_TOP + (yOf(v) / PLOT_H) * PLOT_HEIGHT - 4).toFixed(1)}">${escape(format(v))}</text>`)
    .join('');
  const ticks = tickIndexes(n);
  const xLabels = ticks
    .map((i, k) => {
      const percent = (xOf(i) / PLOT_W) * 100;
      const anchor = percent < 8 ? 'start' : percent > 92 ? 'end' : 'middle';
      const x = anchor === 'start' ? 0 : anchor === 'end' ? 100 : percent;
      return (
        `<line class="chart-tick" x1="${percent.toFixed(2)}%" x2="${percent.toFixed(2)}%" y1="${PLOT_TOP + PLOT_HEIGHT}" y2="${PLOT_TOP + PLOT_HEIGHT + 5}"></line>` +
        `<text class="chart-x" x="${x.toFixed(2)}%" y="${AXIS_LABEL_Y}" text-anchor="${anchor}">${escape(bucketLabel(points[i].date, interval, k === 0))}</text>`
      );
    })
    .join('');
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const highest = points.reduce<SeriesPoint | undefined>((best, p) => (!best || p.value > best.value ? p : best), undefined);
  const span = n ? `${bucketName(points[0].date, interval)} to ${bucketName(points[n - 1].date, interval)}` : 'no data';
  const description =
    `${n} ${interval === 'hour' ? 'hours' : interval === 'day' ? 'days' : 'months'}, ${span}` +
    (input.format ? '' : `; total ${format(total)}`) +
    (highest && highest.value > 0 ? `; highest ${format(highest.value)} on ${bucketName(highest.date, interval)}` : '; all zero');
  const rows = points.map((p) => `<tr><th scope="row">${escape(bucketName(p.date, interval))}</th><td>${escape(format(p.value))}</td></tr>`).join('');
  return (
    `<figure class="timeseries">` +
    `<svg class="timeseries-svg" width="100%" height="${CHART_HEIGHT}" role="img" aria-labelledby="${input.id}-title ${input.id}-desc">` +
    `<title id="${input.id}-title">${escape(input.title)}</title><desc id="${input.id}-desc">${escape(description)}</desc>` +
    `<svg x="0" y="${PLOT_TOP}" width="100%" height="${PLOT_HEIGHT}" viewBox="0 0 ${PLOT_W} ${PLOT_H}" preserveAspectRatio="none" overflow="visible">` +
    `${gridLines}<path class="chart-area" d="${area}"></path><path class="chart-line" d="${line}" vector-effect="non-scaling-stroke"></path>${hovers}</svg>` +
    `${yLabels}${xLabels}</svg>` +
    `<details class="chart-table"><summary>${escape(input.title)} as a table</summary><div class="table-scroll"><table>` +
    `<thead><tr><th scope="col">${interval === 'hour' ? 'Hour' : interval === 'day' ? 'Day' : 'Month'}</th><th scope="col">${escape(input.metric)}</th></tr></thead>` +
    `<tbody>${rows}</tbody></table></div></details></figure>`
  );
}
