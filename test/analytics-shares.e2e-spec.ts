import { createHash } from 'node:crypto';
import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { pageview } from './support/analytics-events.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT, scopedClient } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const PUBLIC_URL = 'https://stats.example.test';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Shared dashboards (issue 47): links to an app's analytics, read-only, optionally behind a password, revoked at once. */
describe(`analytics shares (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;
  let otherAppId: string;

  const shares = (id = appId, path = '') => `/v1/apps/${id}/analytics/shares${path}`;
  const pathOf = (url: string) => new URL(url).pathname;
  const page = (path: string, cookie?: string, ip = '198.51.100.7') =>
    app
      .http()
      .get(path)
      .set({ 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) });
  const unlock = (path: string, password: string, ip = '198.51.100.7') =>
    app
      .http()
      .post(path)
      .set({ 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' })
      .send(new URLSearchParams({ password }).toString());

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, PUBLIC_URL, TRUST_PROXY: '127.0.0.1' } });
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Shared Stats' }).expect(201)).body.appId;
    otherAppId = (await dev.post('/v1/apps', { name: 'Secret Sibling' }).expect(201)).body.appId;
    const at = new Date(Date.now() - 60_000);
    await app.server.app
      .get(AnalyticsWriter)
      .write([
        pageview({ appId, visitor: 1, pathname: '/pricing', at }),
        pageview({ appId, visitor: 2, pathname: '/pricing', at }),
        pageview({ appId, visitor: 3, pathname: '/about', at }),
        pageview({ appId: otherAppId, visitor: 9, pathname: '/sibling-secret-page', at }),
      ]);
  });
  afterAll(() => app.close());

  it('creates shares whose url is shown on create and in the list, storing only the token’s hash and a password hash', async () => {
    const open = (await dev.post(shares(), { name: 'Investors' }).expect(201)).body;
    expect(open).toEqual({
      id: expect.stringMatching(/^shr_/),
      name: 'Investors',
      url: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/share/[A-Za-z0-9_-]{43}$`)),
      protected: false,
      createdAt: expect.any(String),
    });
    const locked = (await dev.post(shares(), { name: 'Board', password: 'correct horse' }).expect(201)).body;
    expect(locked.protected).toBe(true);
    expect((await dev.get(shares()).expect(200)).body).toEqual({ data: [open, locked], nextCursor: null });

    const token = pathOf(open.url).slice('/share/'.length);
    const rows = await app.query<{ token_hash: string; password_hash: string | null }>(
      `SELECT token_hash, password_hash FROM analytics_shares WHERE app_id = $1 ORDER BY created_at, id`,
      [appId],
    );
    expect(rows[0]).toEqual({ token_hash: sha256(token), password_hash: null });
    expect(rows[1].password_hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(rows)).not.toContain('correct horse');
    expect(JSON.stringify(await app.query(`SELECT * FROM analytics_shares`))).not.toContain(token);

    const audit = (await dev.get('/v1/audit-log?action=analytics_share.created').expect(200)).body.data;
    expect(audit.map((e: { target: { id: string } }) => e.target.id).sort()).toEqual([open.id, locked.id].sort());

    expectErrorBody((await dev.post(shares(), {}).expect(400)).body, 400, 'name must be 1 to 100');
    expectErrorBody((await dev.post(shares(), { name: 'x', password: 'short' }).expect(400)).body, 400, 'password must be longer');
    const reader = await scopedClient(app, dev, ['apps:read']);
    await reader.get(shares()).expect(200);
    expectErrorBody((await reader.post(shares(), { name: 'no' }).expect(403)).body, 403, 'apps:write');
    const stranger = await newAccountClient(app);
    expect((await stranger.get(shares()).expect(404)).body.reason).toBe('app_not_found');
    expect((await stranger.post(shares(), { name: 'mine now' }).expect(404)).body.reason).toBe('app_not_found');
  });

  it('serves the dashboard read-only: no portal, noindex, no referrer, nothing cached, links that stay in the share', async () => {
    const open = (await dev.post(shares(), { name: 'Public' }).expect(201)).body;
    const base = pathOf(open.url);
    const res = await page(base).expect(200);
    expect(res.headers).toMatchObject({ 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('Analytics: Shared Stats');
    expect(res.text).toMatch(/<th scope="row"><a href="[^"]+"[^>]*>\/pricing<\/a><\/th>\s*<td class="num">2<\/td>/);
    const hrefs = [...res.text.matchAll(/(?:href|action|hx-get)="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    expect(hrefs.filter((h) => !h.startsWith(base) && !h.startsWith('/portal/assets/'))).toEqual([]);
    expect(res.text).not.toMatch(/Sign out|_csrf|tracker-snippet|Secret Sibling/);

    // Its query string picks the period and filters, never another app's data.
    const filtered = await page(`${base}?page=%2Fabout&period=7d&appId=${otherAppId}&accountId=x`).expect(200);
    expect(filtered.text).toContain('Page is /about');
    expect(filtered.text).not.toContain('sibling-secret-page');
    expect((await page(`${base}?page=/sibling-secret-page`).expect(200)).text).toContain('No visits in this period');
    await page(`${base}/realtime`).expect(200);
    // Tokens that are not one: 404, the same page as a revoked one.
    await page('/share/not-a-token').expect(404);
    await page(`/share/${'A'.repeat(43)}`).expect(404);
  });

  it('asks for the password first, sets a cookie scoped to the share, and refuses another share’s cookie', async () => {
    const one = (await dev.post(shares(), { name: 'Locked one', password: 'same password' }).expect(201)).body;
    const two = (await dev.post(shares(), { name: 'Locked two', password: 'same password' }).expect(201)).body;
    const [a, b] = [pathOf(one.url), pathOf(two.url)];
    const form = await page(a).expect(200);
    expect(form.text).toContain('This dashboard is protected');
    expect(form.text).not.toContain('/pricing');
    expect(form.headers['x-robots-tag']).toBe('noindex, nofollow');
    await page(`${a}/realtime`).expect(404);

    const wrong = await unlock(a, 'not it at all').expect(403);
    expect(wrong.text).toContain('That password is not right.');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const right = await unlock(a, 'same password').expect(303);
    expect(right.headers.location).toBe(a);
    const [cookie] = right.headers['set-cookie'] as unknown as string[];
    expect(cookie).toMatch(new RegExp(`^share_access=\\d+\\.[A-Za-z0-9_-]+; Path=${a}; HttpOnly; SameSite=Lax; Secure; Max-Age=86400$`));
    const pair = cookie.split(';')[0];
    expect((await page(a, pair).expect(200)).text).toMatch(/\/pricing/);
    // The same password, another share: its cookie does not open it (nor does a forged or expired one).
    expect((await page(b, pair).expect(200)).text).toContain('This dashboard is protected');
    expect((await page(a, `share_access=${Date.now() + 60_000}.AAAA`).expect(200)).text).toContain('This dashboard is protected');
    expect((await page(a, `share_access=1.${pair.split('.')[1]}`).expect(200)).text).toContain('This dashboard is protected');
  });

  it('locks out guessed passwords as sign-in does: 5 from one network, then even the right one waits', async () => {
    const share = (await dev.post(shares(), { name: 'Guarded', password: 'right password' }).expect(201)).body;
    const path = pathOf(share.url);
    for (let i = 0; i < 5; i++) await unlock(path, `guess ${i} wrong`, '203.0.113.9').expect(403);
    const locked = await unlock(path, 'right password', '203.0.113.10').expect(429); // the same /24
    expect(locked.text).toContain('Too many wrong passwords');
    expect(locked.headers['retry-after']).toBe('900');
    expect(locked.headers['set-cookie']).toBeUndefined();
    // Another network is not locked by those guesses.
    await unlock(path, 'right password', '192.0.2.44').expect(303);
    // Guesses in parallel are counted before they are checked: never more than 5 checked per network.
    const other = pathOf((await dev.post(shares(), { name: 'Raced', password: 'right password' }).expect(201)).body.url);
    const statuses = await Promise.all(Array.from({ length: 8 }, (_, i) => unlock(other, `wrong ${i} guess`, '198.18.0.1').then((r) => r.status)));
    expect(statuses.filter((s) => s === 403)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
  });

  it('revokes at once, and keeps apps and accounts apart', async () => {
    const share = (await dev.post(shares(), { name: 'Short-lived' }).expect(201)).body;
    const path = pathOf(share.url);
    await page(path).expect(200);
    const stranger = await newAccountClient(app);
    const theirApp = (await stranger.post('/v1/apps', { name: 'Theirs' }).expect(201)).body.appId;
    const theirs = (await stranger.post(shares(theirApp), { name: 'Theirs' }).expect(201)).body;
    // Another account's share, through this account's app or theirs: not found, and still alive.
    expect((await dev.delete(shares(appId, `/${theirs.id}`)).expect(404)).body.reason).toBe('share_not_found');
    expect((await dev.delete(shares(theirApp, `/${theirs.id}`)).expect(404)).body.reason).toBe('app_not_found');
    expect((await dev.delete(shares(otherAppId, `/${share.id}`)).expect(404)).body.reason).toBe('share_not_found');
    expect((await page(pathOf(theirs.url)).expect(200)).text).toContain('Analytics: Theirs');

    await dev.delete(shares(appId, `/${share.id}`)).expect(204);
    const gone = await page(path).expect(404);
    expect(gone.headers['cache-control']).toBe('no-store');
    await page(`${path}/realtime`).expect(404);
    await unlock(path, 'whatever it is').expect(404);
    expect((await dev.delete(shares(appId, `/${share.id}`)).expect(404)).body.reason).toBe('share_not_found');
    expect((await dev.get(shares()).expect(200)).body.data.map((s: { id: string }) => s.id)).not.toContain(share.id);
    const audit = (await dev.get('/v1/audit-log?action=analytics_share.deleted').expect(200)).body.data;
    expect(audit.map((e: { target: { id: string } }) => e.target.id)).toEqual([share.id]);

    // Deleting the app ends its links too.
    const doomed = (await dev.post(shares(otherAppId), { name: 'Doomed' }).expect(201)).body;
    await dev.delete(`/v1/apps/${otherAppId}`).expect(204);
    await page(pathOf(doomed.url)).expect(404);
  });
});
