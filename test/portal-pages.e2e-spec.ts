import { UsersService } from '../src/users/users.service.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { join } from 'node:path';
import { ARTIFACTS_DIR, BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { axeViolations } from './support/portal-browser.js';
import { portalSession } from './support/portal-session.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Paths never visited by the crawl: downloads, other surfaces, and pages that change something on GET (none should). */
const SKIP = /^\/portal\/(assets\/|users\.csv|audit-log\.csv)|^\/portal\/logout/;

describeInBrowser(`every portal page at 1280 and 390 px: screenshots, no horizontal scroll, axe-core (${target})`, () => {
  let app: TestApp;
  let session: BrowserSession;
  let cookie: { name: string; value: string };
  let inviteUrl: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50' } });
    session = await openBrowser({ bypassCSP: true });
    const signedIn = await portalSession(app, 'pages-dev@example.com');
    const [name, value] = signedIn.cookie.split('=');
    cookie = { name, value };
    ids.apiKey = signedIn.apiKey;
    ids.accountId = signedIn.accountId;
    // An open invite of another account, for the invite page.
    inviteUrl = (await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: 'invited@example.com' }).expect(201))
      .body.portalInviteUrl;
  });
  afterAll(async () => {
    await session?.close();
    await app?.close();
  });

  /** Opens `path` at `viewport`, saves its screenshot, and returns what is wrong with it. */
  const check = async (path: string, name: string, viewport: (typeof VIEWPORTS)[number]): Promise<string[]> => {
    const { page } = session;
    await page.setViewportSize(viewport);
    const res = await page.goto(`${app.url}${path}`);
    await screenshot(page, `portal-page-${name}-${viewport.width}`);
    // The first screen of a few pages too, for the docs.
    if (['apps-app', 'overview', 'billing'].includes(name))
      await page.screenshot({ path: join(ARTIFACTS_DIR, `portal-page-${name}-${viewport.width}-top.png`) });
    const problems: string[] = [];
    if (!res || res.status() >= 500) problems.push(`${path}: status ${res?.status()}`);
    if (viewport.width === 390) {
      const scrollWidth = await page.evaluate(
        () => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth,
      );
      if (scrollWidth > viewport.width) problems.push(`${path} at 390: scrollWidth ${scrollWidth}`);
    }
    for (const v of await axeViolations(page, ['critical', 'serious']))
      problems.push(`${path} at ${viewport.width}: axe ${v.impact} ${v.id} on ${v.targets.join(', ')}`);
    return problems;
  };

  const nameOf = (path: string) =>
    path
      .replace(/^\/portal\/?/, '')
      .replace(/([a-z]+)_[0-9A-Z]{26}/g, (_m, kind: string) => kind)
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '') || 'overview';

  it('signed out: the login and invite pages', async () => {
    const problems: string[] = [];
    for (const viewport of VIEWPORTS) {
      problems.push(...(await check('/portal/login', 'login', viewport)));
      problems.push(...(await check(new URL(inviteUrl).pathname, 'invite', viewport)));
    }
    expect(problems).toEqual([]);
  });

  it('a new account: the empty overview and apps pages say what to do next, with a snippet for this server', async () => {
    await session.context.addCookies([{ ...cookie, url: `${app.url}/portal/` }]);
    const problems: string[] = [];
    for (const viewport of VIEWPORTS) {
      problems.push(...(await check('/portal/', 'overview-empty', viewport)));
      problems.push(...(await check('/portal/apps', 'apps-empty', viewport)));
    }
    expect(problems).toEqual([]);
    await expect(session.page.getByLabel('With curl').inputValue()).resolves.toMatch(/^curl -X POST http:\/\/[\w.:-]+\/v1\/apps \\/);
  });

  it('every page reachable from the portal, with data on it', async () => {
    const auth = { authorization: `Bearer ${ids.apiKey}` };
    const created = (await app.http().post('/v1/apps').set(auth).send({ name: 'Harbour Tides', description: 'Tide tables for sailors' }).expect(201)).body;
    const page = (await app.http().get(`/v1/apps/${created.appId}/landing-page`).set(auth).expect(200)).body.page;
    await app
      .http()
      .put(`/v1/apps/${created.appId}/landing-page`)
      .set(auth)
      .send({
        ...page,
        features: [{ title: 'Tides offline', body: 'Every port, no signal needed.' }],
        faq: [{ question: 'Which ports?', answer: 'All of Europe.' }],
      })
      .expect(200);
    await app.http().post('/v1/apps/deploy').set(auth).send({ appId: created.appId, env: 'staging' }).expect(200);
    await app.http().post('/v1/apps/deploy').set(auth).send({ appId: created.appId, env: 'production' }).expect(200);
    await app.http().post(`/v1/apps/${created.appId}/publish`).set(auth).send({}).expect(200);
    await app.http().post(`/v1/apps/${created.appId}/domains`).set(auth).send({ hostname: 'tides.example.com' }).expect(201);
    await app.server.app.get(UsersService).create(ids.accountId, { appId: created.appId, email: 'sailor@example.com' });
    await app
      .http()
      .post('/v1/service-accounts')
      .set(auth)
      .send({ name: 'nightly', scopes: ['apps:read'] })
      .expect(201);
    const endpoint = (
      await app
        .http()
        .post('/v1/webhook-endpoints')
        .set(auth)
        .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] })
        .expect(201)
    ).body;
    await app.http().post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(auth).send({});

    // Crawl: every portal link of every page reached (ids folded, so each kind of page is visited once).
    const seen = new Set<string>();
    const queue = ['/portal/', '/portal/no-such-page'];
    const visited: string[] = [];
    const problems: string[] = [];
    while (queue.length > 0 && visited.length < 40) {
      const path = queue.shift()!;
      const name = nameOf(path);
      if (seen.has(name)) continue;
      seen.add(name);
      visited.push(path);
      for (const viewport of VIEWPORTS) problems.push(...(await check(path, name, viewport)));
      // A link marked `download` (the analytics Export) is a file, not a page.
      const links = await session.page.$$eval('a[href^="/portal"]:not([download])', (as) => as.map((a) => a.getAttribute('href')!));
      for (const href of links) {
        const url = new URL(href, app.url);
        const next = `${url.pathname}${url.search}`;
        if (!SKIP.test(url.pathname) && !seen.has(nameOf(next))) queue.push(next);
      }
    }
    expect(problems).toEqual([]);
    // The pages of every area were reached.
    expect(visited.map(nameOf)).toEqual(
      expect.arrayContaining([
        'overview',
        'apps',
        'apps-app',
        'apps-app-editor',
        'apps-app-analytics',
        'users',
        'api-keys',
        'service-accounts',
        'webhooks',
        'events',
        'billing',
        'members',
        'audit-log',
      ]),
    );
  }, 300_000);
});
