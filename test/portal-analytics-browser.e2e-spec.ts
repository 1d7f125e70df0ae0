import type { Page } from 'playwright-core';
import { flushAnalytics } from './support/analytics-events.js';
import { ApiClient, clientFor, NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, openProfile, screenshot } from './support/browser.js';
import { uploadAll } from './support/files.js';
import { axeViolations, scrollWidth, signUpInBrowser } from './support/portal-browser.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const PASSWORD = 'a passphrase for analytics';
const SHARE_PASSWORD = 'the board password';
/** In the bundled GeoIP database's ranges for the United Kingdom (see analytics-countries.e2e-spec.ts). */
const GB = '81.2.69.160';
/** Headless Chromium's own User-Agent is a bot's to analytics: each visitor is a desktop Chrome of another version. */
const chrome = (version: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0.0.0 Safari/537.36`;

/** A site that embeds the platform's tracker and tracks a button with a property. */
const BUNDLE: Record<string, string> = {
  '/index.html': `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Manuals</title>
<script defer src="/_platform/analytics.js"></script>
<script defer src="/app.js"></script></head>
<body><h1>Manuals</h1><button id="download" type="button">Download the manual</button><p id="clicks">0</p></body>
</html>
`,
  '/app.js': `document.getElementById('download').addEventListener('click', function () {
  window.platform.track('Download', { props: { format: 'pdf' } });
  var clicks = document.getElementById('clicks');
  clicks.textContent = String(Number(clicks.textContent) + 1);
});
`,
};

/** Issue 47: a tracked button on a deployed bundle, seen as an event, its property and a goal's conversion in the portal and a shared link. */
describeInBrowser(`the portal's analytics page in a browser: custom events, properties, goals, countries, a shared link (${target})`, () => {
  let app: TestApp;
  let session: BrowserSession;
  let dev: ApiClient;
  let appId: string;
  /** http://dep-….localhost:<port> */
  let origin: string;

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    session = await openBrowser({ bypassCSP: true });
    const account = await signUpInBrowser(app, session.page, 'analytics-browser@example.com', PASSWORD);
    dev = clientFor(app, account.accountId, account.apiKey);
    appId = (await dev.post('/v1/apps', { name: 'Manuals' }).expect(201)).body.appId;
    const files = await uploadAll(app, dev, BUNDLE);
    const deployed = (await dev.post('/v1/apps/deploy', { appId, env: 'production', files }).expect(200)).body;
    origin = new URL(deployed.url).origin;
    expect(origin).toMatch(/^http:\/\/dep-[0-9a-z]{26}\.localhost:\d+$/);
    const goal = (await dev.post(`/v1/apps/${appId}/goals`, { event: 'Download' }).expect(201)).body;
    expect(goal).toMatchObject({ name: 'Download' });
  });
  afterAll(async () => {
    await session?.close();
    await app?.close();
  });

  /** A breakdown table's rows, cell texts (the section whose heading has id `bd-<property>`). */
  const table = (page: Page, property: string) =>
    page
      .locator(`section[aria-labelledby="bd-${property}"] tbody tr`)
      .evaluateAll((rows) =>
        rows.map((row) =>
          [...(row as unknown as { querySelectorAll(s: string): Array<{ textContent: string | null }> }).querySelectorAll('th, td')].map((c) =>
            (c.textContent ?? '').trim(),
          ),
        ),
      );
  const metricCard = (page: Page, label: string) =>
    page
      .locator('.metric-card', { has: page.locator('.metric-label', { hasText: label }) })
      .locator('.metric-value')
      .textContent();

  /** No serious or critical axe-core violation at 1280 and 390 px, no sideways scrolling at 390; a screenshot of each. */
  async function inspect(page: Page, name: string): Promise<void> {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      expect({ name, width, violations: await axeViolations(page) }).toEqual({ name, width, violations: [] });
      if (width === 390) expect({ name, scrollWidth: await scrollWidth(page) }).toEqual({ name, scrollWidth: 390 });
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /** What the dashboard shows of the visits below, on the portal's page and a shared link's alike. */
  async function expectFigures(page: Page): Promise<void> {
    await expect(metricCard(page, 'Unique visitors')).resolves.toBe('3');
    await expect(metricCard(page, 'Pageviews')).resolves.toBe('3');
    await expect(table(page, 'event')).resolves.toEqual([['Download', '2', '3']]);
    await expect(page.locator('#bd-props-format').textContent()).resolves.toBe('Property format');
    await expect(table(page, 'props-format')).resolves.toEqual([['pdf', '2', '3']]);
    // Goal, visitors who converted, completions, conversion rate (2 of 3 visitors); the built-in Sign-up has none.
    const goals = await table(page, 'goal');
    expect(goals.find((r) => r[0] === 'Download')).toEqual(['Download', '2', '3', '66.7 %']);
    await expect(table(page, 'country')).resolves.toEqual([['United Kingdom', '3', '100 %']]);
  }

  it('counts the clicks of three visitors on the deployed site: the event, its property and the goal on the analytics page', async () => {
    // Three visitors (one address, three browsers): the first clicks twice, the second once, the third only looks.
    for (const [i, clicks] of [2, 1, 0].entries()) {
      const context = await session.browser.newContext({ userAgent: chrome(120 + i), extraHTTPHeaders: { 'x-forwarded-for': GB } });
      try {
        const visitor = await context.newPage();
        await visitor.goto(`${origin}/`);
        await visitor.waitForFunction('typeof window.platform === "object" && typeof window.platform.track === "function"');
        for (let n = 1; n <= clicks; n++) {
          await visitor.click('#download');
          await visitor.waitForFunction(`document.getElementById('clicks').textContent === '${n}'`);
        }
        if (i === 0) await screenshot(visitor, 'portal-analytics-site');
      } finally {
        // sendBeacon outlives the page: the rows are waited for below, not here.
        await context.close();
      }
    }
    const counted = () =>
      app.query<{ name: string; n: number; countries: string }>(
        `SELECT name, count(*)::int AS n, string_agg(DISTINCT coalesce(country, '?'), ',') AS countries
           FROM analytics_events WHERE app_id = $1 GROUP BY name ORDER BY name`,
        [appId],
      );
    await until(
      async () => {
        await flushAnalytics(app);
        return (await counted()).find((r) => r.name === 'Download')?.n === 3;
      },
      15_000,
      'the three Download beacons',
    );
    expect(await counted()).toEqual([
      { name: 'Download', n: 3, countries: 'GB' },
      { name: 'pageview', n: 3, countries: 'GB' },
    ]);
    const props = await app.query<{ props: unknown }>(`SELECT props FROM analytics_events WHERE app_id = $1 AND name = 'Download'`, [appId]);
    expect(props).toEqual([{ props: { format: 'pdf' } }, { props: { format: 'pdf' } }, { props: { format: 'pdf' } }]);

    const { page } = session;
    await page.goto(`${app.url}/portal/apps/${appId}/analytics`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Analytics: Manuals');
    await expectFigures(page);
    // The goal is listed among the app's own.
    await expect(page.getByRole('list', { name: 'Goals' }).textContent()).resolves.toContain('Download');
    await inspect(page, 'portal-analytics');
  });

  it('shows the same figures read-only through a password-protected shared link, with no way into the portal', async () => {
    const share = (await dev.post(`/v1/apps/${appId}/analytics/shares`, { name: 'Board', password: SHARE_PASSWORD }).expect(201)).body;
    const url = (share.url as string).replace(/^https?:\/\/[^/]+/, app.url);
    const path = new URL(url).pathname;
    // A visitor of the link: no portal session.
    const visitor = await openProfile(session.browser, { bypassCSP: true });
    try {
      const { page } = visitor;
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This dashboard is protected');
      await expect(page.locator('meta[name="robots"]').getAttribute('content')).resolves.toBe('noindex, nofollow');
      await inspect(page, 'portal-analytics-share-password');

      await page.getByLabel('Password').fill('not the password');
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Show the dashboard' }).click()]);
      await expect(page.getByRole('alert').textContent()).resolves.toContain('That password is not right.');

      await page.getByLabel('Password').fill(SHARE_PASSWORD);
      await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Show the dashboard' }).click()]);
      await page.waitForSelector('section[aria-labelledby="bd-event"]');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Analytics: Manuals');
      await expectFigures(page);
      // Read-only: no goal or share forms, no export, no link or form into the portal; every link stays in the share.
      const targets = await page.locator('a[href], form[action], [hx-get], [hx-post]').evaluateAll((found) =>
        found.map((e) => {
          const el = e as unknown as { getAttribute(n: string): string | null };
          return el.getAttribute('href') ?? el.getAttribute('action') ?? el.getAttribute('hx-get') ?? el.getAttribute('hx-post') ?? '';
        }),
      );
      expect(targets.length).toBeGreaterThan(5);
      expect(targets.filter((t) => !t.startsWith(path))).toEqual([]);
      await expect(page.locator('form[method="post"], nav').count()).resolves.toBe(0);
      await expect(page.getByText('Export CSV').count()).resolves.toBe(0);
      await inspect(page, 'portal-analytics-share');

      // A period link keeps the visitor in the share, still unlocked.
      await page.getByRole('link', { name: 'Today' }).click();
      await page.waitForURL(`${url}?period=day`);
      await expect(table(page, 'event')).resolves.toEqual([['Download', '2', '3']]);
    } finally {
      await visitor.close();
    }
  });
});
