import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config/app-config.js';
import type { RateLimitBucket } from '../../rate-limit/rate-limit.decorators.js';
import type { Scope } from '../request-context/scopes.js';
import { DEFAULT_JSON_LIMITS, JsonLimits } from './json-bounds.js';

/** The body limit of every route that does not raise it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** What a route guarded before its body is read checks (see PlatformRouteConfig.guardsBeforeBody). */
export interface GuardedBeforeBody {
  scopes: readonly Scope[];
  rateLimit: RateLimitBucket;
}

/** Route config (via `@RouteConfig`) for the few routes that take other bodies than JSON, or larger ones. */
export interface PlatformRouteConfig {
  /** application/x-www-form-urlencoded (OAuth, the sign-up form). */
  acceptsForm?: boolean;
  /**
   * text/plain holding JSON (analytics beacons: `navigator.sendBeacon` sends a string as text/plain, with no
   * CORS preflight), parsed and bounded exactly like application/json.
   */
  acceptsText?: boolean;
  /**
   * application/octet-stream, handed to the route as a Buffer (file uploads). Nowhere else: other
   * routes answer it 415 before reading it.
   */
  acceptsBytes?: boolean;
  /** A body limit above BODY_LIMIT_BYTES, in bytes (a deploy's `files` manifest: 8 MiB), or read from a setting (MAX_FILE_BYTES). */
  bodyLimit?: number | ((config: AppConfig) => number);
  /**
   * Run the guards (authentication, this rate-limit bucket, these scopes: the same as the route's @Scopes and
   * bucket decorator) before the body is read: for a large body (file uploads), so an anonymous client cannot make
   * the server read it. A refusal (401, 429, 403) answers at once and closes the connection.
   */
  guardsBeforeBody?: GuardedBeforeBody;
  /** JSON bounds above DEFAULT_JSON_LIMITS (a manifest of 20,000 files). The depth is not raised: later walks recurse that deep. */
  jsonLimits?: Partial<Pick<JsonLimits, 'maxKeys' | 'maxValues'>>;
}

export function routeConfigOf(request: FastifyRequest): PlatformRouteConfig {
  return (request.routeOptions.config as PlatformRouteConfig | undefined) ?? {};
}

/** The JSON bounds of a route: the defaults, or the ones it raised. */
export function jsonLimitsOf(config: PlatformRouteConfig): Readonly<JsonLimits> {
  return config.jsonLimits ? { ...DEFAULT_JSON_LIMITS, ...config.jsonLimits } : DEFAULT_JSON_LIMITS;
}

/** "1 MiB", "8 MiB", "512 KiB": a byte limit as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
