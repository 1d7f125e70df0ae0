import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { pageview } from './support/analytics-events.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { PortalSession, portalSession } from './support/portal-session.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { bytes, csvRows, unzip } from './support/zip.js';

/** The portal's analytics page (issue 47): countries by name, events, goals and props panels, goal and shared-link forms, the Export button. */
describe(`portal analytics: events, goals, shares, export (${target})`, () => {
  let app: TestApp;
  let me: PortalSession;
  let appId: string;
  const base = () => `/portal/apps/${appId}/analytics`;
  const get = (path: string) => app.http().get(path).set({ cookie: me.cookie });
  const post = (path: string, fields: Record<string, string>) =>
    app
      .http()
      .post(path)
      .set({ cookie: me.cookie, 'content-type': 'application/x-www-form-urlencoded' })
      .send(new URLSearchParams({ _csrf: me.csrf, ...fields }).toString());
  /** A table's rows as text cells, by its heading. */
  const table = (html: string, heading: string): string[][] => {
    const at = html.indexOf(`>${heading}</h2>`);
    if (at < 0) return [];
    const section = html.slice(at, html.indexOf('</section>', at));
    return [...section.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)]
      .slice(1)
      .map((m) => [...m[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1].replace(/<[^>]+>/g, '').trim()));
  };

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, PUBLIC_URL: 'https://platform.example.test' } });
    me = await portalSession(app, 'analytics-manager@example.com');
    appId = (
      await app
        .http()
        .post('/v1/apps')
        .set({ authorization: `Bearer ${me.apiKey}` })
        .send({ name: 'Tracked' })
        .expect(201)
    ).body.appId;
    const at = new Date(Date.now() - 60_000);
    await app.server.app
      .get(AnalyticsWriter)
      .write([
        pageview({ appId, visitor: 1, pathname: '/', at, country: 'DE' }),
        pageview({ appId, visitor: 1, pathname: '/', at, name: 'Download', country: 'DE', props: JSON.stringify({ format: 'pdf' }) }),
        pageview({ appId, visitor: 2, pathname: '/', at, country: 'JP' }),
        pageview({ appId, visitor: 3, pathname: '/', at, country: 'JP' }),
        pageview({ appId, visitor: 3, pathname: '/', at, name: 'Download', country: 'JP', props: JSON.stringify({ format: 'epub' }) }),
      ]);
  });
  afterAll(() => app.close());

  it('shows countries by name, custom events, their properties and goal conversions, and adds and deletes goals', async () => {
    const html = (await get(base()).expect(200)).text;
    expect(table(html, 'Countries')).toEqual([
      ['Japan', '2', '66.7 %'],
      ['Germany', '1', '33.3 %'],
    ]);
    expect(table(html, 'Custom events')).toEqual([['Download', '2', '2']]);
    expect(table(html, 'Property format')).toEqual([
      ['epub', '1', '1'],
      ['pdf', '1', '1'],
    ]);
    expect(table(html, 'Goal conversions')).toEqual([]);

    const added = await post(`${base()}/goals`, { kind: 'event', value: 'Download' }).expect(200);
    expect(added.text).toContain('Goal “Download” added.');
    expect(table(added.text, 'Goal conversions')).toEqual([['Download', '2', '2', '66.7 %']]);
    const duplicate = await post(`${base()}/goals`, { kind: 'event', value: 'Download' }).expect(200);
    expect(duplicate.text).toMatch(/role="alert"[^>]*>The app has a goal &quot;Download&quot; already/);
    const [goal] = await app.query<{ id: string }>(`SELECT id FROM analytics_goals WHERE app_id = $1`, [appId]);
    expect((await post(`${base()}/goals/${goal.id}/delete`, {}).expect(200)).text).toContain('Goal deleted.');
    expect(await app.query(`SELECT id FROM analytics_goals WHERE app_id = $1`, [appId])).toEqual([]);
    // Without the form's CSRF token, nothing is added.
    await app
      .http()
      .post(`${base()}/goals`)
      .set({ cookie: me.cookie, 'content-type': 'application/x-www-form-urlencoded' })
      .send('kind=event&value=X')
      .expect(403);
    expect(await app.query(`SELECT id FROM analytics_goals WHERE app_id = $1`, [appId])).toEqual([]);
  });

  it('makes, lists and revokes shared links, and exports the period as a ZIP', async () => {
    const made = await post(`${base()}/shares`, { name: 'Team board', password: 'long enough secret' }).expect(200);
    const url = /Shared link “Team board” made: (https:\/\/platform\.example\.test\/share\/[A-Za-z0-9_-]{43})/.exec(made.text)?.[1];
    expect(url).toBeDefined();
    expect(made.text).toContain(`value="${url}"`);
    expect(made.text).toContain('Team board (password)');
    const path = new URL(url!).pathname;
    expect((await app.http().get(path).expect(200)).text).toContain('This dashboard is protected');
    const [share] = await app.query<{ id: string }>(`SELECT id FROM analytics_shares WHERE app_id = $1`, [appId]);
    expect((await post(`${base()}/shares/${share.id}/delete`, {}).expect(200)).text).toContain('Shared link revoked');
    await app.http().get(path).expect(404);

    const page = (await get(`${base()}?period=7d`).expect(200)).text;
    const href = /href="([^"]+\/export\?[^"]*)"/.exec(page)![1].replace(/&amp;/g, '&');
    expect(href).toBe(`${base()}/export?period=7d`);
    const res = await bytes(get(href)).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = await unzip(res.body as Buffer);
    expect(csvRows(files.get('countries.csv')!).slice(1)).toEqual([
      ['JP', 'Japan', '2', '2'],
      ['DE', 'Germany', '1', '1'],
    ]);
  });
});
