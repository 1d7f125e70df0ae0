import type { PageAddress } from './page-address.js';
import type { VisitorTraits } from './visitor-traits.js';

/** `pageview` and `signup` are counted as such; any other name is a custom event (the `events` metric). */
export const PAGEVIEW = 'pageview';
export const SIGNUP = 'signup';

/** One counted event as stored: the pseudonymous visitor id and coarse labels, nothing that identifies a person. */
export interface AnalyticsEvent extends PageAddress, VisitorTraits {
  appId: string;
  deploymentId: string | null;
  occurredAt: Date;
  /** 64 bits of HMAC(daily salt, app ‖ IP ‖ User-Agent), as a signed decimal (a PostgreSQL bigint). */
  visitorId: string;
  name: string;
  /** ISO 3166-1 alpha-2, looked up from the IP when collected (GeoIp); null when the address is in no known range. */
  country: string | null;
  /** A custom event's props as JSON text (e-mail-looking values redacted, see stored-props.ts), else null. */
  props: string | null;
}

/** A visit: one visitor's pageviews on one app with no gap of 30 minutes, described by how it began. */
export interface Visit extends Omit<AnalyticsEvent, 'name' | 'occurredAt' | 'pathname' | 'props'> {
  startedAt: Date;
  lastSeenAt: Date;
  pageviews: number;
  entryPage: string;
}

export const VISIT_GAP_MS = 30 * 60_000;
