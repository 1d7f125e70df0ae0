/** 3–40 characters, lowercase letters, digits and inner hyphens (`recipe-box`). */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
export const SLUG_MIN = 3;
export const SLUG_MAX = 40;

/**
 * The slug the API's own address keeps: the first label of PUBLIC_URL's host (`api` of
 * `https://api.example.com`), unless the host is an IP address or one label (`localhost`). Start-up
 * refuses a SITES_DOMAIN the API's host is under, so no slug can answer on the API's origin; this
 * keeps `api.<sites domain>` from posing as the API beside it, and holds should that rule ever loosen.
 */
export function apiSlugOf(publicUrl: string): string | undefined {
  const host = new URL(publicUrl).hostname.toLowerCase();
  if (host.startsWith('[') || /^[\d.]+$/.test(host) || !host.includes('.')) return undefined;
  return host.slice(0, host.indexOf('.'));
}

export function isSlug(value: string): boolean {
  return value.length >= SLUG_MIN && value.length <= SLUG_MAX && SLUG_PATTERN.test(value);
}

/**
 * A slug from an app's name: accents dropped, lowercase, anything else a hyphen, at most 40
 * characters (leaving room for a `-2` suffix); `app` padding when the name gives too little.
 */
export function slugFrom(name: string, room = 0): string {
  let slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX - room)
    .replace(/-+$/g, '');
  if (slug.length < SLUG_MIN) slug = slug ? `${slug}-app` : 'app';
  return slug;
}

/** The n-th candidate for a name whose plain slug is taken: `recipe-box-2`, `recipe-box-3`… */
export function slugCandidate(name: string, n: number): string {
  return n <= 1 ? slugFrom(name) : `${slugFrom(name, String(n).length + 1)}-${n}`;
}
