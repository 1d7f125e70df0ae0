import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { pageview } from './support/analytics-events.js';
import { errorEnvelope } from './support/api-client.js';
import { createAccount, startTestApp, target, TestApp } from './support/test-app.js';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Issue 47: the funnel of each deployment (`breakdown?property=deployment`) with a goal as its step instead of sign-up. */
describe(`analytics: the per-deployment funnel with a goal (${target})`, () => {
  let app: TestApp;
  let key: string;
  let appId: string;

  beforeAll(async () => {
    app = await startTestApp();
    ({ apiKey: key } = await createAccount(app));
    appId = (await app.http().post('/v1/apps').set(bearer(key)).send({ name: 'Funnel' }).expect(201)).body.appId as string;
    await app.http().post(`/v1/apps/${appId}/goals`).set(bearer(key)).send({ event: 'Download' }).expect(201);
    await app.http().post(`/v1/apps/${appId}/goals`).set(bearer(key)).send({ page: '/pricing' }).expect(201);
    const at = (minute: number) => new Date(Date.now() - (30 - minute) * 60_000);
    const on = (deploymentId: string, visitor: number, minute: number, pathname: string, name = 'pageview') =>
      pageview({ appId, deploymentId, visitor, pathname, name, at: at(minute) });
    // Deployment A: 4 visitors, 2 of them download (one twice), 1 signs up. Deployment B: 2 visitors, 1 downloads twice, 1 sees /pricing.
    await app.server.app
      .get(AnalyticsWriter)
      .write([
        on('dep_A', 1, 0, '/'),
        on('dep_A', 1, 1, '/', 'Download'),
        on('dep_A', 1, 2, '/', 'Download'),
        on('dep_A', 1, 3, '/', 'signup'),
        on('dep_A', 2, 4, '/'),
        on('dep_A', 2, 5, '/', 'Download'),
        on('dep_A', 3, 6, '/'),
        on('dep_A', 4, 7, '/docs'),
        on('dep_B', 5, 8, '/'),
        on('dep_B', 5, 9, '/pricing'),
        on('dep_B', 6, 10, '/'),
        on('dep_B', 6, 11, '/', 'Download'),
        on('dep_B', 6, 12, '/', 'Download'),
      ]);
  });
  afterAll(() => app?.close());

  const funnel = async (goal?: string, extra = '') =>
    (
      await app
        .http()
        .get(
          `/v1/apps/${appId}/analytics/breakdown?property=deployment&period=day&metrics=visitors,signups,conversionRate${goal ? `&goal=${encodeURIComponent(goal)}` : ''}${extra}`,
        )
        .set(bearer(key))
        .expect(200)
    ).body;

  it('without a goal the step is sign-up, as before', async () => {
    expect((await funnel()).data).toEqual([
      { deployment: 'dep_A', visitors: 4, signups: 1, conversionRate: 25 },
      { deployment: 'dep_B', visitors: 2, signups: 0, conversionRate: 0 },
    ]);
  });

  it('goal=<event goal>: signups are the goal’s unique converting visitors of each deployment, the rate their share of its visitors', async () => {
    expect(await funnel('Download')).toEqual({
      data: [
        { deployment: 'dep_A', visitors: 4, signups: 2, conversionRate: 50 },
        { deployment: 'dep_B', visitors: 2, signups: 1, conversionRate: 50 },
      ],
      nextCursor: null,
    });
    // The same figures as the goal breakdown filtered to each deployment.
    for (const [deployment, visitors] of [
      ['dep_A', 2],
      ['dep_B', 1],
    ] as const) {
      const goals = await app
        .http()
        .get(`/v1/apps/${appId}/analytics/breakdown?property=goal&period=day&filters=deployment==${deployment}`)
        .set(bearer(key))
        .expect(200);
      expect(goals.body.data.find((g: { goal: string }) => g.goal === 'Download').visitors).toBe(visitors);
    }
  });

  it('goal=<page goal> and goal=Sign-up; a page of one row keeps its cursor; other metrics pass through', async () => {
    expect((await funnel('Visit /pricing')).data).toEqual([
      { deployment: 'dep_A', visitors: 4, signups: 0, conversionRate: 0 },
      { deployment: 'dep_B', visitors: 2, signups: 1, conversionRate: 50 },
    ]);
    expect((await funnel('Sign-up')).data).toEqual([
      { deployment: 'dep_A', visitors: 4, signups: 1, conversionRate: 25 },
      { deployment: 'dep_B', visitors: 2, signups: 0, conversionRate: 0 },
    ]);
    const first = await funnel('Download', '&limit=1');
    expect(first.data).toEqual([{ deployment: 'dep_A', visitors: 4, signups: 2, conversionRate: 50 }]);
    const second = await funnel('Download', `&limit=1&cursor=${first.nextCursor}`);
    expect(second).toEqual({ data: [{ deployment: 'dep_B', visitors: 2, signups: 1, conversionRate: 50 }], nextCursor: null });
    const pageviews = await app
      .http()
      .get(`/v1/apps/${appId}/analytics/breakdown?property=deployment&period=day&metrics=pageviews,conversionRate&goal=Download`)
      .set(bearer(key))
      .expect(200);
    expect(pageviews.body.data).toEqual([
      { deployment: 'dep_A', pageviews: 4, conversionRate: 50 },
      { deployment: 'dep_B', pageviews: 3, conversionRate: 50 },
    ]);
  });

  it('with a filter, and an unknown goal → 404', async () => {
    expect((await funnel('Download', `&filters=${encodeURIComponent('page==/')}`)).data).toEqual([
      { deployment: 'dep_A', visitors: 3, signups: 2, conversionRate: 66.7 },
      { deployment: 'dep_B', visitors: 2, signups: 1, conversionRate: 50 },
    ]);
    const missing = await app.http().get(`/v1/apps/${appId}/analytics/breakdown?property=deployment&goal=Nope`).set(bearer(key)).expect(404);
    expect(missing.body).toEqual(errorEnvelope(missing, 404, 'goal_not_found', 'Goal Nope not found'));
  });
});
