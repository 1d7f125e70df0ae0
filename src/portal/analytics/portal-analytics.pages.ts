import { Injectable } from '@nestjs/common';
import { AnalyticsStatsService } from '../../analytics/analytics-stats.service.js';
import type { Property } from '../../analytics/dimensions.js';
import { parseInterval, parseStatsQuery, type Interval, type RawStatsParams } from '../../analytics/stats-query.js';
import { AppsService } from '../../apps/apps.service.js';
import { PlatformError } from '../../common/errors/platform-error.js';
import { AppConfig } from '../../config/app-config.js';
import { DeploymentsService } from '../../deployments/deployments.service.js';
import { chrome, type PortalAnswer, type Signed } from '../portal-page.js';
import { type PortalHtml, renderPortal } from '../portal-pages.js';
import { timeseriesChart } from '../svg-chart.js';
import {
  dashboardHref,
  dashboardQuery,
  DashboardQuery,
  filtersParam,
  formatChange,
  formatMetric,
  METRIC_CARDS,
  PERIOD_CHOICES,
  previousRange,
  propertyName,
  rangeLabel,
  realtimeFragment,
} from './analytics-view.js';

/** The dashboard's tables: the property, their heading and the columns beside visitors. */
const BREAKDOWNS: ReadonlyArray<{ property: Property; title: string; columns: Array<'pageviews' | 'signups' | 'conversionRate' | 'share'> }> = [
  { property: 'page', title: 'Top pages', columns: ['pageviews'] },
  { property: 'source', title: 'Sources', columns: ['signups'] },
  { property: 'device', title: 'Devices', columns: ['share'] },
  { property: 'deployment', title: 'Deployments', columns: ['signups', 'conversionRate'] },
];
const ROWS = 10;
const COLUMN_NAMES = { pageviews: 'Pageviews', signups: 'Sign\u2011ups', conversionRate: 'Sign\u2011up rate', share: 'Share' } as const;
const INTERVAL_NAMES: Record<Interval, string> = { hour: 'hour', day: 'day', month: 'month' };

/**
 * /portal/apps/<appId>/analytics: a dashboard over the stats API's own service (the numbers are
 * those of GET /v1/apps/:appId/analytics/…): a period, metric cards against the period before, a
 * dated chart of one metric, the top pages, sources, devices and deployments — a row's link
 * filters the whole dashboard by it — and the visitors of the last 5 minutes.
 */
@Injectable()
export class PortalAnalyticsPages {
  constructor(
    private readonly apps: AppsService,
    private readonly stats: AnalyticsStatsService,
    private readonly deployments: DeploymentsService,
    private readonly config: AppConfig,
  ) {}

  /** `query`: the page's query string (period, from, to, a value per property filtered by, metric); `reportSwitches`: the e-mail reports form's HTML. */
  async page(signed: Signed, appId: string, query: Record<string, unknown> = {}, reportSwitches = ''): Promise<PortalAnswer> {
    const view = await this.dashboard(signed.accountId, appId, query, `/portal/apps/${encodeURIComponent(appId)}/analytics`);
    return renderPortal('analytics', { ...chrome(signed), ...view.data, reportSwitches }, view.status);
  }

