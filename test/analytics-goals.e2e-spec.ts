import { DataSource } from 'typeorm';
import type { AnalyticsEvent } from '../src/analytics/analytics-event.js';
import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { AnalyticsGoalRollups1764760000000 } from '../src/database/migrations/1764760000000-analytics-goal-rollups.js';
import { pageview } from './support/analytics-events.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { bytes, csvRows, unzip } from './support/zip.js';

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

  describe('counted from the daily rollups where they answer exactly, and equal to the raw rows', () => {
    let rollApp: string;
    const DAY_MS = 86_400_000;
    const props = (p: Record<string, string>) => JSON.stringify(p);
    const at = (minutesAgo: number, daysAgo = 0) => new Date(Date.now() - daysAgo * DAY_MS - minutesAgo * 60_000);
    const write = (events: AnalyticsEvent[]) => app.server.app.get(AnalyticsWriter).write(events);
    const custom = (id: string, visitor: number, name: string, p: Record<string, string> | null, when = at(5), pathname = '/docs') =>
      pageview({ appId: id, visitor, pathname, name, at: when, props: p === null ? null : props(p) });
    const goalRowsOf = async (id: string, query: Record<string, string>) =>
      (await dev.get(`/v1/apps/${id}/analytics/breakdown?${new URLSearchParams({ property: 'goal', ...query }).toString()}`).expect(200)).body.data as Array<{
        goal: string;
        visitors: number;
        events: number;
      }>;
    /** What the raw rows say, independently of the service: unique visitor days and completions of an event (with a prop). */
    const rawEvent = async (id: string, name: string, days: number, prop?: [string, string]) => {
      const [row] = await app.query<{ visitors: number; events: number }>(
        `SELECT count(DISTINCT (visitor_id, (occurred_at AT TIME ZONE 'UTC')::date))::int AS visitors, count(*)::int AS events FROM analytics_events
          WHERE app_id = $1 AND name = $2 AND occurred_at >= (now() AT TIME ZONE 'UTC')::date - $3::int AND ($4::text IS NULL OR props ->> $4::text = $5::text)`,
        [id, name, days - 1, prop?.[0] ?? null, prop?.[1] ?? null],
      );
      return row;
    };
    const rawPage = async (id: string, pathname: string, days: number) => {
      const [row] = await app.query<{ visitors: number; events: number }>(
        `SELECT count(DISTINCT (visitor_id, (occurred_at AT TIME ZONE 'UTC')::date))::int AS visitors, count(*)::int AS events FROM analytics_events
          WHERE app_id = $1 AND name = 'pageview' AND pathname = $2 AND occurred_at >= (now() AT TIME ZONE 'UTC')::date - $3::int`,
        [id, pathname, days - 1],
      );
      return row;
    };
    const rollupRows = (id: string) =>
      app.query<{ day: string; dimension: string; value: string; visitors: number; events: number }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, dimension, value, visitors, events FROM analytics_daily WHERE app_id = $1 AND dimension LIKE 'evt+props.%'
          ORDER BY day, dimension, value`,
        [id],
      );

    beforeAll(async () => {
      rollApp = (await dev.post('/v1/apps', { name: 'Goal rollups' }).expect(201)).body.appId;
      // Yesterday and today, before any goal exists; visitor 1 downloads the pdf twice today (once a day as a visitor).
      await write([
        custom(rollApp, 1, 'Download', { format: 'pdf' }, at(5, 1)),
        custom(rollApp, 1, 'Download', { format: 'pdf', size: 'big' }, at(9)),
        custom(rollApp, 1, 'Download', { format: 'pdf' }, at(8)),
        custom(rollApp, 1, 'Download', { format: 'zip' }, at(7)),
        custom(rollApp, 2, 'Download', { format: 'pdf' }, at(6)),
        custom(rollApp, 3, 'Download', null, at(6)),
        custom(rollApp, 3, 'Share', { format: 'pdf' }, at(5)),
        pageview({ appId: rollApp, visitor: 4, pathname: '/pricing', at: at(6) }),
        pageview({ appId: rollApp, visitor: 4, pathname: '/pricing', at: at(5) }),
        pageview({ appId: rollApp, visitor: 2, pathname: '/pricing', at: at(5, 1) }),
        pageview({ appId: rollApp, visitor: 4, pathname: '/', at: at(4), name: 'signup' }),
        // An event on /docs from a visitor who never viewed it: the page's rollup visitors are not the page goal's.
        pageview({ appId: rollApp, visitor: 5, pathname: '/docs', at: at(4) }),
      ]);
      // A later batch: visitor 2's second pdf today is a completion, not a new visitor (the day's seen marks).
      await write([custom(rollApp, 2, 'Download', { format: 'pdf' }, at(3))]);
    });

    it('answers event goals with and without a props filter as the raw rows do, a visitor once a day, goals made after the events', async () => {
      for (const goal of [{ event: 'Download' }, { event: 'Share' }, { page: '/pricing' }, { page: '/docs' }, { page: '/p*' }])
        await dev.post(`/v1/apps/${rollApp}/goals`, goal).expect(201);
      expect(await goalRowsOf(rollApp, { period: '7d', filters: 'props.format==pdf' })).toEqual([
        { goal: 'Download', ...(await rawEvent(rollApp, 'Download', 7, ['format', 'pdf'])), conversionRate: expect.any(Number) },
        { goal: 'Share', ...(await rawEvent(rollApp, 'Share', 7, ['format', 'pdf'])), conversionRate: expect.any(Number) },
      ]);
      // Worked out by hand too: visitor 1 yesterday and today, visitor 2 today (twice, in two batches); 5 pdf downloads.
      expect(await rawEvent(rollApp, 'Download', 7, ['format', 'pdf'])).toEqual({ visitors: 3, events: 5 });
      expect((await goalRowsOf(rollApp, { period: 'day', filters: 'props.format==pdf' }))[0]).toEqual({
        goal: 'Download',
        visitors: 2,
        events: 4,
        conversionRate: expect.any(Number),
      });
      expect((await goalRowsOf(rollApp, { period: 'day', filters: 'props.size==big' }))[0]).toMatchObject({ goal: 'Download', visitors: 1, events: 1 });
      expect(await goalRowsOf(rollApp, { period: 'day', filters: 'props.format==tar' })).toEqual([]);

      const unfiltered = await goalRowsOf(rollApp, { period: '7d' });
      const byGoal = new Map(unfiltered.map((r) => [r.goal, { visitors: r.visitors, events: r.events }]));
      expect(byGoal.get('Download')).toEqual(await rawEvent(rollApp, 'Download', 7));
      expect(byGoal.get('Download')).toEqual({ visitors: 4, events: 7 });
      expect(byGoal.get('Share')).toEqual(await rawEvent(rollApp, 'Share', 7));
      expect(byGoal.get('Sign-up')).toEqual(await rawEvent(rollApp, 'signup', 7));
      expect(byGoal.get('Visit /pricing')).toEqual(await rawPage(rollApp, '/pricing', 7));
      expect(byGoal.get('Visit /pricing')).toEqual({ visitors: 2, events: 3 });
      // /docs: visitors 1, 2 and 3 fired events there without viewing it; only visitor 5's pageview converts.
      expect(byGoal.get('Visit /docs')).toEqual(await rawPage(rollApp, '/docs', 7));
      expect(byGoal.get('Visit /docs')).toEqual({ visitors: 1, events: 1 });
      expect(byGoal.get('Visit /p*')).toEqual({ visitors: 2, events: 3 });

      // What the rollups hold for it: one row per day, event and props value.
      const today = new Date().toISOString().slice(0, 10);
      expect((await rollupRows(rollApp)).filter((r) => r.day === today)).toEqual([
        { day: today, dimension: 'evt+props.format', value: 'Download\u001epdf', visitors: 2, events: 4 },
        { day: today, dimension: 'evt+props.format', value: 'Download\u001ezip', visitors: 1, events: 1 },
        { day: today, dimension: 'evt+props.format', value: 'Share\u001epdf', visitors: 1, events: 1 },
        { day: today, dimension: 'evt+props.size', value: 'Download\u001ebig', visitors: 1, events: 1 },
      ]);
      // Read from those rows (a row changed behind the writer's back shows), then as they were.
      const bump = (by: number) =>
        app.query(
          `UPDATE analytics_daily SET events = events + $2 WHERE app_id = $1 AND dimension = 'evt+props.format' AND value = 'Download\u001epdf' AND day = $3`,
          [rollApp, by, today],
        );
      await bump(100);
      expect((await goalRowsOf(rollApp, { period: 'day', filters: 'props.format==pdf' }))[0]).toMatchObject({ goal: 'Download', events: 104 });
      await bump(-100);
    });

    it('never shows the internal dimension: not among props keys, breakdowns, filters or the export', async () => {
      const format = (await dev.get(`/v1/apps/${rollApp}/analytics/breakdown?period=7d&property=props.format`).expect(200)).body.data;
      expect(format.map((r: Record<string, string>) => r['props.format']).sort()).toEqual(['pdf', 'zip']);
      expect((await dev.get(`/v1/apps/${rollApp}/analytics/breakdown?period=7d&property=evt%2Bprops.format`).expect(400)).body.reason).toBeDefined();
      await dev.get(`/v1/apps/${rollApp}/analytics/aggregate?period=7d&filters=${encodeURIComponent('evt+props.format==Download\u001epdf')}`).expect(400);
      const res = await bytes(dev.get(`/v1/apps/${rollApp}/analytics/export?period=7d`)).expect(200);
      const files = await unzip(res.body as Buffer);
      const properties = csvRows(files.get('properties.csv')!);
      expect(properties[0]).toEqual(['property', 'value', 'visitors', 'events']);
      expect(
        properties
          .slice(1)
          .map((r) => `${r[0]}=${r[1]}`)
          .sort(),
      ).toEqual(['format=pdf', 'format=zip', 'size=big']);
      for (const text of files.values()) {
        expect(text).not.toContain('evt+props');
        expect(text).not.toContain('\u001e');
      }
    });

    it('falls back to raw rows for values past the daily caps, and agrees with them', async () => {
      const capped = (await dev.post('/v1/apps', { name: 'Goal caps' }).expect(201)).body.appId;
      const events: AnalyticsEvent[] = [];
      // 1,000 formats take the day's places; `late` is then folded into (other), for two visitors.
      for (let i = 0; i < 1000; i++) events.push(custom(capped, 100 + i, 'Download', { format: `f${i}` }, at(30)));
      events.push(custom(capped, 1, 'Download', { format: 'late' }, at(29)), custom(capped, 2, 'Download', { format: 'late' }, at(29)));
      // With `format`, 99 more keys fill the day's 100 places: `zz` gets no rows.
      for (let k = 0; k < 99; k += 10)
        events.push(custom(capped, 3, 'Keys', Object.fromEntries(Array.from({ length: Math.min(10, 99 - k) }, (_, j) => [`k${k + j}`, 'x'])), at(28)));
      events.push(custom(capped, 4, 'Download', { zz: 'v' }, at(27)));
      // 1,000 event names take the day's places: `Late` is folded into (other).
      for (let i = 0; i < 1000; i++) events.push(custom(capped, 5, `E${i}`, null, at(26)));
      events.push(custom(capped, 6, 'Late', { format: 'f1' }, at(25)), custom(capped, 6, 'Late', { format: 'f1' }, at(25)));
      await write(events);
      for (const event of ['Download', 'Late']) await dev.post(`/v1/apps/${capped}/goals`, { event }).expect(201);

      const goal = async (filters?: string) => {
        const rows = await goalRowsOf(capped, { period: 'day', ...(filters ? { filters } : {}) });
        return Object.fromEntries(rows.map((r) => [r.goal, { visitors: r.visitors, events: r.events }]));
      };
      expect((await goal('props.format==late')).Download).toEqual({ visitors: 2, events: 2 });
      expect((await goal('props.format==late')).Download).toEqual(await rawEvent(capped, 'Download', 1, ['format', 'late']));
      expect((await goal('props.format==f5')).Download).toEqual({ visitors: 1, events: 1 });
      expect((await goal('props.zz==v')).Download).toEqual({ visitors: 1, events: 1 });
      expect((await goal('props.format==f1')).Late).toEqual({ visitors: 1, events: 2 });
      expect((await goal('props.format==f1')).Download).toEqual({ visitors: 1, events: 1 });
      expect((await goal()).Late).toEqual(await rawEvent(capped, 'Late', 1));
      expect((await goal()).Download).toEqual(await rawEvent(capped, 'Download', 1));
      const rows = await rollupRows(capped);
      expect(rows.filter((r) => r.value.endsWith('\u001e(other)'))).toEqual([
        expect.objectContaining({ value: 'Download\u001e(other)', visitors: 2, events: 2 }),
      ]);
      expect(rows.filter((r) => r.value.startsWith('(other)\u001e'))).toEqual([expect.objectContaining({ value: '(other)\u001ef1', visitors: 1, events: 2 })]);
      expect(rows.filter((r) => r.dimension === 'evt+props.zz')).toEqual([]);
      // Those answers came from raw rows: the folded rows changed behind the writer's back change nothing.
      await app.query(`UPDATE analytics_daily SET events = events + 100 WHERE app_id = $1 AND dimension LIKE 'evt+props.%' AND value LIKE '%(other)%'`, [
        capped,
      ]);
      expect((await goal('props.format==late')).Download).toEqual({ visitors: 2, events: 2 });
      expect((await goal('props.format==f1')).Late).toEqual({ visitors: 1, events: 2 });
      await app.query(`UPDATE analytics_daily SET events = events - 100 WHERE app_id = $1 AND dimension LIKE 'evt+props.%' AND value LIKE '%(other)%'`, [
        capped,
      ]);
    });

    it("the migration backfills the rows and today's seen marks from the raw events, as the writer wrote them", async () => {
      const before = await rollupRows(rollApp);
      const marks = () =>
        app.query<{ visitor_id: string; seen: string[] }>(
          `SELECT visitor_id::text, ARRAY(SELECT s FROM unnest(seen) AS s WHERE s LIKE 'evt+props.%' ORDER BY s) AS seen FROM analytics_visitor_days
            WHERE app_id = $1 ORDER BY day, visitor_id`,
          [rollApp],
        );
      const marksBefore = await marks();
      expect(marksBefore.some((m) => m.seen.includes('evt+props.format:Download\u001epdf'))).toBe(true);
      await app.query(`DELETE FROM analytics_daily WHERE app_id = $1 AND dimension LIKE 'evt+props.%'`, [rollApp]);
      await app.query(`UPDATE analytics_visitor_days SET seen = ARRAY(SELECT s FROM unnest(seen) AS s WHERE s NOT LIKE 'evt+props.%') WHERE app_id = $1`, [
        rollApp,
      ]);
      const runner = app.server.app.get(DataSource).createQueryRunner();
      try {
        await new AnalyticsGoalRollups1764760000000().up(runner);
      } finally {
        await runner.release();
      }
      expect(await rollupRows(rollApp)).toEqual(before);
      expect(await marks()).toEqual(marksBefore);
      // And the writer goes on from there: visitor 1's next pdf today is a completion, not a visitor.
      await write([custom(rollApp, 1, 'Download', { format: 'pdf' }, at(1))]);
      expect((await goalRowsOf(rollApp, { period: 'day', filters: 'props.format==pdf' }))[0]).toMatchObject({ goal: 'Download', visitors: 2, events: 5 });
    });
  });
});
