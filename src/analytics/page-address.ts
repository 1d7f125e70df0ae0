import { storableText } from './storable-text.js';

/** What analytics keeps of a page address and its referrer: no query string but the campaign tags, no full referrer URL. */
export interface PageAddress {
  pathname: string;
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
}

/** The columns' lengths, in characters. */
const MAX_PATH = 300;
const MAX_TAG = 100;
const MAX_HOST = 255;

/**
 * Reduces a page URL and its referrer to what is stored: the pathname, `utm_source` (or `ref`),
 * `utm_medium`, `utm_campaign`, and the referrer's host — unless the referrer is the site itself
 * (a click within the site is not a source). Every value is cut to its column and loses control
 * characters and lone surrogates (a `%00` in a link decodes to a NUL, which the database refuses).
 */
export function pageAddress(pathname: string, search: string, siteHost: string | undefined, referrer: string | undefined): PageAddress {
  const params = search.length > 1 ? new URLSearchParams(search) : undefined; // ('?' alone has none)
  const tag = (name: string) => (params && storableText((params.get(name) ?? '').trim(), MAX_TAG).trim()) || null;
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
  path = storableText(path, MAX_PATH);
  return path.startsWith('/') ? path : storableText(`/${path}`, MAX_PATH);
}

function referrerHostOf(referrer: string | undefined, siteHost: string | undefined): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const host = storableText(url.hostname.replace(/^www\./, ''), MAX_HOST);
    if (siteHost && host === siteHost.replace(/:\d+$/, '').replace(/^www\./, '')) return null;
    return host || null;
  } catch {
    return null;
  }
}