  /**
   * The dashboard's figures and links, for the portal's page and for a shared link's (SharePagesController):
   * every link it makes starts with `base`, and the app is read as `accountId`'s (404 otherwise).
   */
  async dashboard(accountId: string, appId: string, query: Record<string, unknown>, base: string): Promise<{ data: Record<string, unknown>; status: number }> {
    const app = await this.apps.get(accountId, appId);
    let asked = dashboardQuery(query);
    let error: string | undefined;
    try {
      parseStatsQuery(this.statsParams(asked), ['visitors']);
    } catch (err) {
      // A custom range the API refuses: said beside the dates, and the default period shown meanwhile.
      if (!(err instanceof PlatformError) || err.status !== 400) throw err;
      error = err.message;
      asked = { ...asked, period: '30d', from: undefined, to: undefined };
    }
    const custom = error ? dashboardQuery(query) : asked;
    const params = this.statsParams(asked);
    const range = parseStatsQuery(params, ['visitors']).range;
    const before = previousRange(range);
    const filters = filtersParam(asked);
    const allMetrics = METRIC_CARDS.map((c) => c.metric).join(',');
    const [totals, previous, series, realtime, deployments, ...tables] = await Promise.all([
      this.stats.aggregate(accountId, appId, { ...params, metrics: allMetrics }),
      this.stats.aggregate(accountId, appId, { period: 'custom', ...before, filters, metrics: allMetrics }),
      this.stats.timeseries(accountId, appId, { ...params, metrics: asked.metric }),
      this.stats.realtime(accountId, appId),
      this.deployments.listForApp(accountId, appId, { limit: 100 }),
      ...BREAKDOWNS.map((b) =>
        this.stats.breakdown(accountId, appId, { ...params, property: b.property, metrics: 'visitors,pageviews,signups,conversionRate', limit: ROWS }),
      ),
    ]);
    const value = (metric: string) => totals.results[metric]?.value ?? 0;
    const deploymentNames = new Map(deployments.data.map((d) => [d.deploymentId, `${capitalised(d.env)}, ${shortTime(d.createdAt)}`]));
    const valueName = (property: Property, v: string): string =>
      property === 'device' ? capitalised(v) : property === 'deployment' ? (deploymentNames.get(v) ?? v) : v;
    const cards = METRIC_CARDS.map((card) => ({
      ...card,
      value: formatMetric(card.kind, value(card.metric)),
      change: formatChange(card.kind, value(card.metric), previous.results[card.metric]?.value ?? 0),
      href: dashboardHref(base, asked, { metric: card.metric === 'visitors' ? undefined : card.metric }),
      selected: card.metric === asked.metric,
    }));
    const chartCard = METRIC_CARDS.find((c) => c.metric === asked.metric)!;
    const interval = parseInterval(undefined, range);
    const chart = timeseriesChart({
      id: 'chart',
      title: `${chartCard.label} per ${INTERVAL_NAMES[interval]}, ${rangeLabel(range)}`,
      metric: chartCard.label,
      interval,
      points: series.results.map((r) => ({ date: r.date, value: Number(r[asked.metric] ?? 0) })),
      format: chartCard.kind === 'count' ? undefined : (v) => formatMetric(chartCard.kind, v),
      ceiling: chartCard.kind === 'percent' ? 100 : undefined,
    });
    const filtered = new Map(asked.filters.map((f) => [f.property, f.value]));
    const breakdowns = BREAKDOWNS.map((b, i) => ({
      ...b,
      columnNames: b.columns.map((c) => COLUMN_NAMES[c]),
      name: propertyName(b.property),
      rows: tables[i].data.map((row) => {
        const raw = String(row[b.property]);
        const visitors = Number(row.visitors ?? 0);
        return {
          label: valueName(b.property, raw),
          hint: b.property === 'deployment' && deploymentNames.has(raw) ? raw : undefined,
          active: filtered.get(b.property) === raw,
          // `;` separates the API's filter clauses: such a value is shown, not offered as a filter.
          href: raw.includes(';') ? undefined : dashboardHref(base, asked, { [b.property]: raw }),
          visitors: visitors.toLocaleString('en-US'),
          share: value('visitors') ? visitors / value('visitors') : 0,
          cells: b.columns.map((c) =>
            c === 'share'
              ? formatMetric('percent', value('visitors') ? Math.round((visitors / value('visitors')) * 1000) / 10 : 0)
              : c === 'conversionRate'
                ? formatMetric('percent', Number(row.conversionRate ?? 0))
                : Number(row[c] ?? 0).toLocaleString('en-US'),
          ),
        };
      }),
    }));
    const chips = asked.filters.map((f) => ({
      text: `${propertyName(f.property)} is ${valueName(f.property, f.value)}`,
      href: dashboardHref(base, asked, { [f.property]: undefined }),
    }));
    const empty = value('pageviews') === 0 && value('signups') === 0;
    // No visit ever (as far as the rollups of a year reach): say how visits get counted.
    const never =
      empty &&
      (await this.stats.aggregate(accountId, appId, { period: '12mo', metrics: 'pageviews,signups' })).results.pageviews?.value === 0 &&
      realtime.visitors === 0;
    return {
      data: {
        app,
        base,
        periods: PERIOD_CHOICES.map((p) => ({ ...p, href: dashboardHref(base, asked, { period: p.period }), current: asked.period === p.period })),
        custom: { current: asked.period === 'custom', from: custom.from ?? range.from, to: custom.to ?? range.to, error },
        keep: hiddenFields(asked),
        rangeText: rangeLabel(range),
        previousText: rangeLabel(before),
        cards,
        chart,
        breakdowns,
        chips,
        realtime: realtimeFragment(base, realtime.visitors),
        empty,
        never,
        snippet: `<script defer data-app="${app.appId}" src="${this.config.publicUrl}/js/analytics.js"></script>`,
        longer: asked.period === '12mo' ? undefined : dashboardHref(base, asked, { period: '12mo' }),
      },
      status: error ? 400 : 200,
    };
  }

  /** The realtime figure alone (htmx polls it). */
  async realtime(accountId: string, appId: string, base = `/portal/apps/${encodeURIComponent(appId)}/analytics`): Promise<PortalHtml> {
    const { visitors } = await this.stats.realtime(accountId, appId);
    return { status: 200, html: realtimeFragment(base, visitors) };
  }

  private statsParams(query: DashboardQuery): RawStatsParams {
    return {
      period: query.period,
      ...(query.period === 'custom' ? { from: query.from ?? '', to: query.to ?? '' } : {}),
      filters: filtersParam(query),
    };
  }
}

/** The filters and metric the custom-range form keeps (its own fields are the period and dates). */
function hiddenFields(query: DashboardQuery): Array<{ name: string; value: string }> {
  return [
    ...query.filters.map((f) => ({ name: f.property, value: f.value })),
    ...(query.metric === 'visitors' ? [] : [{ name: 'metric', value: query.metric }]),
  ];
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** `Nov 20, 14:03 UTC`. */
function shortTime(iso: string): string {
  const at = new Date(iso);
  return `${at.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })}, ${iso.slice(11, 16)} UTC`;
}
