import { UNKNOWN_COUNTRY } from './geoip.js';

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** `DE` → `Germany`; `(unknown)` → `Unknown`; a code Intl does not know stays as it is. */
export function countryName(code: string): string {
  if (code === UNKNOWN_COUNTRY) return 'Unknown';
  try {
    return REGIONS.of(code) ?? code;
  } catch {
    return code; // not a region code at all (RangeError)
  }
}
