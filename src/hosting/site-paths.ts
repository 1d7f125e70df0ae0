/**
 * The path of a request to a site, read once: split on `/`, each segment percent-decoded once.
 * `segments` are the raw (still encoded) segments, for redirects that copy them into a Location.
 */
export interface SitePath {
  /** Decoded: the key looked up in the deployment's manifest. */
  path: string;
  raw: string;
  /** The query string with its `?`, or ''. */
  search: string;
}

export type SitePathProblem = 'bad_request' | 'not_found';

/**
 * Reads the path of a request target. A bundle's files are a map from path to hash, so no request
 * path ever reaches a disk; still, anything that would mean something else on a disk or to a proxy is
 * refused rather than interpreted: a malformed escape, a backslash, a NUL or other control character
 * (400); `.` or `..` segments (also as `%2e%2e`) and an encoded `/` (`%2f`) (404).
 */
export function readSitePath(url: string): SitePath | SitePathProblem {
  if (url.charCodeAt(0) !== 47 /* / */) return 'bad_request'; // absolute-form targets and `*`
  const query = url.indexOf('?');
  const raw = query < 0 ? url : url.slice(0, query);
  const search = query < 0 ? '' : url.slice(query);
  // The common case, nothing to decode: only checked.
  if (!raw.includes('%')) {
    if (!PLAIN_PATH.test(raw)) return problemOf(raw);
    return { path: raw, raw, search };
  }
  const parts = raw.split('/');
  for (let i = 1; i < parts.length; i++) {
    let segment: string;
    try {
      segment = decodeURIComponent(parts[i]);
    } catch {
      return 'bad_request';
    }
    if (segment.includes('/')) return 'not_found';
    parts[i] = segment;
  }
  const path = parts.join('/');
  if (!PLAIN_PATH.test(path)) return problemOf(path);
  return { path, raw, search };
}

/** No control character or backslash anywhere, no `.`/`..` segment. */
const PLAIN_PATH = /^(?!.*\/\.\.?(?:\/|$))[^\p{Cc}\\]*$/su;
const FORBIDDEN_CHARACTER = /[\p{Cc}\\]/u;

function problemOf(path: string): SitePathProblem {
  return FORBIDDEN_CHARACTER.test(path) ? 'bad_request' : 'not_found';
}

/**
 * A file name carrying a content hash (`app.3f9a1c2b.js`, `chunk.Bx7k2Qa9.css`): a segment between two
 * dots of 8+ hex characters, or of 8+ base64url characters mixing letters and digits (so that
 * `app.component.js` is not taken for one). Such a file never changes under its name: cached for a year.
 */
export function hasContentHash(path: string): boolean {
  const parts = path.slice(path.lastIndexOf('/') + 1).split('.');
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i];
    if (part.length < 8) continue;
    if (/^[0-9a-f]+$/i.test(part)) return true;
    if (/^[A-Za-z0-9_-]+$/.test(part) && /[0-9]/.test(part) && /[A-Za-z]/.test(part)) return true;
  }
  return false;
}

/**
 * A `source` pattern of `config.redirects` and `config.headers`: literal segments, `:name` for one
 * segment, and a final `*` for the rest of the path (also nothing). Matched against the decoded path
 * (`/café/*` matches `/caf%C3%A9/menu`), which holds no control character or backslash by then.
 */
export class PathPattern {
  private readonly regex: RegExp;
  private readonly names: string[] = [];

  constructor(readonly source: string) {
    const splat = source.endsWith('*');
    const body = splat ? source.slice(0, -1) : source;
    const pattern = body
      .split('/')
      .map((segment) => {
        if (segment.startsWith(':') && segment.length > 1) {
          this.names.push(segment.slice(1));
          return '([^/]+)';
        }
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    if (splat) this.names.push('*');
    this.regex = new RegExp(`^${pattern}${splat ? '(.*)' : ''}$`, 's');
  }

  /** The values of `:name` (and `*`) when `path` matches, else undefined. */
  match(path: string): Record<string, string> | undefined {
    const found = this.regex.exec(path);
    if (!found) return undefined;
    const values: Record<string, string> = {};
    this.names.forEach((name, i) => (values[name] = found[i + 1]));
    return values;
  }
}

/**
 * A redirect's Location: `:name` and `*` replaced by what the source matched, percent-encoded again
 * (a value holds no `?`, `#` or space as such). A relative result never starts with `//` (a
 * protocol-relative URL would leave the site).
 */
export function redirectLocation(destination: string, values: Record<string, string>, search: string): string {
  let location = destination.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(values[name]),
  );
  if (values['*'] !== undefined) location = location.replace('*', values['*'].split('/').map(encodeURIComponent).join('/'));
  if (location.startsWith('/')) location = `/${location.replace(/^[/\\]+/, '')}`;
  if (search && !location.includes('?')) location += search;
  return location;
}
