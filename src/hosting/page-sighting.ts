import type { IncomingHttpHeaders } from 'node:http';
import type { Sighting } from '../analytics/analytics-collector.js';
import type { ServedSite } from './served-site.js';
import type { SitePath } from './site-paths.js';

/** What a site's answer knows of its request, enough for analytics (a file's, a landing page's, a function's). */
export interface PageSeen {
  request: { headers: IncomingHttpHeaders };
  site: ServedSite;
  path: SitePath;
  /** The client's address, worked out only when analytics asks. */
  ip: () => string;
}

/** What analytics may read of a request (it keeps none of it but a daily visitor id and labels). */
export function sightingOf(seen: PageSeen): Sighting {
  const { request, site, path } = seen;
  return {
    appId: site.deployment.appId,
    deploymentId: site.deployment.id,
    ip: seen.ip(),
    headers: request.headers,
    pathname: path.path,
    search: path.search, // parsed only for a view that counts
    siteHost: request.headers.host,
    referrer: request.headers.referer,
  };
}

/**
 * A navigation to the document, not a script's fetch of it or a prefetch: browsers say so in their
 * fetch metadata — `Sec-Fetch-Mode: navigate` (also when a service worker forwards the navigation, with
 * `Sec-Fetch-Dest: empty`), or `Sec-Fetch-Dest: document`/`iframe` — and Sec-Purpose; a client that
 * sends none of it is taken at its word.
 */
export function isDocumentRequest(request: { headers: IncomingHttpHeaders }): boolean {
  const { 'sec-fetch-mode': mode, 'sec-fetch-dest': dest } = request.headers;
  const purpose = request.headers['sec-purpose'] ?? request.headers.purpose;
  if (typeof purpose === 'string' && purpose.includes('prefetch')) return false;
  if (mode === undefined && dest === undefined) return true;
  return mode === 'navigate' || dest === 'document' || dest === 'iframe';
}
