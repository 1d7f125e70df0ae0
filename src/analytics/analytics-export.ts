import { Injectable, Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { AppsService } from '../apps/apps.service.js';
import { csvLines } from '../common/csv.js';
import { AnalyticsStatsService } from './analytics-stats.service.js';
import { countryName } from './country-names.js';
import { PROPS_PREFIX, type Property } from './dimensions.js';
import { METRICS, parseInterval, parseStatsQuery, type RawStatsParams } from './stats-query.js';

type Row = Record<string, string | number>;
/** One CSV of the archive: its name, its header and its rows (a cell per header column, in order). */
interface Table {
  file: string;
  header: string[];
  rows: () => Promise<Array<Array<string | number>>>;
}

/** Breakdown pages this long: a property keeps ≤ 1,000 values a day, so a long period takes a few pages. */
const PAGE = 1000;
const BREAKDOWN_METRICS = 'visitors,visits,pageviews,bounceRate,visitDuration,signups,conversionRate';

/**
 * GET /v1/apps/:appId/analytics/export: the dashboard's tables over a period as a ZIP of CSV files (as
 * Plausible's export), each with a header row. The figures are the stats API's own (AnalyticsStatsService);
 * the archive is streamed as each table is read, so a long period never sits in memory whole.
 */
@Injectable()
export class AnalyticsExport {
  private readonly logger = new Logger(AnalyticsExport.name);

  constructor(
    private readonly apps: AppsService,
    private readonly stats: AnalyticsStatsService,
  ) {}

  /** The file name and the archive's bytes; the app (404) and the period (400) are checked before the first byte. */
  async open(accountId: string, appId: string, params: RawStatsParams): Promise<{ fileName: string; body: Readable }> {
    const app = await this.apps.get(accountId, appId);
    const query = parseStatsQuery(params, ['visitors']);
    const asked: RawStatsParams = { period: params.period, from: params.from, to: params.to, filters: params.filters };
    const zip = new ZipFile();
    const body = zip.outputStream as Readable;
    const mtime = new Date();
    void (async () => {
      for (const table of this.tables(accountId, appId, asked, parseInterval(undefined, query.range))) {
        const csv = csvLines([table.header, ...(await table.rows()).map((row) => row.map(String))]);
        zip.addBuffer(Buffer.from(csv, 'utf8'), table.file, { mtime });
      }
      zip.end();
    })().catch((err: unknown) => {
      // Past the head: the client sees a cut archive (and a zip reader an error), never a half-true one.
      this.logger.error({ err, appId }, 'analytics export failed');
      body.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    return { fileName: `${app.slug}-analytics-${query.range.from}-to-${query.range.to}.zip`, body };
  }

  private tables(accountId: string, appId: string, params: RawStatsParams, interval: string): Table[] {
    const breakdown = async (property: Property | 'goal', metrics?: string): Promise<Row[]> => {
      const rows: Row[] = [];
      let cursor: string | undefined;
      do {
        const page = await this.stats.breakdown(accountId, appId, { ...params, property, metrics, limit: PAGE, cursor });
        rows.push(...page.data);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return rows;
    };
    const columns = ['visitors', 'visits', 'pageviews', 'bounceRate', 'visitDuration', 'signups', 'conversionRate'];
    const byProperty = (file: string, property: Property, name: string): Table => ({
      file,
      header: [name, ...columns],
      rows: async () => (await breakdown(property, BREAKDOWN_METRICS)).map((r) => [r[property], ...columns.map((c) => r[c])]),
    });
    return [
      {
        file: 'visitors.csv',
        header: ['date', ...METRICS],
        rows: async () =>
          (await this.stats.timeseries(accountId, appId, { ...params, interval, metrics: METRICS.join(',') })).results.map((r) => [
            r.date,
            ...METRICS.map((m) => r[m] ?? 0),
          ]),
      },
      byProperty('pages.csv', 'page', 'page'),
      {
        // As in the dashboard's API: a page's visits are the visits that began on it.
        file: 'entry_pages.csv',
        header: ['entry_page', 'visits', 'bounceRate', 'visitDuration'],
        rows: async () =>
          (await breakdown('page', BREAKDOWN_METRICS))
            .filter((r) => Number(r.visits) > 0)
            .sort((a, b) => Number(b.visits) - Number(a.visits) || (String(a.page) < String(b.page) ? -1 : 1))
            .map((r) => [r.page, r.visits, r.bounceRate, r.visitDuration]),
      },
      byProperty('sources.csv', 'source', 'source'),
      byProperty('utm_campaigns.csv', 'utmCampaign', 'utm_campaign'),
      {
        file: 'countries.csv',
        header: ['country', 'name', 'visitors', 'pageviews'],
        rows: async () => (await breakdown('country', 'visitors,pageviews')).map((r) => [r.country, countryName(String(r.country)), r.visitors, r.pageviews]),
      },
      byProperty('devices.csv', 'device', 'device'),
      byProperty('browsers.csv', 'browser', 'browser'),
      byProperty('operating_systems.csv', 'os', 'operating_system'),
      {
        file: 'custom_events.csv',
        header: ['event', 'visitors', 'events'],
        rows: async () => (await breakdown('event')).map((r) => [r.event, r.visitors, r.events]),
      },
      {
        file: 'goals.csv',
        header: ['goal', 'visitors', 'events', 'conversionRate'],
        rows: async () => (await breakdown('goal')).map((r) => [r.goal, r.visitors, r.events, r.conversionRate]),
      },
      {
        file: 'properties.csv',
        header: ['property', 'value', 'visitors', 'events'],
        rows: async () => {
          const rows: Array<Array<string | number>> = [];
          for (const property of await this.stats.propsProperties(accountId, appId, params)) {
            const key = property.slice(PROPS_PREFIX.length);
            for (const r of await breakdown(property)) rows.push([key, r[property], r.visitors, r.events]);
          }
          return rows;
        },
      },
    ];
  }
}
