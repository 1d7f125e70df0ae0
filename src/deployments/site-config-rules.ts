import { HOP_BY_HOP_HEADERS } from '../common/http/hop-by-hop.js';
import { RequestError } from '../common/errors/request-errors.js';
import { parseFunctionsConfig } from '../functions/function-routes.js';
import { hasControlOrBackslash } from './manifest.js';
import type { SiteConfig } from './site-config.js';

export const MAX_REDIRECTS = 500;
export const MAX_HEADER_RULES = 100;
export const MAX_HEADERS_PER_RULE = 50;
const MAX_PATTERN_LENGTH = 1024;
const MAX_HEADER_VALUE_LENGTH = 4096;
const REDIRECT_STATUSES = [301, 302, 307, 308];
/** RFC 9110 field names (tokens). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** A header value: visible characters, spaces and tabs (no CR, LF, NUL or other controls). */
const HEADER_VALUE = /^[\t\u0020-\u007e\u0080-\uffff]*$/;
/** Headers a site may not set: hop-by-hop ones, and those the server owns (cookies on the sites' origins, the framing). */
export const FORBIDDEN_HEADERS = new Set([...HOP_BY_HOP_HEADERS, 'set-cookie', 'content-length', 'content-encoding']);
const PARAM = /^:[A-Za-z_][A-Za-z0-9_]*$/;

/** A deploy's `config`, checked by hand like its files: a 400 naming every problem, or the config. */
export function parseSiteConfig(value: unknown): SiteConfig {
  const problems: string[] = [];
  if (!isObject(value)) throw RequestError.invalid(['config must be an object ({ cleanUrls, spa, redirects, headers, functions })']);
  const config: SiteConfig = {};
  for (const [key, field] of Object.entries(value)) {
    switch (key) {
      case 'cleanUrls':
      case 'spa':
        if (typeof field === 'boolean') config[key] = field;
        else problems.push(`config.${key} must be true or false`);
        break;
      case 'redirects':
        config.redirects = redirectsOf(field, problems);
        break;
      case 'headers':
        config.headers = headerRulesOf(field, problems);
        break;
      case 'functions':
        config.functions = parseFunctionsConfig(field, problems);
        break;
      default:
        problems.push(`property config.${key.slice(0, 100)} should not exist`);
    }
  }
  if (problems.length > 0) throw RequestError.invalid(problems);
  return config;
}

function redirectsOf(value: unknown, problems: string[]): NonNullable<SiteConfig['redirects']> {
  return rulesOf(value, 'config.redirects', ['source', 'destination', 'status'], MAX_REDIRECTS, problems, (rule, where) => {
    const params = patternParams(rule.source, `${where}.source`, problems);
    destinationProblems(rule.destination, params, `${where}.destination`, problems);
    if (!REDIRECT_STATUSES.includes(rule.status as number)) problems.push(`${where}.status must be one of 301, 302, 307, 308`);
    return { source: rule.source as string, destination: rule.destination as string, status: rule.status as 301 | 302 | 307 | 308 };
  });
}

function headerRulesOf(value: unknown, problems: string[]): NonNullable<SiteConfig['headers']> {
  return rulesOf(value, 'config.headers', ['source', 'headers'], MAX_HEADER_RULES, problems, (rule, where) => {
    patternParams(rule.source, `${where}.source`, problems);
    if (!isObject(rule.headers)) {
      problems.push(`${where}.headers must be an object of header names to values`);
      return undefined;
    }
    const entries = Object.entries(rule.headers);
    if (entries.length > MAX_HEADERS_PER_RULE) problems.push(`${where}.headers has ${entries.length} headers; at most ${MAX_HEADERS_PER_RULE}`);
    else for (const [name, headerValue] of entries) headerProblems(name, headerValue, `${where}.headers[${JSON.stringify(name.slice(0, 100))}]`, problems);
    return { source: rule.source as string, headers: rule.headers as Record<string, string> };
  });
}

