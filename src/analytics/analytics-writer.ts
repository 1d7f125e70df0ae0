import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Meters } from '../billing/meters.js';
import { Transactions } from '../database/transactions.js';
import { AnalyticsEvent, PAGEVIEW, SIGNUP, Visit, VISIT_GAP_MS } from './analytics-event.js';
import { AnalyticsEventsRepository, VisitorDay } from './analytics-events.repository.js';
import { eventDimensions, TOTAL, visitDimensions } from './dimensions.js';
import { OTHER, RollupCardinality } from './rollup-cardinality.js';
import { RollupDeltas } from './rollup-deltas.js';
import { utcDay } from './visitor-ids.service.js';

/** Dimensions fixed for a visitor's day (they come from the User-Agent and the IP, which are hashed into the visitor id). */
const VISITOR_INVARIANT = new Set(['browser', 'os', 'device', 'country']);

/**
 * Writes a batch of events in one transaction (the caller's, if there is one): the raw rows, the
 * visits they open or continue, and what they add to the daily rollups — so the rollups are exact
 * and always agree with the raw rows. `visitors` stays exact under upserts because each visitor's
 * day is recorded once, with the breakdown values it was counted under (analytics_visitor_days);
 * it needs no more than a day of those, as visitor ids change daily. Breakdown values past a
 * property's daily cap are folded into `(other)` (RollupCardinality) before anything is recorded
 * or added, so `(other)` counts its visitors exactly too. A custom event also counts under each of its props
 * with its name (the internal `evt+props.<key>` rows, dimensions.ts), which answer goals with a props filter
 * from the rollups: a pair more per prop, in the same upsert and the same seen marks, no query more.
 */
@Injectable()
export class AnalyticsWriter {
  constructor(
    private readonly db: Transactions,
    private readonly repository: AnalyticsEventsRepository,
    private readonly meters: Meters,
    private readonly cardinality: RollupCardinality,
  ) {}

  /** Answers how many events were written (those of deleted apps are not). */
  write(batch: AnalyticsEvent[]): Promise<number> {
    if (batch.length === 0) return Promise.resolve(0);
    return this.db.run(async () => {
      const live = await this.repository.lockApps([...new Set(batch.map((e) => e.appId))]);
      const events = batch.filter((e) => live.has(e.appId)).sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
      if (events.length === 0) return 0;

      // Each event's day, and its visitor's keys (by app and visitor; by app, visitor and day), made once.
      const days = events.map((e) => utcDay(e.occurredAt));
      const visitorKeys = events.map((e) => `${e.appId}\u0000${e.visitorId}`);
      const dayKeys = events.map((_, i) => `${visitorKeys[i]}\u0000${days[i]}`);

      // A visitor without a row for the day has no visit that day either (its first pageview or custom event writes the row; a pageview, the visit).
      const known = new Map<string, string[]>();
      for (const row of await this.repository.visitorDaysOf(uniqueDays(events, days, dayKeys)))
        known.set(dayKeyOf(row.appId, row.visitorId, row.day), row.seen);
      const visits = await this.latestVisits(events.filter((_, i) => known.has(dayKeys[i])));
      /** The visits this batch touches, and of those the ones it begins (inserted; the others are updated). */
      const touched = new Set<Visit>();
      const begun = new Set<Visit>();
      let rollups = new RollupDeltas();
      /** By visitor day: the breakdown values its pageviews count visitors under (folded below), and the day's browser, OS and device. */
      const visitorDays = new Map<
        string,
        { appId: string; day: string; visitorId: string; pairs: Array<readonly [string, string]>; invariant: Array<readonly [string, string]> }
      >();
      for (let i = 0; i < events.length; i++) {
        const event = events[i];
        const key = visitorKeys[i];
        const day = days[i];
        let visit = visits.get(key);
        const continues = visit !== undefined && continuesVisit(visit, event, day);
        if (event.name === PAGEVIEW) {
          if (!visit || !continues) {
            visit = startVisit(event);
            visits.set(key, visit);
            begun.add(visit);
            rollups.add(event.appId, day, visitDimensions(visit), { visits: 1, bounces: 1 });
          } else {
            rollups.add(event.appId, utcDay(visit.startedAt), visitDimensions(visit), {
              bounces: visit.pageviews === 1 ? -1 : 0,
              visitMs: event.occurredAt.getTime() - visit.lastSeenAt.getTime(),
            });
            visit.pageviews += 1;
            visit.lastSeenAt = event.occurredAt;
          }
          touched.add(visit);
        }
        // A visit is credited to where it came from: every event of it carries the entry's source (a visit's first pageview is its entry).
        if (visit && continues) creditToEntry(event, visit);
        const pairs = eventDimensions(event);
        if (event.name === SIGNUP) {
          rollups.add(event.appId, day, pairs, { signups: 1 });
          continue;
        }
        // A custom event counts as an event (under its name and props too), and its visitor as one, but opens no visit.
        rollups.add(event.appId, day, pairs, event.name === PAGEVIEW ? { pageviews: 1 } : { events: 1 });
        const dayKey = dayKeys[i];
        let visitorDay = visitorDays.get(dayKey);
        if (!visitorDay) {
          visitorDay = { appId: event.appId, day, visitorId: event.visitorId, pairs: [], invariant: [] };
          visitorDays.set(dayKey, visitorDay);
        }
        // The totals and the browser, OS and device count the visitor once a day (those come from the User-Agent, part of the id).
        visitorDay.invariant = pairs.filter(([dimension]) => VISITOR_INVARIANT.has(dimension));
        for (const pair of pairs) if (pair[0] !== TOTAL[0] && !VISITOR_INVARIANT.has(pair[0])) visitorDay.pairs.push(pair);
      }

      // Raw rows keep every value; the rollups keep each property's first values of the day, the rest as `(other)`.
      const fold = await this.cardinality.fold(rollups.list());
      rollups = rollups.folded(fold);
      const newDays: VisitorDay[] = [];
      const changedDays: VisitorDay[] = [];
      for (const [dayKey, { appId, day, visitorId, pairs, invariant }] of visitorDays) {
        const before = known.get(dayKey);
        if (!before) {
          // Browser, OS and device: never a props key, so never left out.
          const folded = invariant.map(([dimension, value]) => [dimension, fold(appId, day, dimension, value) ?? OTHER] as const);
          rollups.add(appId, day, [TOTAL, ...folded], { visitors: 1 });
        }
        const seen = new Set(before);
        const seenBefore = seen.size;
        for (const [dimension, value] of pairs) {
          const folded = fold(appId, day, dimension, value);
          if (folded === null) continue;
          const mark = `${dimension}:${folded}`;
          if (seen.has(mark)) continue;
          seen.add(mark);
          rollups.add(appId, day, [[dimension, folded]], { visitors: 1 });
        }
        if (!before) newDays.push({ appId, day, visitorId, seen: [...seen] });
        else if (seen.size > seenBefore) changedDays.push({ appId, day, visitorId, seen: [...seen] });
      }

      await this.repository.insertEvents(events);
      const written = [...touched];
      await this.repository.insertVisits(written.filter((visit) => begun.has(visit)));
      await this.repository.updateVisits(written.filter((visit) => !begun.has(visit)));
      await this.repository.insertVisitorDays(newDays);
      await this.repository.updateVisitorDays(changedDays);
      await this.repository.addToRollups(rollups.list());
      // The analytics.events meter, per account, in the batch's transaction.
      const perAccount = new Map<string, number>();
      for (const event of events) perAccount.set(live.get(event.appId)!, (perAccount.get(live.get(event.appId)!) ?? 0) + 1);
      const batchId = randomUUID();
      for (const [accountId, count] of perAccount) await this.meters.record(accountId, 'analytics.events', count, `ae:${batchId}:${accountId}`);
      return events.length;
    });
  }

