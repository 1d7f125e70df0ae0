/** 3–40 characters, lowercase letters, digits and inner hyphens (`recipe-box`). */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
export const SLUG_MIN = 3;
export const SLUG_MAX = 40;

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
