import type { AnalyticsEvent } from '../src/analytics/analytics-event.js';
import { AnalyticsPartitions } from '../src/analytics/analytics-partitions.js';
import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { pageview } from './support/analytics-events.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { act, expectFitsPhoneWidth, seriousViolations } from './support/portal-browser.js';
import { portalSession } from './support/portal-session.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const DAY_MS = 86_400_000;

describeInBrowser(`analytics dashboard in the portal (${target})`, () => {
  let app: TestApp;
  let session: BrowserSession;
  let appId: string;
  let emptyAppId: string;
  const now = Date.now();
  const dayStart = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  /** Today, a few seconds ago (never before today's start): within the realtime window too. */
  const today = new Date(Math.max(dayStart, now - 30_000));
  const daysAgo = (n: number) => new Date(dayStart - n * DAY_MS + 12 * 3600_000);
  const day = (at: Date) => at.toISOString().slice(0, 10);

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, PUBLIC_URL: 'https://platform.example.test' } });
    session = await openBrowser({ bypassCSP: true });
    const signedIn = await portalSession(app, 'analytics-dev@example.com');
    const [name, value] = signedIn.cookie.split('=');
    await session.context.addCookies([{ name, value, url: `${app.url}/portal/` }]);
    const auth = { authorization: `Bearer ${signedIn.apiKey}` };
    appId = (await app.http().post('/v1/apps').set(auth).send({ name: 'Corner Bakery' }).expect(201)).body.appId;
    emptyAppId = (await app.http().post('/v1/apps').set(auth).send({ name: 'Quiet Shop' }).expect(201)).body.appId;
    const deploymentId = (await app.http().post('/v1/apps/deploy').set(auth).send({ appId, env: 'production' }).expect(200)).body.deploymentId;

    // Visits on three days, so that every period has figures of its own. Months back need their partitions.
    await app.server.app.get(AnalyticsPartitions).ensure(new Date(now - 50 * DAY_MS));
    const at = (visitor: number, when: Date, pathname: string, extra: Partial<AnalyticsEvent> = {}) =>
      pageview({ appId, visitor, pathname, at: when, ...extra });
    await app.server.app.get(AnalyticsWriter).write([
      // Today: 4 visitors, one on a phone from the newsletter who signs up; all on the production deployment.
      ...[1, 2, 3].map((v) => at(v, today, '/', { deploymentId })),
      at(4, today, '/pricing', { deploymentId, device: 'mobile', utmSource: 'newsletter' }),
      at(4, new Date(today.getTime() + 1000), '/pricing', { deploymentId, device: 'mobile', utmSource: 'newsletter', name: 'signup' }),
      // 10 days ago: 11 visitors, one of them on /pricing.
      ...Array.from({ length: 10 }, (_, i) => at(10 + i, daysAgo(10), '/')),
      at(20, daysAgo(10), '/pricing'),
      // 45 days ago: 5 visitors (in the last 12 months only).
      ...Array.from({ length: 5 }, (_, i) => at(30 + i, daysAgo(45), '/about')),
    ]);
  });
  afterAll(async () => {
    await session?.close();
    await app.close();
  });

  const card = (label: string) => session.page.getByRole('link', { name: new RegExp(`^${label}`) });
  const figure = async (label: string) => ((await card(label).locator('.metric-value').textContent()) ?? '').trim();

  it('switches periods (the figures change), charts a metric on dated axes, and filters by a clicked row', async () => {
    const { page } = session;
    await page.goto(`${app.url}/portal/apps/${appId}/analytics`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Analytics: Corner Bakery');
    // Last 30 days by default: today's 4 and the 11 of 10 days ago.
    await expect(page.getByRole('link', { name: 'Last 30 days' }).getAttribute('aria-current')).resolves.toBe('page');
    expect(await figure('Unique visitors')).toBe('15');
    expect(await figure('Pageviews')).toBe('15');
    expect(await figure('Sign-ups')).toBe('1');
    await expect(card('Conversion rate').textContent()).resolves.toMatch(/6\.7 %/);
    await expect(card('Bounce rate').textContent()).resolves.toMatch(/100 %/);
    await expect(card('Visit duration').textContent()).resolves.toMatch(/0s/);
    // A chart of visitors per day, with the dates on its axis and its figures as a table.
    const chart = page.getByRole('img', { name: /^Unique visitors per day/ });
    await expect(chart.count()).resolves.toBe(1);
    const ticks = await page.locator('.chart-x').allTextContents();
    expect(ticks.length).toBeGreaterThanOrEqual(5);
    for (const tick of ticks) expect(tick).toMatch(/^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}$/);
    await expect(page.locator('.chart-y').allTextContents()).resolves.toEqual(['0', '3', '6', '9', '12']);
    const tenDaysAgo = new Date(`${day(daysAgo(10))}T00:00:00Z`).toLocaleDateString('en-US', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    await screenshot(page, 'portal-analytics');
    await page.locator('.chart-table summary').click();
    await expect(page.getByRole('row', { name: tenDaysAgo }).textContent()).resolves.toMatch(/11$/);
    // Top pages, sources, devices and deployments; today's visitors live.
    expect(texts(await page.getByRole('region', { name: 'Top pages' }).getByRole('row', { name: /^\// }).allInnerTexts())).toEqual(['/ 13 13', '/pricing 2 2']);
    await expect(page.getByRole('region', { name: 'Sources' }).textContent()).resolves.toMatch(/newsletter\s*1\s*1/);
    await expect(page.getByRole('region', { name: 'Deployments' }).textContent()).resolves.toMatch(
      /Production, \w{3} \d+, \d\d:\d\d UTC\s*dep_\w+\s*4\s*1\s*25 %/,
    );
    await expect(page.locator('#realtime').textContent()).resolves.toMatch(/4 current visitors\s+in the last 5 minutes/);
    expect(await seriousViolations(page)).toEqual([]);

    // Today: only today's 4 visitors, charted per hour.
    await act(page, page.getByRole('link', { name: 'Today' }));
    expect(new URL(page.url()).search).toBe('?period=day');
    expect(await figure('Unique visitors')).toBe('4');
    expect(await figure('Sign-ups')).toBe('1');
    await expect(card('Conversion rate').textContent()).resolves.toMatch(/25 %/);
    await expect(page.getByRole('img', { name: /^Unique visitors per hour/ }).count()).resolves.toBe(1);
    await expect(page.locator('.chart-x').allTextContents()).resolves.toEqual(['00:00', '05:00', '09:00', '14:00', '18:00', '23:00']);
    // The last 12 months: the visitors of 45 days ago as well.
    await act(page, page.getByRole('link', { name: 'Last 12 months' }));
    expect(await figure('Unique visitors')).toBe('20');
    await expect(page.getByRole('img', { name: /^Unique visitors per month/ }).count()).resolves.toBe(1);
    // A custom range: the day 10 days ago alone.
    await page.getByLabel('From', { exact: true }).fill(day(daysAgo(10)));
    await page.getByLabel('To', { exact: true }).fill(day(daysAgo(10)));
    await act(page, page.getByRole('button', { name: 'Show range' }));
    expect(await figure('Unique visitors')).toBe('11');
    expect(new URL(page.url()).searchParams.get('period')).toBe('custom');
    // A range the API refuses: said beside the dates.
    await page.getByLabel('From', { exact: true }).fill(day(today));
    await page.getByLabel('To', { exact: true }).fill(day(daysAgo(10)));
    await act(page, page.getByRole('button', { name: 'Show range' }));
    await expect(page.getByRole('alert').textContent()).resolves.toContain(`is before from (${day(today)})`);

    // Back to 30 days, and a row click: the whole dashboard for /pricing, said in a chip.
    await act(page, page.getByRole('link', { name: 'Last 30 days' }));
    await act(page, page.getByRole('region', { name: 'Top pages' }).getByRole('link', { name: '/pricing' }));
    expect(new URL(page.url()).searchParams.get('page')).toBe('/pricing');
    expect(await figure('Unique visitors')).toBe('2');
    expect(await figure('Sign-ups')).toBe('1');
    await expect(page.getByRole('list', { name: 'Filters' }).textContent()).resolves.toMatch(/Page is \/pricing/);
    // A second filter (two at once are read from the raw events): the phone visitor alone.
    await act(page, page.getByRole('region', { name: 'Devices' }).getByRole('link', { name: 'Mobile' }));
    expect(await figure('Unique visitors')).toBe('1');
    await expect(page.getByRole('list', { name: 'Filters' }).getByRole('listitem').allTextContents()).resolves.toEqual([
      expect.stringMatching(/Page is \/pricing/),
      expect.stringMatching(/Device is Mobile/),
    ]);
    // Charting another metric keeps the filters.
    await act(page, card('Pageviews'));
    await expect(page.getByRole('img', { name: /^Pageviews per day/ }).count()).resolves.toBe(1);
    expect(await figure('Unique visitors')).toBe('1');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'portal-analytics-filtered');
    // Removing a chip removes its filter only.
    await act(page, page.getByRole('link', { name: 'Remove filter: Page is /pricing' }));
    expect(await figure('Unique visitors')).toBe('1');
    await expect(page.getByRole('list', { name: 'Filters' }).textContent()).resolves.not.toContain('/pricing');
    await act(page, page.getByRole('link', { name: 'Remove filter: Device is Mobile' }));
    expect(await figure('Unique visitors')).toBe('15');
    await expect(page.getByRole('list', { name: 'Filters' }).count()).resolves.toBe(0);
  });

  it('polls the realtime figure, and tells an app without visits how to count them', async () => {
    const { page } = session;
    const realtime = await app
      .http()
      .get(`/portal/apps/${appId}/analytics/realtime`)
      .set('cookie', await cookieHeader());
    expect(realtime.status).toBe(200);
    expect(realtime.text).toMatch(/^<p class="realtime" id="realtime" hx-get="\/portal\/apps\/app_\w+\/analytics\/realtime" hx-trigger="every 30s"/);
    expect(realtime.text).toContain('<strong>4 current visitors</strong>');
    // Signed out: to the sign-in page.
    await app.http().get(`/portal/apps/${appId}/analytics`).expect(303).expect('location', '/portal/login');
    // Another account's app, or none: a 404 page.
    const missing = await app
      .http()
      .get('/portal/apps/app_nope/analytics')
      .set('cookie', await cookieHeader());
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Not found');

    await page.goto(`${app.url}/portal/apps/${emptyAppId}/analytics`);
    const empty = page.getByRole('region', { name: 'No visits yet' });
    await expect(empty.textContent()).resolves.toContain('deploy the app and publish it');
    await expect(empty.getByLabel('Tracker snippet').inputValue()).resolves.toBe(
      `<script defer data-app="${emptyAppId}" src="https://platform.example.test/js/analytics.js"></script>`,
    );
    // Nothing to chart or break down yet.
    await expect(page.getByRole('region', { name: 'Top pages' }).count()).resolves.toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'portal-analytics-empty');
  });

  it('fits a 390 px wide screen without sideways scrolling', async () => {
    await expectFitsPhoneWidth(session.page, app.url, [
      [`/portal/apps/${appId}/analytics?device=mobile`, 'portal-analytics-390'],
      [`/portal/apps/${emptyAppId}/analytics`, 'portal-analytics-empty-390'],
    ]);
  });

  const texts = (all: string[]) => all.map((t) => t.replace(/\s+/g, ' ').trim());
  const cookieHeader = async () => (await session.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
});