  /** The latest visit of each visitor of the batch begun since the batch's first day (a visit never spans two UTC days: the ids differ). */
  private async latestVisits(events: AnalyticsEvent[]): Promise<Map<string, Visit>> {
    if (events.length === 0) return new Map();
    const pairs = new Map<string, { appId: string; visitorId: string }>();
    for (const e of events) pairs.set(`${e.appId}\u0000${e.visitorId}`, { appId: e.appId, visitorId: e.visitorId });
    const since = new Date(utcDay(events[0].occurredAt));
    const visits = new Map<string, Visit>();
    for (const visit of await this.repository.latestVisits([...pairs.values()], since)) visits.set(`${visit.appId}\u0000${visit.visitorId}`, visit);
    return visits;
  }
}

/** An app's visitor on a day: the key of the day's row (and of `visitorDays`). */
function dayKeyOf(appId: string, visitorId: string, day: string): string {
  return `${appId}\u0000${visitorId}\u0000${day}`;
}

/** The (app, day, visitor) of each event, once (`days` and `dayKeys` are the events' own, by index). */
function uniqueDays(events: AnalyticsEvent[], days: string[], dayKeys: string[]): Array<Omit<VisitorDay, 'seen'>> {
  const unique = new Map<string, Omit<VisitorDay, 'seen'>>();
  for (let i = 0; i < events.length; i++) unique.set(dayKeys[i], { appId: events[i].appId, day: days[i], visitorId: events[i].visitorId });
  return [...unique.values()];
}

/** Whether `event` (on `day`) continues `visit`: within the gap, on the day the visit began. */
function continuesVisit(visit: Visit, event: AnalyticsEvent, day: string): boolean {
  return event.occurredAt.getTime() - visit.lastSeenAt.getTime() <= VISIT_GAP_MS && utcDay(visit.startedAt) === day;
}

function startVisit(event: AnalyticsEvent): Visit {
  return {
    appId: event.appId,
    visitorId: event.visitorId,
    startedAt: event.occurredAt,
    lastSeenAt: event.occurredAt,
    pageviews: 1,
    entryPage: event.pathname,
    deploymentId: event.deploymentId,
    referrerHost: event.referrerHost,
    utmSource: event.utmSource,
    utmMedium: event.utmMedium,
    utmCampaign: event.utmCampaign,
    browser: event.browser,
    os: event.os,
    device: event.device,
    country: event.country,
  };
}

/** The event takes its visit's source (the entry's referrer and campaign). */
function creditToEntry(event: AnalyticsEvent, visit: Visit): void {
  event.referrerHost = visit.referrerHost;
  event.utmSource = visit.utmSource;
  event.utmMedium = visit.utmMedium;
  event.utmCampaign = visit.utmCampaign;
}
