import { Injectable, Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { AppsService } from '../apps/apps.service.js';
import { MetricsService, PendingCount } from '../metrics/metrics.service.js';
import { AnalyticsEvent, PAGEVIEW, SIGNUP } from './analytics-event.js';
import { AnalyticsBuffer } from './analytics-buffer.js';
import { AnalyticsInboxRepository } from './analytics-inbox.repository.js';
import { pageAddress } from './page-address.js';
import { storedProps } from './stored-props.js';
import { GeoIp } from './geoip.js';
import { VisitorIds } from './visitor-ids.service.js';
import { clientNetworkOf } from '../common/client-network.js';
import { optedOut, UserAgents, type VisitorTraits } from './visitor-traits.js';
import { WindowLimiter } from './window-limiter.js';

/** What a counted request tells: who asks (only to hash and to classify, never kept), what for and from where. */
export interface Sighting {
  appId: string;
  deploymentId?: string | null;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  /** The page's path (relative to the site) and query string (as text: parsed only when the sighting counts). */
  pathname: string;
  search: string;
  /** The host the page was served under (a referrer from it is not a source). */
  siteHost?: string;
  referrer?: string;
  screenWidth?: number;
  /** A custom event's props, as checked by CollectService (stored with e-mail-looking values redacted). */
  props?: Record<string, string>;
}

type DropReason = 'bot' | 'opted_out' | 'unknown_app' | 'rate_limited';
type Source = 'collect' | 'served_page';

/** Events one visitor (salted hash of the IP, IPv6 by /64) may have counted per app and minute: beacons and served-page views together. */
export const EVENTS_PER_VISITOR_MINUTE = 120;
/** Visitors whose minute is tracked at once, per instance (about 100 bytes each). */
const MAX_LIMITED_VISITORS = 100_000;

/** What an app id can look like (`app_01JC…`); anything else is no app, and is not looked up. */
const APP_ID = /^[A-Za-z0-9_-]{1,40}$/;
const KNOWN_APPS_TTL_MS = 60_000;
const KNOWN_APPS_MAX = 10_000;

/**
 * Turns requests into analytics events: bots and visitors who opted out (Sec-GPC, DNT) are not
 * counted; the IP and User-Agent become a daily visitor id and three labels, and are dropped.
 * A visitor's events past EVENTS_PER_VISITOR_MINUTE a minute for one app are not counted either
 * (nor billed): counted in this instance's memory, so a beacon costs no round trip. Pageviews go
 * through the buffer to the inbox; a sign-up goes to the inbox in the caller's transaction, with the user.
 */
@Injectable()
export class AnalyticsCollector {
  private readonly logger = new Logger('Analytics');
  private readonly userAgents = new UserAgents();
  private readonly knownApps = new Map<string, { exists: boolean; until: number }>();
  private readonly accepted: Counter<'source'>;
  private readonly notCounted: Counter<'reason'>;
  private readonly droppedBy: Partial<Record<DropReason, { inc(): void }>> = {};
  private readonly collectedFrom: Record<Source, PendingCount>;
  /** Per app and visitor network; its clock is `perVisitor.now`. */
  readonly perVisitor = new WindowLimiter(EVENTS_PER_VISITOR_MINUTE, 60_000, MAX_LIMITED_VISITORS);

  constructor(
    private readonly visitors: VisitorIds,
    private readonly buffer: AnalyticsBuffer,
    private readonly inbox: AnalyticsInboxRepository,
    private readonly apps: AppsService,
    private readonly geo: GeoIp,
    metrics: MetricsService,
  ) {
    const flushCollected = () => Object.values(this.collectedFrom).forEach((count) => count.flush());
    this.accepted = metrics.counter({
      name: 'analytics_events_collected_total',
      help: 'Analytics events accepted, by where they came from',
      labelNames: ['source'] as const,
      collect: flushCollected,
    });
    // Counted here and handed on in batches (and in full before a scrape): a prom-client call per beacon cost about a microsecond.
    this.collectedFrom = { collect: new PendingCount(this.accepted.labels('collect')), served_page: new PendingCount(this.accepted.labels('served_page')) };
    this.notCounted = metrics.counter({
      name: 'analytics_events_dropped_total',
      help: 'Requests not counted: bots, visitors who opted out (Sec-GPC / DNT), unknown apps, visitors over their rate limit',
      labelNames: ['reason'] as const,
    });
  }

  /**
   * A served page (deployment url, alias, public address, a site's HTML document) counts itself: no
   * script needed. Never throws. A page that does not count (opted out, a bot, a visitor over the
   * limit) costs no promise once the day's salt is loaded: sites answer many of those.
   */
  servedPage(sighting: Sighting): void {
    const occurredAt = new Date();
    const admitted = this.admit(sighting, true, occurredAt);
    if (admitted === null) return;
    const counted = Promise.resolve(admitted)
      .then((traits) => traits && this.take(sighting, PAGEVIEW, traits, occurredAt, 'served_page'))
      .catch((err: Error) => this.logger.warn(`A pageview was not counted: ${err.message}`));
    this.buffer.track(counted);
  }

  /**
   * An event posted to /collect. Unknown apps are dropped silently (the answer is the same). Once the
   * app is known and the day's salt loaded, the event is in the buffer when this returns, without a
   * promise; a promise while either is read (or while shutting down, when the buffer writes at once).
   */
  collect(sighting: Sighting, name: string): void | Promise<void> {
    const exists = this.appExists(sighting.appId);
    return typeof exists === 'boolean' ? this.collectFor(exists, sighting, name) : exists.then((known) => this.collectFor(known, sighting, name));
  }

  private collectFor(exists: boolean, sighting: Sighting, name: string): void | Promise<void> {
    if (!exists) return void this.drop('unknown_app');
    const occurredAt = new Date();
    const admitted = this.admit(sighting, true, occurredAt);
    if (admitted === null) return;
    if (admitted instanceof Promise) return admitted.then((traits) => (traits ? this.take(sighting, name, traits, occurredAt, 'collect') : undefined));
    return this.take(sighting, name, admitted, occurredAt, 'collect');
  }

  /** An admitted sighting's event, into the buffer. */
  private take(sighting: Sighting, name: string, traits: VisitorTraits, occurredAt: Date, source: Source): void | Promise<void> {
    const add = (event: AnalyticsEvent) => {
      this.collectedFrom[source].inc();
      return this.buffer.add(event);
    };
    const visitorId = this.visitors.idNow(sighting.appId, sighting.ip, userAgentOf(sighting)!, occurredAt);
    return visitorId !== undefined
      ? add(this.eventWith(sighting, name, traits, occurredAt, visitorId))
      : this.eventOf(sighting, name, traits, occurredAt).then(add);
  }

  /** A sign-up through a landing page: into the inbox in the caller's transaction (the user's), so it counts exactly once. */
  signup(sighting: Sighting): Promise<void> {
    return this.signups([sighting]);
  }

  /** Sign-ups through landing pages, as `signup`, written together (one insert into the inbox, stitched by a worker as beacons are). */
  async signups(sightings: Sighting[]): Promise<void> {
    const events: AnalyticsEvent[] = [];
    for (const sighting of sightings) {
      const event = await this.toEvent(sighting, SIGNUP, false); // the form has its own limit
      if (event) events.push(event);
    }
    await this.inbox.append(events);
  }

  private async toEvent(sighting: Sighting, name: string, limited: boolean): Promise<AnalyticsEvent | null> {
    const occurredAt = new Date();
    const traits = await this.admit(sighting, limited, occurredAt);
    return traits && this.eventOf(sighting, name, traits, occurredAt);
  }

  /**
   * Whether a request counts: not opted out, not a bot, and (when `limited`) within its visitor's
   * minute — its labels, or null (counted as dropped). A promise only while the day's salt is read.
   */
  private admit(sighting: Sighting, limited: boolean, occurredAt: Date): VisitorTraits | null | Promise<VisitorTraits | null> {
    if (optedOut(sighting.headers)) return this.drop('opted_out');
    const traits = this.userAgents.traitsOf(userAgentOf(sighting), sighting.screenWidth);
    if (!traits) return this.drop('bot');
    if (!limited) return traits;
    // Keyed by the salted hash of the network, not the address: this memory holds no IP either.
    const key = this.visitors.limitKeyOf(sighting.appId, clientNetworkOf(sighting.ip), occurredAt);
    const within = (network: number) => (this.perVisitor.hit(network) ? traits : this.drop('rate_limited'));
    return typeof key === 'number' ? within(key) : key.then(within);
  }

  private async eventOf(sighting: Sighting, name: string, traits: VisitorTraits, occurredAt: Date): Promise<AnalyticsEvent> {
    return this.eventWith(sighting, name, traits, occurredAt, await this.visitors.idOf(sighting.appId, sighting.ip, userAgentOf(sighting)!, occurredAt));
  }

  /** Every field named, in one order: events share one object shape (spreads made each a copy of changing shape, read by the inbox's writer). */
  private eventWith(sighting: Sighting, name: string, traits: VisitorTraits, occurredAt: Date, visitorId: string): AnalyticsEvent {
    const address = pageAddress(sighting.pathname, sighting.search, sighting.siteHost, sighting.referrer);
    return {
      appId: sighting.appId,
      deploymentId: sighting.deploymentId ?? null,
      occurredAt,
      visitorId,
      name,
      pathname: address.pathname,
      referrerHost: address.referrerHost,
      utmSource: address.utmSource,
      utmMedium: address.utmMedium,
      utmCampaign: address.utmCampaign,
      browser: traits.browser,
      os: traits.os,
      device: traits.device,
      country: this.geo.countryOf(sighting.ip),
      props: name === PAGEVIEW || name === SIGNUP ? null : storedProps(sighting.props),
    };
  }

  private drop(reason: DropReason): null {
    // Bound once per reason: most requests a site serves are dropped (bots, a visitor past the limit), none should pay for a label lookup.
    (this.droppedBy[reason] ??= this.notCounted.labels(reason)).inc();
    return null;
  }

  /** Whether the app exists: from memory for a minute (no promise), else asked. */
  private appExists(appId: string): boolean | Promise<boolean> {
    if (!APP_ID.test(appId)) return false;
    const now = Date.now();
    const known = this.knownApps.get(appId);
    if (known && known.until > now) return known.exists;
    return this.apps.exists(appId).then((exists) => {
      if (this.knownApps.size >= KNOWN_APPS_MAX) this.knownApps.clear();
      this.knownApps.set(appId, { exists, until: now + KNOWN_APPS_TTL_MS });
      return exists;
    });
  }
}

function userAgentOf(sighting: Sighting): string | undefined {
  const userAgent = sighting.headers['user-agent'];
  return typeof userAgent === 'string' ? userAgent : undefined;
}
