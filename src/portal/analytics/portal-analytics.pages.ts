import { Injectable } from '@nestjs/common';
import { AnalyticsExport } from '../../analytics/analytics-export.js';
import { GoalsService } from '../../analytics/goals.service.js';
import { roleAllows } from '../../common/request-context/roles.js';
import { AnalyticsShares } from '../../share/analytics-shares.service.js';
import { AnalyticsStatsService } from '../../analytics/analytics-stats.service.js';
import { type FixedProperty, PROPERTIES, type Property } from '../../analytics/dimensions.js';
import { countryName } from '../../analytics/country-names.js';
import { parseInterval, parseStatsQuery, type Interval, type RawStatsParams } from '../../analytics/stats-query.js';
import { AppsService } from '../../apps/apps.service.js';
import { PlatformError } from '../../common/errors/platform-error.js';
import { AppConfig } from '../../config/app-config.js';
import { DeploymentsService } from '../../deployments/deployments.service.js';
import { chrome, type Form, type PortalAnswer, portalActor, type Signed } from '../portal-page.js';
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
type Column = 'pageviews' | 'signups' | 'conversionRate' | 'share' | 'events';
const BREAKDOWNS: ReadonlyArray<{ property: Property | 'goal'; title: string; columns: Column[]; columnNames?: string[] }> = [
  { property: 'page', title: 'Top pages', columns: ['pageviews'] },
  { property: 'source', title: 'Sources', columns: ['signups'] },
  { property: 'country', title: 'Countries', columns: ['share'] },
  { property: 'device', title: 'Devices', columns: ['share'] },
  { property: 'deployment', title: 'Deployments', columns: ['signups', 'conversionRate'] },
  { property: 'event', title: 'Custom events', columns: ['events'] },
  { property: 'goal', title: 'Goal conversions', columns: ['events', 'conversionRate'], columnNames: ['Completions', 'Conversion rate'] },
];
/** The props keys shown, each as a table of its own (most used first would need a query more: by name). */
const PROPS_TABLES = 4;
const ROWS = 10;
const COLUMN_NAMES: Record<Column, string> = {
  pageviews: 'Pageviews',
  signups: 'Sign\u2011ups',
  conversionRate: 'Sign\u2011up rate',
  share: 'Share',
  events: 'Events',
};
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
    private readonly goals: GoalsService,
    private readonly exports: AnalyticsExport,
    private readonly shares: AnalyticsShares,
  ) {}

  /**
   * `query`: the page's query string (period, from, to, a value per property filtered by, metric); `notice`: what a
   * form did; `reportSwitches`: the e-mail reports form's HTML (report-switches.ts).
   */
  async page(
    signed: Signed,
    appId: string,
    query: Record<string, unknown> = {},
    notice?: { text: string; error: boolean },
    reportSwitches = '',
  ): Promise<PortalAnswer> {
    const base = `/portal/apps/${encodeURIComponent(appId)}/analytics`;
    const view = await this.dashboard(signed.accountId, appId, query, base);
    const manages = roleAllows(signed.role, 'apps:write');
    const [goals, shares] = roleAllows(signed.role, 'apps:read')
      ? await Promise.all([this.goals.list(signed.accountId, appId), this.shares.list(signed.accountId, appId)])
      : [{ data: [] }, []];
    // The export takes the view's period and filters (not its chart's metric).
    const exportQuery = new URLSearchParams(
      Object.entries({ ...this.statsParams(dashboardQuery(query)) }).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
    );
    return renderPortal(
      'analytics',
      { ...chrome(signed), ...view.data, manages, goals: goals.data, shares, exportHref: `${base}/export?${exportQuery.toString()}`, notice, reportSwitches },
      view.status,
    );
  }

  /** The period's ZIP of CSVs (the API's export), for the page's Export button. */
  exportZip(signed: Signed, appId: string, query: Record<string, unknown>) {
    const asked = this.statsParams(dashboardQuery(query));
    return this.exports.open(signed.accountId, appId, asked);
  }

  /** The goal and share forms: each answers the page again, with what happened (or the API's refusal) said at its top. */
  async manage(
    signed: Signed,
    appId: string,
    action: 'goal' | 'goal-delete' | 'share' | 'share-delete',
    form: Form,
    id = '',
    reportSwitches = '',
  ): Promise<PortalAnswer> {
    const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
    let notice: string;
    try {
      if (action === 'goal') {
        const value = field('value');
        const goal = await this.goals.create(signed.accountId, appId, field('kind') === 'page' ? { page: value } : { event: value });
        notice = `Goal “${goal.name}” added.`;
      } else if (action === 'goal-delete') {
        await this.goals.delete(signed.accountId, appId, id);
        notice = 'Goal deleted.';
      } else if (action === 'share') {
        const share = await this.shares.create(signed.accountId, portalActor(signed), appId, { name: field('name'), password: field('password') || undefined });
        notice = `Shared link “${share.name}” made: ${share.url}`;
      } else {
        await this.shares.delete(signed.accountId, portalActor(signed), appId, id);
        notice = 'Shared link revoked: it no longer opens.';
      }
    } catch (err) {
      if (!(err instanceof PlatformError) || err.status === 404 || err.status >= 500) throw err;
      return this.page(signed, appId, {}, { text: err.message, error: true }, reportSwitches);
    }
    return this.page(signed, appId, {}, { text: notice, error: false }, reportSwitches);
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
    const breakdownOf = (property: Property | 'goal') =>
      this.stats.breakdown(accountId, appId, { ...params, property, metrics: 'visitors,pageviews,signups,conversionRate,events', limit: ROWS });
    const [totals, previous, series, realtime, deployments, propsKeys, ...tables] = await Promise.all([
      this.stats.aggregate(accountId, appId, { ...params, metrics: allMetrics }),
      this.stats.aggregate(accountId, appId, { period: 'custom', ...before, filters, metrics: allMetrics }),
      this.stats.timeseries(accountId, appId, { ...params, metrics: asked.metric }),
      this.stats.realtime(accountId, appId),
      this.deployments.listForApp(accountId, appId, { limit: 100 }),
      this.stats.propsProperties(accountId, appId, params),
      ...BREAKDOWNS.map((b) => breakdownOf(b.property)),
    ]);
    // A custom event's properties: a table per key (by name), after the fixed ones.
    const propsTables = propsKeys.slice(0, PROPS_TABLES).map((property) => ({ property, title: propertyName(property), columns: ['events'] as Column[] }));
    tables.push(...(await Promise.all(propsTables.map((t) => breakdownOf(t.property)))));
    const value = (metric: string) => totals.results[metric]?.value ?? 0;
    const deploymentNames = new Map(deployments.data.map((d) => [d.deploymentId, `${capitalised(d.env)}, ${shortTime(d.createdAt)}`]));
    const valueName = (property: Property | 'goal', v: string): string =>
      property === 'device' ? capitalised(v) : property === 'deployment' ? (deploymentNames.get(v) ?? v) : property === 'country' ? countryName(v) : v;
    /** Goals and props are no filter of the dashboard's (its query string takes the fixed properties). */
    const filterable = (property: Property | 'goal'): property is FixedProperty => (PROPERTIES as readonly string[]).includes(property);
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
    const breakdowns = [...BREAKDOWNS, ...propsTables].map((b, i) => ({
      ...b,
      property: b.property.replace(/[^A-Za-z0-9_-]/g, '-'), // an id in the page
      columnNames: ('columnNames' in b && b.columnNames) || b.columns.map((c) => COLUMN_NAMES[c]),
      name: b.property === 'goal' ? 'Goal' : propertyName(b.property),
      rows: tables[i].data.map((row) => {
        const raw = String(row[b.property]);
        const visitors = Number(row.visitors ?? 0);
        return {
          label: valueName(b.property, raw),
          hint: b.property === 'deployment' && deploymentNames.has(raw) ? raw : undefined,
          active: filterable(b.property) && filtered.get(b.property) === raw,
          // `;` separates the API's filter clauses: such a value is shown, not offered as a filter.
          href: !filterable(b.property) || raw.includes(';') ? undefined : dashboardHref(base, asked, { [b.property]: raw }),
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
