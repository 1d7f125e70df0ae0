import { join } from 'node:path';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { SignupService } from '../src/sites/signup.service.js';
import { ApiClient, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { uploadAll } from './support/files.js';
import { readBundle } from './support/site-http.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describeInBrowser(`a deployed single-page app in a browser, on its own origin (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;
  let deploymentId: string;
  /** http://dep-….localhost:<port> */
  let origin: string;
  let session: BrowserSession;
  /** The client-side route of the note saved in the first test. */
  let notePath: string;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Pocket Notes' }).expect(201)).body.appId;
    const files = await uploadAll(app, dev, readBundle(join(import.meta.dirname, 'fixtures', 'spa')));
    const deployed = (await dev.post('/v1/apps/deploy', { appId, env: 'production', files, config: { spa: true } }).expect(200)).body;
    deploymentId = deployed.deploymentId;
    origin = new URL(deployed.url).origin;
    expect(origin).toMatch(/^http:\/\/dep-[0-9a-z]{26}\.localhost:\d+$/);
    // Chromium resolves every *.localhost name to loopback by itself: no resolver rules needed.
    session = await openBrowser({ userAgent: CHROME });
  });
  afterAll(async () => {
    await session?.close();
    await app?.close();
  });

  /** The app has rendered its list and asked the platform for a sign-up token. */
  const ready = async () => {
    await session.page.waitForSelector('#notes', { state: 'attached' });
    await session.page.waitForFunction("document.getElementById('signup-token').value !== ''");
  };

  it('runs the app: IndexedDB keeps a note across a reload, and a client-side route reloads into the app', async () => {
    const { page } = session;
    await page.goto(`${origin}/`);
    await ready();
    expect(await page.evaluate('location.origin')).toBe(origin);
    await page.fill('#note-text', 'Buy oat milk');
    await page.click('#note-form button[type=submit]');
    await page.waitForSelector('#notes li a');
    await page.reload();
    await ready();
    expect(await page.locator('#notes li').allTextContents()).toEqual(['Buy oat milk']);
    await screenshot(page, 'site-spa-home');

    await page.click('#notes li a');
    await page.waitForSelector('#note-view:not([hidden])');
    notePath = new URL(page.url()).pathname;
    expect(notePath).toMatch(/^\/notes\/[\w-]+$/);
    await page.reload();
    await page.waitForSelector('#note-view:not([hidden])');
    expect(await page.locator('#note-title').textContent()).toBe('Buy oat milk');
    await screenshot(page, 'site-spa-route');
  });

  it('signs a visitor up through its own form and /signup on the same origin', async () => {
    const { page } = session;
    await page.goto(`${origin}/`);
    await ready();
    await page.waitForTimeout(2100); // no person sends the form within 2 s of its token
    await page.fill('#email', 'reader@example.com');
    await Promise.all([page.waitForURL(`${origin}/thanks`), page.click('#signup button[type=submit]')]);
    expect(await page.textContent('body')).toContain('You signed up to Pocket Notes');
    await screenshot(page, 'site-spa-thanks');
    await app.server.app.get(SignupService).settled();
    expect(await app.query(`SELECT app_id FROM users WHERE email = 'reader@example.com'`)).toEqual([{ app_id: appId }]);
  });

  it('counts the documents it loads on the server and its client-side navigations through /_platform/collect', async () => {
    const rows = () =>
      app.query<{ pathname: string; deployment_id: string | null }>(
        `SELECT pathname, deployment_id FROM analytics_events WHERE app_id = $1 AND name = 'pageview' ORDER BY occurred_at`,
        [appId],
      );
    await until(
      async () => {
        await app.server.app.get(AnalyticsBuffer).flush();
        return (await rows()).some((r) => r.pathname === notePath && r.deployment_id === null);
      },
      10_000,
      'the navigation beacon',
    );
    const seen = await rows();
    // Documents served carry their deployment (the service worker's own fetches of the app shell do not count);
    // the tracker's beacon does not, and it sends none for the loads themselves.
    expect(seen.filter((r) => r.deployment_id === deploymentId).map((r) => r.pathname)).toEqual(['/', '/', notePath, '/', '/thanks']);
    expect(seen.filter((r) => r.deployment_id === null).map((r) => r.pathname)).toEqual([notePath]);
  });

  it('cannot read the API’s origin from the app’s script, and the API’s addresses send the browser to the site’s origin', async () => {
    const { page, context } = session;
    await context.addCookies([{ name: 'portal_session', value: 'a-session-of-the-portal', url: app.url }]);
    await page.goto(`${origin}/`);
    await ready();
    const probe = await page.evaluate(async (api) => {
      const credentialed = await fetch(`${api}/v1/apps`, { credentials: 'include' }).then(
        (res) => `read ${res.status}`,
        (err: Error) => `refused: ${err.name}`,
      );
      const opaque = await fetch(`${api}/v1/apps`, { mode: 'no-cors', credentials: 'include' });
      return { credentialed, opaque: { type: opaque.type, status: opaque.status, body: await opaque.text() } };
    }, app.url);
    expect(probe).toEqual({ credentialed: 'refused: TypeError', opaque: { type: 'opaque', status: 0, body: '' } });

    // The deployment's address on the API's origin ends on the site's origin: the script runs only there.
    await page.goto(`${app.url}/sites/${deploymentId}${notePath}`);
    await page.waitForSelector('#note-view:not([hidden])');
    expect(new URL(page.url()).origin).toBe(origin);
    expect(await page.locator('#note-title').textContent()).toBe('Buy oat milk');
  });
});
