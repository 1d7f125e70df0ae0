import { HOP_BY_HOP_HEADERS } from '../common/http/hop-by-hop.js';

/**
 * The headers between a visitor and a function, both ways: hop-by-hop ones (RFC 9110 §7.6.1, and any the
 * Connection header names) and the platform's own are dropped; everything else, Set-Cookie included (the origin is
 * the app's own), passes as sent, repeated headers kept.
 */
const HOP_BY_HOP = new Set(HOP_BY_HOP_HEADERS);

/** Set by the platform (or by proxies in front of it) about the request: a visitor's copy is never believed. */
const PLATFORM_REQUEST = new Set(['x-real-ip', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-request-id']);

/** Set by the platform on every answer. */
const PLATFORM_RESPONSE = new Set(['x-request-id']);

/** Header pairs as Node gives them (`rawHeaders`: name, value, name, value…). */
export type RawHeaders = readonly string[];

function pairs(raw: RawHeaders): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
}

/** The pairs without hop-by-hop headers, those the Connection header names, `x-platform-*` and `platform`'s. */
export function kept(raw: RawHeaders, platform: ReadonlySet<string>): Array<[string, string]> {
  const all = pairs(raw);
  const named = new Set(
    all
      .filter(([name]) => name.toLowerCase() === 'connection')
      .flatMap(([, value]) => value.split(','))
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
  return all.filter(([name]) => {
    const lower = name.toLowerCase();
    return !HOP_BY_HOP.has(lower) && !named.has(lower) && !platform.has(lower) && !lower.startsWith('x-platform-');
  });
}

/** What the function sees: the visitor's headers without hop-by-hop and platform ones, and `x-real-ip`. */
export function toFunctionHeaders(raw: RawHeaders, clientIp: string): Array<[string, string]> {
  return [...kept(raw, PLATFORM_REQUEST), ['x-real-ip', clientIp]];
}

/** What the visitor gets of the function's answer. */
export function toVisitorHeaders(raw: RawHeaders): Array<[string, string]> {
  return kept(raw, PLATFORM_RESPONSE);
}

/** Header pairs as the flat list Node's `writeHead` and `request` take. */
export function flat(headers: ReadonlyArray<readonly [string, string]>): string[] {
  return headers.flat();
}
