import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../libs/sdk/src/index.js';
import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { pageview } from './support/analytics-events.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT, scopedClient } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { itUnless } from './support/skips.js';
import { bytes, csvRows, unzip } from './support/zip.js';

const itWithPython = itUnless(spawnSync('python3', ['--version']).status !== 0 && 'python3 is not installed here');

const DAY = new Date().toISOString().slice(0, 10);
const FILES = [
  'visitors.csv',
  'pages.csv',
  'entry_pages.csv',
  'sources.csv',
  'utm_campaigns.csv',
  'countries.csv',
  'devices.csv',
  'browsers.csv',
  'operating_systems.csv',
  'custom_events.csv',
  'goals.csv',
  'properties.csv',
];

/** GET /v1/apps/:appId/analytics/export (issue 47): a streamed ZIP of CSVs with the stats API's figures, safe to open in a spreadsheet. */
describe(`analytics export (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;
  let slug: string;

  const exportPath = (query: Record<string, string> = { period: 'custom', from: DAY, to: DAY }) =>
    `/v1/apps/${appId}/analytics/export?${new URLSearchParams(query).toString()}`;
  const download = async (client = dev, query?: Record<string, string>) => {
    const res = await bytes(client.get(exportPath(query))).expect(200);
    return { res, files: await unzip(res.body as Buffer) };
  };
  const table = (files: Map<string, string>, name: string) => csvRows(files.get(name)!);

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
    dev = await newAccountClient(app);
    ({ appId, slug } = (await dev.post('/v1/apps', { name: 'Export me' }).expect(201)).body);
    const at = (minute: number) => new Date(Date.parse(`${DAY}T12:00:00Z`) + minute * 60_000);
    const props = (p: Record<string, string>) => JSON.stringify(p);
    await app.server.app.get(AnalyticsWriter).write([
      pageview({ appId, visitor: 1, pathname: '/', at: at(0), country: 'DE', utmSource: 'newsletter', utmCampaign: '=HYPERLINK("http://evil")' }),
      pageview({ appId, visitor: 1, pathname: '/pricing', at: at(1), country: 'DE', utmSource: 'newsletter', utmCampaign: '=HYPERLINK("http://evil")' }),
      pageview({ appId, visitor: 1, pathname: '/pricing', at: at(2), name: 'Download', country: 'DE', props: props({ format: 'pdf' }) }),
      pageview({
        appId,
        visitor: 2,
        pathname: '/blog, "quoted"',
        at: at(0),
        referrerHost: 'news.example',
        country: 'FR',
        device: 'mobile',
        browser: 'Safari',
        os: 'iOS',
      }),
      pageview({
        appId,
        visitor: 2,
        pathname: '/blog, "quoted"',
        at: at(1),
        name: 'Download',
        country: 'FR',
        device: 'mobile',
        browser: 'Safari',
        os: 'iOS',
        props: props({ format: '+1-2' }),
      }),
      pageview({ appId, visitor: 3, pathname: '/', at: at(0) }),
      pageview({ appId, visitor: 3, pathname: '/', at: at(1), name: 'signup' }),
    ]);
    await dev.post(`/v1/apps/${appId}/goals`, { event: 'Download' }).expect(201);
  });
  afterAll(() => app.close());

  it('streams a ZIP named after the app and period, with every table and a header row each', async () => {
    const { res, files } = await download();
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${slug}-analytics-${DAY}-to-${DAY}.zip"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect([...files.keys()]).toEqual(FILES);
    for (const name of FILES) expect(files.get(name)).toMatch(/^[a-z_]+,[^\r\n]*\r\n/);
  });

  it('holds the stats API’s figures, quoted per RFC 4180 and with formulas defused', async () => {
    const { files } = await download();
    const visitors = table(files, 'visitors.csv');
    expect(visitors[0]).toEqual(['date', 'visitors', 'visits', 'pageviews', 'bounceRate', 'visitDuration', 'signups', 'conversionRate', 'events']);
    expect(visitors).toHaveLength(1 + 24); // one day: hourly, every hour present
    expect(visitors.find((r) => r[0] === `${DAY}T12:00:00Z`)).toEqual([`${DAY}T12:00:00Z`, '3', '3', '4', '66.7', '20', '1', '33.3', '2']);
    expect(visitors.filter((r) => r[1] !== '0')).toHaveLength(2); // the header and 12:00

    expect(table(files, 'pages.csv')).toEqual([
      ['page', 'visitors', 'visits', 'pageviews', 'bounceRate', 'visitDuration', 'signups', 'conversionRate'],
      ['/', '2', '2', '2', '50', '30', '1', '50'],
      ['/blog, "quoted"', '1', '1', '1', '100', '0', '0', '0'],
      ['/pricing', '1', '0', '1', '0', '0', '0', '0'],
    ]);
    // The raw text: the comma and quotes of the page are quoted; the campaign is no formula.
    expect(files.get('pages.csv')).toContain('\r\n"/blog, ""quoted""",1,');
    expect(table(files, 'entry_pages.csv')).toEqual([
      ['entry_page', 'visits', 'bounceRate', 'visitDuration'],
      ['/', '2', '50', '30'],
      ['/blog, "quoted"', '1', '100', '0'],
    ]);
    expect(table(files, 'utm_campaigns.csv').map((r) => r.slice(0, 2))).toEqual([
      ['utm_campaign', 'visitors'],
      [`'=HYPERLINK("http://evil")`, '1'],
    ]);
    expect(table(files, 'sources.csv').map((r) => r.slice(0, 4))).toEqual([
      ['source', 'visitors', 'visits', 'pageviews'],
      ['newsletter', '1', '1', '2'],
      ['news.example', '1', '1', '1'],
      ['Direct / None', '1', '1', '1'],
    ]);
    expect(table(files, 'countries.csv')).toEqual([
      ['country', 'name', 'visitors', 'pageviews'],
      ['DE', 'Germany', '1', '2'],
      ['FR', 'France', '1', '1'],
      ['(unknown)', 'Unknown', '1', '1'],
    ]);
    expect(table(files, 'devices.csv').map((r) => r.slice(0, 2))).toEqual([
      ['device', 'visitors'],
      ['desktop', '2'],
      ['mobile', '1'],
    ]);
    expect(table(files, 'browsers.csv').map((r) => r.slice(0, 2))).toEqual([
      ['browser', 'visitors'],
      ['Firefox', '2'],
      ['Safari', '1'],
    ]);
    expect(table(files, 'operating_systems.csv').map((r) => r.slice(0, 2))).toEqual([
      ['operating_system', 'visitors'],
      ['Linux', '2'],
      ['iOS', '1'],
    ]);
    expect(table(files, 'custom_events.csv')).toEqual([
      ['event', 'visitors', 'events'],
      ['Download', '2', '2'],
    ]);
    expect(table(files, 'goals.csv')).toEqual([
      ['goal', 'visitors', 'events', 'conversionRate'],
      ['Download', '2', '2', '66.7'],
      ['Sign-up', '1', '1', '33.3'],
    ]);
    expect(table(files, 'properties.csv')).toEqual([
      ['property', 'value', 'visitors', 'events'],
      ['format', "'+1-2", '1', '1'],
      ['format', 'pdf', '1', '1'],
    ]);
  });

  it('exports the filtered figures, and checks the period, the app and the scope before the first byte', async () => {
    const { files } = await download(dev, { period: 'custom', from: DAY, to: DAY, filters: 'country==DE' });
    expect(table(files, 'pages.csv').map((r) => r.slice(0, 4))).toEqual([
      ['page', 'visitors', 'visits', 'pageviews'],
      ['/pricing', '1', '0', '1'], // its Download (a custom event) ranks it first among equals
      ['/', '1', '1', '1'],
    ]);
    expect(table(files, 'goals.csv')[1]).toEqual(['Download', '1', '1', '100']);

    const bad = await dev.get(exportPath({ period: 'forever' })).expect(400);
    expect(bad.headers['content-type']).toMatch(/^application\/json/);
    expectErrorBody(bad.body, 400, 'period "forever" is unknown');
    expectErrorBody((await dev.get(exportPath({ period: 'custom', from: DAY })).expect(400)).body, 400, 'to is required');
    expectErrorBody((await dev.get(exportPath({ filters: 'nope==1' })).expect(400)).body, 400, 'filter property "nope"');
    expect((await dev.get(exportPath({ metrics: 'visitors' })).expect(400)).body.message).toMatch(/metrics/);

    const stranger = await newAccountClient(app);
    expect((await stranger.get(exportPath()).expect(404)).body.reason).toBe('app_not_found');
    const writeOnly = await scopedClient(app, dev, ['apps:read']);
    expectErrorBody((await writeOnly.get(exportPath()).expect(403)).body, 403, 'analytics:read');
    const readOnly = await scopedClient(app, dev, ['analytics:read']);
    expect([...(await download(readOnly)).files.keys()]).toEqual(FILES);
  });

  it('is downloaded by the TypeScript SDK as bytes with the file name', async () => {
    const client = new PlatformClient({ baseUrl: app.url, apiKey: dev.apiKey, maxRetries: 0 });
    const zip = await client.analytics.export(appId, { period: 'custom', from: DAY, to: DAY, filters: { event: 'Download' } });
    expect(zip.fileName).toBe(`${slug}-analytics-${DAY}-to-${DAY}.zip`);
    const files = await unzip(Buffer.from(zip.bytes));
    expect(table(files, 'custom_events.csv')[1]).toEqual(['Download', '2', '2']);
    await expect(client.analytics.export(appId, { period: 'forever' as 'day' })).rejects.toMatchObject({ status: 400 });
  });

  itWithPython('is written to a file by the Python SDK', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-'));
    try {
      const path = join(dir, 'out.zip');
      const code = `import sys; from platform_sdk import PlatformClient
c = PlatformClient(base_url=sys.argv[1], api_key=sys.argv[2], max_retries=0)
data = c.analytics.export(sys.argv[3], period="custom", date_from=sys.argv[4], date_to=sys.argv[4], path=sys.argv[5])
print(len(data))`;
      // Not execFileSync: the server answers from this very process.
      const { stdout: out } = await promisify(execFile)('python3', ['-c', code, app.url, dev.apiKey, appId, DAY, path], {
        cwd: join(import.meta.dirname, '..', 'libs/sdk-python'),
        encoding: 'utf8',
      });
      const written = readFileSync(path);
      expect(Number(out.trim())).toBe(written.length);
      expect(table(await unzip(written), 'goals.csv')[1]).toEqual(['Download', '2', '2', '66.7']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
