import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { AnalyticsEventsRepository } from '../../src/analytics/analytics-events.repository.js';
import { AnalyticsInboxRepository } from '../../src/analytics/analytics-inbox.repository.js';
import { AnalyticsStitcher, STITCH_BATCH } from '../../src/analytics/analytics-stitcher.js';
import { AnalyticsModule } from '../../src/analytics/analytics.module.js';
import { AppsService } from '../../src/apps/apps.service.js';
import { operatorActor } from '../../src/common/request-context/actor.js';
import { EventsModule } from '../../src/events/events.module.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { pageview } from '../support/analytics-events.js';
import { target } from '../support/fresh-database.js';
import { startTestModule, TestModule } from '../support/test-module.js';

/** The analytics inbox: the API appends, a worker stitches (events, visits, rollups) in the transaction that empties it. */
describe(`the analytics stitcher, on the database (${target})`, () => {
  let t: TestModule;
  let inbox: AnalyticsInboxRepository;
  let stitcher: AnalyticsStitcher;

  beforeAll(async () => {
    t = await startTestModule({ imports: [EventsModule, AnalyticsModule] });
    inbox = t.get(AnalyticsInboxRepository);
    stitcher = t.get(AnalyticsStitcher);
  });
  afterAll(() => t?.close());

  const newAppOf = async () => {
    const account = await t.get(AccountsService).create(`dev-${randomBytes(4).toString('hex')}@example.com`);
    return { accountId: account.id, appId: (await t.get(AppsService).create(account.id, { name: 'Stitched' })).appId };
  };
  const newApp = async () => (await newAppOf()).appId;
  const count = async (sql: string, params: unknown[]) => (await t.query<{ n: number }>(sql, params))[0].n;
  const inboxOf = (appId: string) => count(`SELECT count(*)::int AS n FROM analytics_inbox WHERE app_id = $1`, [appId]);
  const eventsOf = (appId: string) => count(`SELECT count(*)::int AS n FROM analytics_events WHERE app_id = $1`, [appId]);
  const totalOf = async (appId: string) =>
    (
      await t.query<{ visitors: number; pageviews: number; visits: number; signups: number }>(
        `SELECT visitors, pageviews, visits, signups FROM analytics_daily WHERE app_id = $1 AND dimension = '' AND value = ''`,
        [appId],
      )
    )[0];
  /** Minutes into today (UTC): a test's visits never straddle midnight, whenever it runs. */
  const today = (minutes: number) => new Date(Date.parse(new Date().toISOString().slice(0, 10)) + minutes * 60_000);
  const setAside = async () =>
    Number(/^batch_rows_set_aside_total\{writer="analytics-stitch"\} (\d+)$/m.exec(await t.get(MetricsService).registry.metrics())?.[1] ?? NaN);

  it('stitches what waits in the inbox into events, visits and rollups, and empties it', async () => {
    const appId = await newApp();
    const at = (minute: number) => today(minute + 1);
    await inbox.append([
      pageview({ appId, visitor: 1, pathname: '/', at: at(0) }),
      pageview({ appId, visitor: 1, pathname: '/pricing', at: at(1) }),
      pageview({ appId, visitor: 2, pathname: '/', at: at(2) }),
      pageview({ appId, visitor: 2, pathname: '/', at: at(3), name: 'signup' }),
    ]);
    expect(await inboxOf(appId)).toBe(4);
    // The backlog gauges read the inbox at each scrape: 4 events, the oldest at least as old as its time.
    const gauges = async () => {
      const text = await t.get(MetricsService).registry.metrics();
      return { events: Number(/^analytics_inbox_events (\S+)$/m.exec(text)?.[1]), oldest: Number(/^analytics_inbox_oldest_seconds (\S+)$/m.exec(text)?.[1]) };
    };
    const waiting = await gauges();
    expect(waiting.events).toBe(4);
    expect(waiting.oldest).toBeGreaterThanOrEqual(Math.floor((Date.now() - at(0).getTime()) / 1000) - 1);
    await stitcher.stitchNow();
    expect(await inboxOf(appId)).toBe(0);
    expect(await gauges()).toEqual({ events: 0, oldest: 0 });
    expect(await eventsOf(appId)).toBe(4);
    expect(
      await t.query(`SELECT visitor_id::text AS visitor, pageviews, entry_page FROM analytics_visits WHERE app_id = $1 ORDER BY visitor_id`, [appId]),
    ).toEqual([
      { visitor: '1', pageviews: 2, entry_page: '/' },
      { visitor: '2', pageviews: 1, entry_page: '/' },
    ]);
    expect(await totalOf(appId)).toEqual({ visitors: 2, pageviews: 3, visits: 2, signups: 1 });
  });

  it('leaves the inbox as it was when a stitch fails midway, and counts each event once when it is stitched again', async () => {
    const appId = await newApp();
    await inbox.append([1, 2, 3].map((visitor) => pageview({ appId, visitor, pathname: `/p${visitor}`, at: today(visitor) })));
    const events = t.get(AnalyticsEventsRepository);
    // The connection lost after the events and visits were written, before the rollups: no SQLSTATE, not the rows' fault.
    events.addToRollups = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    try {
      await stitcher.stitchNow();
    } finally {
      delete (events as Partial<AnalyticsEventsRepository>).addToRollups; // the prototype's again
    }
    expect(await inboxOf(appId)).toBe(3);
    expect(await eventsOf(appId)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM analytics_visits WHERE app_id = $1`, [appId])).toBe(0);
    expect(await totalOf(appId)).toBeUndefined();

    await stitcher.stitchNow();
    expect(await inboxOf(appId)).toBe(0);
    expect(await eventsOf(appId)).toBe(3);
    expect(await totalOf(appId)).toEqual({ visitors: 3, pageviews: 3, visits: 3, signups: 0 });
  });

  it('sets aside an inbox row the events table refuses (no partition for its time), stitches the rest and deletes both', async () => {
    const appId = await newApp();
    const before = await setAside();
    await inbox.append([
      pageview({ appId, visitor: 1, pathname: '/before', at: today(1) }),
      pageview({ appId, visitor: 2, pathname: '/ancient', at: new Date('2001-01-01T00:00:00Z') }),
      pageview({ appId, visitor: 3, pathname: '/after', at: today(2) }),
    ]);
    await stitcher.stitchNow();
    expect(await setAside()).toBe(before + 1);
    expect(await inboxOf(appId)).toBe(0);
    expect(await t.query(`SELECT pathname FROM analytics_events WHERE app_id = $1 ORDER BY pathname`, [appId])).toEqual([
      { pathname: '/after' },
      { pathname: '/before' },
    ]);
    expect(await totalOf(appId)).toEqual({ visitors: 2, pageviews: 2, visits: 2, signups: 0 });
  });

  it('stitches each row once when stitchers run at the same time, over several batches', async () => {
    const appId = await newApp();
    const n = STITCH_BATCH * 2 + 500;
    const base = today(1).getTime();
    // 50 visitors, each seen on 50 pages a second apart: one visit each, however the batches fall.
    await inbox.append(
      Array.from({ length: n }, (_, i) => pageview({ appId, visitor: 1 + (i % 50), pathname: `/p${i % 7}`, at: new Date(base + Math.floor(i / 50) * 1000) })),
    );
    // In the test module each call runs at once (no timer, no "one run at a time" in this process): four drains race.
    await Promise.all([stitcher.stitchNow(), stitcher.stitchNow()]);
    await stitcher.stitchNow(); // whatever a drain that found the lock taken left
    expect(await inboxOf(appId)).toBe(0);
    expect(await eventsOf(appId)).toBe(n);
    expect(await totalOf(appId)).toEqual({ visitors: 50, pageviews: n, visits: 50, signups: 0 });
    expect(await count(`SELECT sum(pageviews)::int AS n FROM analytics_visits WHERE app_id = $1`, [appId])).toBe(n);
  });

  it('counts a visitor once a day in the totals and once under each value, across batches', async () => {
    const appId = await newApp();
    const at = (minute: number) => today(minute + 1);
    const visitorsBy = async () =>
      Object.fromEntries(
        (
          await t.query<{ row: string; visitors: number; pageviews: number }>(
            `SELECT dimension || '=' || value AS row, visitors, pageviews FROM analytics_daily
              WHERE app_id = $1 AND dimension IN ('', 'page', 'browser') ORDER BY 1`,
            [appId],
          )
        ).map(({ row, visitors, pageviews }) => [row, [visitors, pageviews]]),
      );
    await inbox.append([pageview({ appId, visitor: 1, pathname: '/', at: at(0) })]);
    await stitcher.stitchNow();
    // The same visitor again (a page they saw, one they did not, one with a colon), and a new one, in later batches.
    await inbox.append([
      pageview({ appId, visitor: 1, pathname: '/', at: at(1) }),
      pageview({ appId, visitor: 1, pathname: '/a:b', at: at(2) }),
      pageview({ appId, visitor: 2, pathname: '/a:b', at: at(3) }),
    ]);
    await stitcher.stitchNow();
    await inbox.append([pageview({ appId, visitor: 1, pathname: '/a:b', at: at(4) })]);
    await stitcher.stitchNow();
    expect(await visitorsBy()).toEqual({
      '=': [2, 5],
      'browser=Firefox': [2, 5],
      'page=/': [1, 2],
      'page=/a:b': [2, 3],
    });
    // One row per visitor and day, holding the values it was counted under.
    expect(await t.query(`SELECT visitor_id::text AS visitor, seen FROM analytics_visitor_days WHERE app_id = $1 ORDER BY visitor_id`, [appId])).toEqual([
      { visitor: '1', seen: expect.arrayContaining(['page:/', 'page:/a:b', 'referrer:Direct / None', 'source:Direct / None']) },
      { visitor: '2', seen: expect.arrayContaining(['page:/a:b', 'referrer:Direct / None', 'source:Direct / None']) },
    ]);
  });

  describe('an app deleted while its events are stitched', () => {
    const operator = operatorActor(null);
    /** Every analytics row of the app (they hold no foreign key: the app's erasure deletes them). */
    const rowsOf = (appId: string) =>
      count(
        `SELECT ((SELECT count(*) FROM analytics_events WHERE app_id = $1) + (SELECT count(*) FROM analytics_visits WHERE app_id = $1)
               + (SELECT count(*) FROM analytics_visitor_days WHERE app_id = $1) + (SELECT count(*) FROM analytics_daily WHERE app_id = $1))::int AS n`,
        [appId],
      );
    /** Makes the next call of `method` wait, once it has done its work, until the returned `release` is called. */
    const pauseAfter = (method: 'lockApps' | 'eraseApp') => {
      const repository = t.get(AnalyticsEventsRepository) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const original = repository[method];
      let release!: () => void;
      let reached!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const done = new Promise<void>((resolve) => (reached = resolve));
      repository[method] = async function (this: unknown, ...args: unknown[]) {
        repository[method] = original; // once
        const result = await original.apply(this, args);
        reached();
        await released;
        return result;
      };
      return { done, release };
    };

    /**
     * On PostgreSQL, until another transaction waits for an advisory lock (the app's analytics lock) in this database:
     * the interleaving under test has begun. The embedded database has one connection, so there the second transaction
     * cannot begin until the first ends (and a query here would wait behind it too): nothing to wait for.
     */
    const untilWaitingForTheLock = async () => {
      if (target !== 'postgres') return;
      const waiting = () =>
        count(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          [],
        );
      for (const started = Date.now(); (await waiting()) === 0;) {
        if (Date.now() - started > 10_000) throw new Error('nobody waited for the analytics lock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };

    it('leaves none of its rows when the deletion comes while a stitcher writes it', async () => {
      const { accountId, appId } = await newAppOf();
      await inbox.append([pageview({ appId, visitor: 1, pathname: '/', at: today(1) })]);
      const stitching = pauseAfter('lockApps'); // the stitcher has the app's lock and has found it
      const stitched = stitcher.stitchNow();
      await stitching.done;
      const deleted = t.get(AppsService).delete(accountId, operator, appId); // waits for the stitcher's lock (or connection)
      await untilWaitingForTheLock();
      stitching.release();
      await Promise.all([stitched, deleted]);
      expect(await rowsOf(appId)).toBe(0);
      expect(await inboxOf(appId)).toBe(0);
    });

    it('writes none of its rows when a stitcher comes while the deletion erases it', async () => {
      const { accountId, appId } = await newAppOf();
      await inbox.append([pageview({ appId, visitor: 1, pathname: '/', at: today(1) })]);
      const erasing = pauseAfter('eraseApp'); // the deletion holds the app's lock, its rows erased, the app not yet deleted
      const deleted = t.get(AppsService).delete(accountId, operator, appId);
      await erasing.done;
      const stitched = stitcher.stitchNow(); // waits for the deletion's lock (or connection), then finds the app gone
      await untilWaitingForTheLock();
      erasing.release();
      await Promise.all([deleted, stitched]);
      expect(await rowsOf(appId)).toBe(0);
      expect(await inboxOf(appId)).toBe(0); // dropped, not kept for later
    });
  });
});
