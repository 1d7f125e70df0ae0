import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}

/**
 * Hex SHA-256 of what makes two requests on one route the same: the canonical JSON of the body and
 * the query string (the route's path is stored beside it, without the query: it can be long).
 */
export function requestBodyHash(body: unknown, query = ''): string {
  return createHash('sha256').update(canonicalJson(body)).update('\n').update(query).digest('hex');
}

/** RFC-style key: 1–255 visible ASCII characters (a UUID is the usual choice). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
