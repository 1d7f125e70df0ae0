import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { pageview } from './support/analytics-events.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

/** Goals (issue 47): event and page goals, the built-in Sign-up, counted over the retained events, per goal in `breakdown?property=goal`. */
describe(`analytics goals (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;

  const goals = (path = '') => `/v1/apps/${appId}/goals${path}`;
  const goalRows = async (query: Record<string, string> = {}) =>
    (await dev.get(`/v1/apps/${appId}/analytics/breakdown?${new URLSearchParams({ period: 'day', property: 'goal', ...query }).toString()}`).expect(200)).body;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Goals' }).expect(201)).body.appId;
    // Written before any goal exists: goals count them all the same.
    const at = (minute: number) => new Date(Date.now() - (10 - minute) * 60_000);
    const event = (visitor: number, minute: number, pathname: string, name = 'pageview') => pageview({ appId, visitor, pathname, name, at: at(minute) });
    await app.server.app
      .get(AnalyticsWriter)
      .write([
        event(1, 0, '/pricing'),
        event(1, 1, '/pricing', 'Download'),
        event(2, 0, '/blog/a'),
        event(2, 1, '/blog/b'),
        event(2, 2, '/blog/b', 'Download'),
        event(2, 3, '/blog/b', 'Download'),
        event(3, 0, '/'),
        event(3, 1, '/', 'signup'),
        event(4, 0, '/blogger'),
      ]);
  });
  afterAll(() => app.close());

  it('counts the built-in Sign-up before any goal is made', async () => {
    expect(await goalRows()).toEqual({ data: [{ goal: 'Sign-up', visitors: 1, events: 1, conversionRate: 25 }], nextCursor: null });
    expect((await dev.get(goals()).expect(200)).body).toEqual({ data: [], nextCursor: null });
  });

  it('makes event and page goals, and refuses duplicates, Sign-up and bad bodies naming the field', async () => {
    const download = (await dev.post(goals(), { event: 'Download' }).expect(201)).body;
    expect(download).toEqual({ id: expect.stringMatching(/^goal_/), name: 'Download', event: 'Download', createdAt: expect.any(String) });
    const blog = (await dev.post(goals(), { page: '/blog/*' }).expect(201)).body;
    expect(blog).toMatchObject({ name: 'Visit /blog/*', page: '/blog/*' });
    await dev.post(goals(), { page: '/pricing' }).expect(201);
    expectErrorBody((await dev.post(goals(), { event: 'Download' }).expect(409)).body, 409, 'goal "Download" already');
    expect((await dev.post(goals(), { page: '/blog/*' }).expect(409)).body.reason).toBe('goal_exists');
    expect((await dev.post(goals(), { event: 'Sign-up' }).expect(409)).body.reason).toBe('goal_exists');
    expectErrorBody((await dev.post(goals(), { event: 'A', page: '/' }).expect(400)).body, 400, 'exactly one of event and page');
    expectErrorBody((await dev.post(goals(), {}).expect(400)).body, 400, 'exactly one of event and page');
    expectErrorBody((await dev.post(goals(), { page: 'blog' }).expect(400)).body, 400, 'page must be a path');
    expectErrorBody((await dev.post(goals(), { event: 'x'.repeat(41) }).expect(400)).body, 400, 'event must be 1 to 40');
    expectErrorBody((await dev.post(goals(), { event: 'pageview' }).expect(400)).body, 400, 'give page');
    const listed = (await dev.get(goals()).expect(200)).body.data as Array<{ name: string }>;
    expect(listed.map((g) => g.name)).toEqual(['Download', 'Visit /blog/*', 'Visit /pricing']);
    const [row] = await app.query(`SELECT app_id, name, event, page FROM analytics_goals WHERE id = $1`, [download.id]);
    expect(row).toEqual({ app_id: appId, name: 'Download', event: 'Download', page: null });
  });

  it('breaks down by goal over events from before the goals: unique converting visitors, completions, conversion rate', async () => {
    expect((await goalRows()).data).toEqual([
      { goal: 'Download', visitors: 2, events: 3, conversionRate: 50 },
      { goal: 'Visit /blog/*', visitors: 1, events: 2, conversionRate: 25 },
      { goal: 'Sign-up', visitors: 1, events: 1, conversionRate: 25 },
      { goal: 'Visit /pricing', visitors: 1, events: 1, conversionRate: 25 },
    ]);
    // Filtered: the goals and the visitors of /pricing only.
    expect((await goalRows({ filters: 'page==/pricing' })).data).toEqual([
      { goal: 'Download', visitors: 1, events: 1, conversionRate: 100 },
      { goal: 'Visit /pricing', visitors: 1, events: 1, conversionRate: 100 },
    ]);
    const first = await goalRows({ limit: '2' });
    expect(first.data.map((r: { goal: string }) => r.goal)).toEqual(['Download', 'Visit /blog/*']);
    const second = await goalRows({ limit: '2', cursor: first.nextCursor });
    expect(second).toEqual({ data: [expect.objectContaining({ goal: 'Sign-up' }), expect.objectContaining({ goal: 'Visit /pricing' })], nextCursor: null });
  });

  it('deletes a goal (404 after), keeps 50 per app, and keeps apps apart', async () => {
    const blog = ((await dev.get(goals()).expect(200)).body.data as Array<{ id: string; name: string }>).find((g) => g.name === 'Visit /blog/*')!;
    await dev.delete(goals(`/${blog.id}`)).expect(204);
    expect((await dev.delete(goals(`/${blog.id}`)).expect(404)).body.reason).toBe('goal_not_found');
    expect((await goalRows()).data.map((r: { goal: string }) => r.goal)).toEqual(['Download', 'Sign-up', 'Visit /pricing']);

    for (let i = 0; i < 48; i++) await dev.post(goals(), { event: `Event ${i}` }).expect(201);
    expectErrorBody((await dev.post(goals(), { event: 'One too many' }).expect(409)).body, 409, 'has 50 goals already');
    const [{ n }] = await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM analytics_goals WHERE app_id = $1`, [appId]);
    expect(n).toBe(50);

    const other = await newAccountClient(app);
    expect((await other.get(goals()).expect(404)).body.reason).toBe('app_not_found');
    await other.post(goals(), { event: 'Download' }).expect(404);
  });
});
