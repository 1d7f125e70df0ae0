/** What analytics keeps of a page address and its referrer: no query string but the campaign tags, no full referrer URL. */
export interface PageAddress {
  pathname: string;
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
}

const MAX_PATH = 300;

/**
 * Reduces a page URL and its referrer to what is stored: the pathname, `utm_source` (or `ref`),
 * `utm_medium`, `utm_campaign`, and the referrer's host — unless the referrer is the site itself
 * (a click within the site is not a source).
 */
export function pageAddress(pathname: string, search: URLSearchParams, siteHost: string | undefined, referrer: string | undefined): PageAddress {
  const tag = (name: string) => search.get(name)?.trim().slice(0, 100) || null;
  return {
    pathname: normalisePath(pathname),
    referrerHost: referrerHostOf(referrer, siteHost),
    utmSource: tag('utm_source') ?? tag('ref'),
    utmMedium: tag('utm_medium'),
    utmCampaign: tag('utm_campaign'),
  };
}

function normalisePath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // keep it as sent
  }
  if (!path.startsWith('/')) path = `/${path}`;
  return path.slice(0, MAX_PATH);
}

function referrerHostOf(referrer: string | undefined, siteHost: string | undefined): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const host = url.hostname.replace(/^www\./, '').slice(0, 255);
    if (siteHost && host === siteHost.replace(/:\d+$/, '').replace(/^www\./, '')) return null;
    return host || null;
  } catch {
    return null;
  }
}
