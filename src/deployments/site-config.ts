import type { FunctionsConfig } from '../functions/function-routes.js';

/**
 * How a deployment's files are served (`config` of POST /v1/apps/deploy), frozen with the deployment.
 * Validated at deploy (site-config-rules.ts); the sites module interprets it.
 */
export interface SiteConfig {
  /** Serve `/about` from `/about.html`. */
  cleanUrls?: boolean;
  /** Answer unknown paths without a file extension with `/index.html` (200): client-side routing. */
  spa?: boolean;
  /** `source` and `destination` may hold `:name` segments and a final `*` splat. */
  redirects?: { source: string; destination: string; status: 301 | 302 | 307 | 308 }[];
  /** Extra response headers for the paths `source` matches (same patterns as redirects). */
  headers?: { source: string; headers: Record<string, string> }[];
  /** Server code: the entry (its folder is never served) and the paths its instance answers (src/functions). */
  functions?: FunctionsConfig;
}
