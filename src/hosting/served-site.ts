import type { Deployment } from '../deployments/deployment.entity.js';
import type { SiteConfig } from '../deployments/site-config.js';
import { FORBIDDEN_HEADERS } from '../deployments/site-config-rules.js';
import { FunctionRoutes } from '../functions/function-routes.js';
import { fileKindOf } from './content-types.js';
import { ServedFile, servedFileOf } from './file-response.js';
import { PathPattern } from './site-paths.js';

/**
 * Headers a deployment's `config.headers` may not set: those the deploy refuses (hop-by-hop, framing,
 * cookies), and the platform's own answer headers (validators, encodings, nosniff, noindex).
 */
const PLATFORM_HEADERS = new Set([...FORBIDDEN_HEADERS, 'content-range', 'etag', 'vary', 'accept-ranges', 'x-content-type-options', 'x-robots-tag']);

export interface SiteRedirect {
  pattern: PathPattern;
  destination: string;
  status: number;
}

export interface SiteHeaderRule {
  pattern: PathPattern;
  headers: Array<[string, string]>;
}

/** A deployment as its origin serves it, made once per deployment and kept while its host is cached. */
export interface ServedSite {
  deployment: Deployment;
  /** Path → sha256; null for a landing-page-only deployment. */
  files: Map<string, string> | null;
  /** The blob store's key prefix: files are read as the deployment's account's, never another's. */
  accountId: string;
  cleanUrls: boolean;
  spa: boolean;
  redirects: SiteRedirect[];
  headers: SiteHeaderRule[];
  /** The manifest's entries as served (type, caching, tags), made on first use. */
  served: Map<string, ServedFile>;
  /** Its server code's routes (src/functions/function-dispatch.ts), or null. */
  functions: FunctionRoutes | null;
}

/** The file at a manifest path, if the bundle has one. */
export function fileAt(site: ServedSite, path: string): ServedFile | undefined {
  let file = site.served.get(path);
  if (file) return file;
  const sha256 = site.files?.get(path);
  if (!sha256) return undefined;
  file = servedFileOf(path, sha256, fileKindOf(path), site.accountId);
  site.served.set(path, file);
  return file;
}

export function servedSiteOf(deployment: Deployment): ServedSite {
  const config: SiteConfig = deployment.config ?? {};
  const functions = config.functions ? new FunctionRoutes(config.functions) : null;
  // The function's code folder is never served: its files are not among the site's.
  const files = deployment.files ? new Map(Object.entries(deployment.files).filter(([path]) => !functions?.isCode(path))) : null;
  return {
    functions,
    deployment,
    files: files && files.size > 0 ? files : null,
    accountId: deployment.accountId,
    cleanUrls: config.cleanUrls === true,
    spa: config.spa === true,
    served: new Map(),
    redirects: (config.redirects ?? []).map((r) => ({ pattern: new PathPattern(r.source), destination: r.destination, status: r.status })),
    // The deploy refused forbidden names already; these are dropped again here, whatever the row holds.
    headers: (config.headers ?? []).map((rule) => ({
      pattern: new PathPattern(rule.source),
      headers: Object.entries(rule.headers)
        .map(([name, value]): [string, string] => [name.toLowerCase(), value])
        .filter(([name, value]) => !PLATFORM_HEADERS.has(name) && /^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name) && !/[\r\n\0]/.test(value)),
    })),
  };
}
