import { escapeHtml } from '../mail/mail-html.js';
import type { MailMessage } from '../mail/mailer.js';
import type { ReportPeriod } from './report-periods.js';

/** One headline figure of a report and its value in the period before. */
export interface Figure {
  label: string;
  value: number;
  previous: number;
  /** `%`: a rate, its change in percentage points; otherwise a count, its change in percent. */
  unit?: '%';
}

/** A top-list row: a page, a source or a goal, and its number (visitors; a goal's converting visitors). */
export interface Ranked {
  name: string;
  visitors: number;
}

export interface ReportContent {
  appName: string;
  period: ReportPeriod;
  figures: Figure[];
  pages: Ranked[];
  sources: Ranked[];
  goals: Ranked[];
  /** The app's analytics page in the portal. */
  dashboardUrl: string;
  /** The one-click unsubscribe link (GET: a confirm page; POST: done). */
  unsubscribeUrl: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayLabel = (day: string) => `${Number(day.slice(8))} ${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;

/** "23 Nov 2026 – 29 Nov 2026", or "November 2026" style for a month ("Nov 2026"). */
export function periodLabel(period: ReportPeriod): string {
  return period.kind === 'monthly'
    ? `${MONTHS[Number(period.from.slice(5, 7)) - 1]} ${period.from.slice(0, 4)}`
    : `${dayLabel(period.from)} – ${dayLabel(period.to)}`;
}

/** "+25 %", "−10 %", "±0 %", "new" (from nothing); for rates "+1.5 pt". */
export function change(figure: Figure): string {
  if (figure.unit === '%') {
    const points = Math.round((figure.value - figure.previous) * 10) / 10;
    return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points)} pt`;
  }
  if (figure.previous === 0) return figure.value === 0 ? '±0 %' : 'new';
  const percent = Math.round(((figure.value - figure.previous) / figure.previous) * 100);
  return `${percent > 0 ? '+' : percent < 0 ? '−' : '±'}${Math.abs(percent)} %`;
}

const shown = (figure: Figure) => (figure.unit === '%' ? `${figure.value} %` : String(figure.value));

/**
 * The report as a multipart message: text and HTML with the same figures, `List-Unsubscribe` (the
 * https link, and RFC 8058's `List-Unsubscribe-Post` so a mail client's unsubscribe button is one POST).
 */
export function reportMail(to: string, content: ReportContent): MailMessage {
  const title = `${content.period.kind === 'weekly' ? 'Weekly' : 'Monthly'} report: ${content.appName}, ${periodLabel(content.period)}`;
  const lists: Array<[string, Ranked[]]> = [
    ['Top pages', content.pages],
    ['Top sources', content.sources],
    ['Goals', content.goals],
  ];
  const text = [
    title,
    '',
    ...content.figures.map((f) => `${f.label}: ${shown(f)} (${change(f)} on the period before)`),
    ...lists.flatMap(([heading, rows]) => ['', `${heading}:`, ...(rows.length ? rows.map((r) => `  ${r.name} — ${r.visitors} visitors`) : ['  none'])]),
    '',
    `Dashboard: ${content.dashboardUrl}`,
    `Unsubscribe from this report: ${content.unsubscribeUrl}`,
  ].join('\n');
  const cell = 'style="padding:4px 12px 4px 0;text-align:left"';
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#111">
<h1 style="font-size:18px">${escapeHtml(title)}</h1>
<table>${content.figures
    .map((f) => `<tr><th ${cell}>${escapeHtml(f.label)}</th><td ${cell}>${escapeHtml(shown(f))}</td><td ${cell}>${escapeHtml(change(f))}</td></tr>`)
    .join('')}</table>
${lists
  .map(
    ([heading, rows]) =>
      `<h2 style="font-size:15px">${escapeHtml(heading)}</h2>${
        rows.length
          ? `<table>${rows.map((r) => `<tr><td ${cell}>${escapeHtml(r.name)}</td><td ${cell}>${r.visitors} visitors</td></tr>`).join('')}</table>`
          : '<p>none</p>'
      }`,
  )
  .join('\n')}
<p><a href="${escapeHtml(content.dashboardUrl)}">Open the dashboard</a></p>
<p style="font-size:12px;color:#555"><a href="${escapeHtml(content.unsubscribeUrl)}">Unsubscribe from this report</a></p>
</body></html>`;
  return {
    to,
    subject: title,
    text,
    html,
    headers: { 'List-Unsubscribe': `<${content.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
