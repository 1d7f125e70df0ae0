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