/** An array of at most `max` rule objects with exactly these keys, each checked by `check` (undefined: not kept). */
function rulesOf<T>(
  value: unknown,
  where: string,
  keys: string[],
  max: number,
  problems: string[],
  check: (rule: Record<string, unknown>, where: string) => T | undefined,
): T[] {
  const shape = `{ ${keys.join(', ')} }`;
  if (!Array.isArray(value)) {
    problems.push(`${where} must be an array of ${shape}`);
    return [];
  }
  if (value.length > max) {
    problems.push(`${where} has ${value.length} rules; at most ${max}`);
    return [];
  }
  return value.flatMap((rule: unknown, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(rule)) {
      problems.push(`${at} must be an object ${shape}`);
      return [];
    }
    if (!onlyKeys(rule, keys, at, problems)) return [];
    const checked = check(rule, at);
    return checked === undefined ? [] : [checked];
  });
}

function headerProblems(name: string, value: unknown, where: string, problems: string[]): void {
  if (!HEADER_NAME.test(name)) problems.push(`${where}: not a valid header name`);
  else if (FORBIDDEN_HEADERS.has(name.toLowerCase())) {
    problems.push(
      `${where}: ${name} cannot be set by a site (hop-by-hop, Set-Cookie, Content-Length, Content-Encoding and Transfer-Encoding are the server's)`,
    );
  }
  if (typeof value !== 'string' || value.length > MAX_HEADER_VALUE_LENGTH || !HEADER_VALUE.test(value)) {
    problems.push(`${where} must be a string of at most ${MAX_HEADER_VALUE_LENGTH} characters without line breaks or control characters`);
  }
}

/**
 * Checks a source pattern (`/blog/:slug`, `/assets/*`): a path of literal segments and `:name`
 * segments, `*` only as the last one. Answers its parameter names (`*` included when it has one).
 */
function patternParams(value: unknown, where: string, problems: string[]): Set<string> {
  const params = new Set<string>();
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > MAX_PATTERN_LENGTH || hasControlOrBackslash(value)) {
    problems.push(`${where} must be a path starting with / (at most ${MAX_PATTERN_LENGTH} characters, no backslash or control character)`);
    return params;
  }
  const segments = value.slice(1).split('/');
  segments.forEach((segment, i) => {
    if (segment === '*') {
      if (i !== segments.length - 1) problems.push(`${where}: * may only be the last segment`);
      params.add('*');
    } else if (segment.startsWith(':')) {
      if (!PARAM.test(segment)) problems.push(`${where}: ${JSON.stringify(segment.slice(0, 100))} is not a parameter (:name, letters, digits and _)`);
      else if (params.has(segment.slice(1))) problems.push(`${where}: ${segment} appears twice`);
      else params.add(segment.slice(1));
    } else if (segment.includes('*') || segment.includes(':')) {
      problems.push(`${where}: * and : are only allowed as whole segments (:name, a final *)`);
    }
  });
  return params;
}

/** A destination: a path, or an http(s) URL, using only the parameters its source has. */
function destinationProblems(value: unknown, params: Set<string>, where: string, problems: string[]): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PATTERN_LENGTH || hasControlOrBackslash(value)) {
    problems.push(`${where} must be a path or an http(s) URL (at most ${MAX_PATTERN_LENGTH} characters, no backslash or control character)`);
    return;
  }
  const isPath = value.startsWith('/') && !value.startsWith('//');
  if (!isPath && !/^https?:\/\/[^/?#]+/i.test(value)) {
    problems.push(`${where} must start with / (a path of this site) or http(s):// (another site)`);
    return;
  }
  for (const match of value.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)|\*/g)) {
    // (`https://…:8080` is a port: a parameter name starts with a letter or _.)
    const name = match[0] === '*' ? '*' : match[1];
    if (!params.has(name)) problems.push(`${where} uses ${match[0]}, which its source does not have`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: string[], where: string, problems: string[]): boolean {
  const extra = Object.keys(value).filter((k) => !allowed.includes(k));
  for (const key of extra) problems.push(`property ${where}.${key.slice(0, 100)} should not exist`);
  return extra.length === 0;
}
