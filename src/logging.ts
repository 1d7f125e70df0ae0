import type { LoggerService } from '@nestjs/common';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type Logger as Pino } from 'pino';
import type { AppConfig } from './config/app-config.js';
import { prettyDestination } from './pretty-log.js';

/** Paths whose values never reach a log line: credentials and personal data, wherever they turn up. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.body',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.apiKey',
  '*.secret',
  '*.token',
  '*.prompt',
  '*.email',
  '*.password',
];

/**
 * Route config (`@RouteConfig`) the request log reads. `secretInPath`: the route's path holds a
 * credential (an invite token, a reset or sign-in link): its lines carry the route's pattern
 * (`/portal/invite/:token`), never the path.
 */
export interface SecretPathRouteConfig {
  secretInPath?: boolean;
}

/** How often the site origins' requests are written, as one line per host ('site requests'). */
export const SITE_TRAFFIC_LOG_MS = 10_000;
/** Hosts counted apart in one period; past them, the rest are counted together as `(other hosts)`. */
const MAX_TRAFFIC_HOSTS = 1000;

/**
 * The request log of the site origins (the visitor plane: every visitor's page, file, beacon): their
 * answers below 500 are counted by host and status, and written every SITE_TRAFFIC_LOG_MS as one line
 * per host — `{"msg":"site requests","host":…,"requests":…,"statuses":{"200":…},"seconds":10}` — not
 * as a line each, which cost them a fifth of their time. A server error, or an answer that came
 * through an error, still gets its own line.
 */
export class SiteTraffic {
  private hosts = new Map<string, Map<number, number>>();
  private since = Date.now();

  constructor(
    private readonly logger: Pino,
    private readonly message = 'site requests',
  ) {}

  count(host: string | undefined, status: number): void {
    let key = host ?? '';
    if (!this.hosts.has(key) && this.hosts.size >= MAX_TRAFFIC_HOSTS) key = '(other hosts)';
    let statuses = this.hosts.get(key);
    if (!statuses) this.hosts.set(key, (statuses = new Map()));
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }

  /** Writes the period's lines (none without requests) and starts the next period. */
  flush(): void {
    const seconds = Math.round((Date.now() - this.since) / 100) / 10;
    const hosts = this.hosts;
    this.hosts = new Map();
    this.since = Date.now();
    if (!this.logger.isLevelEnabled('info')) return;
    for (const [host, counts] of hosts) {
      let requests = 0;
      for (const count of counts.values()) requests += count;
      this.logger.info({ host, requests, statuses: Object.fromEntries(counts), seconds }, this.message);
    }
  }
}

/** Requests not worth a line each: probes and scrapes. */
const QUIET_PATHS = new Set(['/health/live', '/metrics']);

/**
 * The one logger of a process: JSON lines from pino, for Fastify and for Nest alike, to stdout.
 * Written asynchronously (lines logged while a write is under way go out together in the next),
 * and flushed when the process exits. LOG_FORMAT=pretty (the default on a terminal) makes each
 * line readable instead, written as it comes.
 */
export function createLogger(config: Pick<AppConfig, 'LOG_LEVEL' | 'logFormat'>): Pino {
  const destination = config.logFormat === 'pretty' ? prettyDestination() : pino.destination({ dest: 1, sync: false });
  return pino({ level: config.LOG_LEVEL, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}

/**
 * Fastify's request logging, as one line per request written when it is answered: method, path
 * (never the query string: it may carry cursors or e-mails; for a route with a secret in its path,
 * the route's pattern instead — see `loggedPath`), status, response time, request id. Site origins'
 * answers are counted per host instead (SiteTraffic), but for server errors.
 * Fastify makes no child logger per request here (see app.setup.ts), so below info a request
 * costs nothing to log.
 */
export class RequestLog extends LogController {
  /** For the lines of answered requests, built here from nothing a caller sent but the path: no redaction pass per request. */
  private readonly completed: Pino;
  /** Site origins' answers, counted rather than logged one by one. */
  readonly siteTraffic: SiteTraffic;
  /** The beacons the lean path of `/collect` answers, counted the same way (`beacon requests`, by Host). */
  readonly beaconTraffic: SiteTraffic;

  constructor(private readonly logger: Pino) {
    super({});
    this.completed = logger.child({}, { redact: { paths: [], censor: '[redacted]' } });
    this.siteTraffic = new SiteTraffic(this.completed);
    this.beaconTraffic = new SiteTraffic(this.completed, 'beacon requests');
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const level = error ? 'error' : 'info';
    if (!this.logger.isLevelEnabled(level)) return;
    if (!error && reply.statusCode < 500 && (request.routeOptions.config as { siteRoute?: boolean } | undefined)?.siteRoute) {
      return this.siteTraffic.count(request.headers.host, reply.statusCode);
    }
    const path = loggedPath(request);
    if (!error && QUIET_PATHS.has(path)) return;
    const line = {
      requestId: request.id,
      req: { method: request.method, url: path },
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) this.logger.error({ ...line, err: error }, 'request errored');
    else this.completed.info(line, 'request completed');
  }

  // Our not-found answers are logged as requests like any other.
  override routeNotFound(): void {}
}

/** Nest's start-up detail, a line per module and per route: at debug, so that info shows what an operator needs. */
const STARTUP_DETAIL = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * The path a log line may show: the request's, without its query string — or, for a route marked
 * `secretInPath`, the route's pattern. Marked routes rather than every route with parameters: the
 * ids in ordinary paths (`/v1/apps/app_…`) are what an operator searches the log for, and a secret
 * in a path is rare and deliberate (a link sent to someone), so it is marked where it is routed.
 */
export function loggedPath(request: FastifyRequest): string {
  const route = request.routeOptions;
  if ((route.config as SecretPathRouteConfig | undefined)?.secretInPath && route.url) return route.url;
  const path = request.originalUrl.split('?', 1)[0];
  // A site's request (routed by its Host, src/hosting/site-routes.ts): which site, too.
  return (route.config as { siteRoute?: boolean } | undefined)?.siteRoute ? `//${request.headers.host ?? ''}${path}` : path;
}

/**
 * Nest's `Logger` on the same pino instance. The code logs the pino way — `logger.error({ err, … },
 * 'message')` — or the Nest way — `logger.log('message')`; Nest appends the logger's context as the
 * last argument.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write(STARTUP_DETAIL.has(params[params.length - 1] as string) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const context = params.length > 0 && typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    if (message instanceof Error) {
      this.logger[level]({ context, err: message }, message.message);
    } else if (message !== null && typeof message === 'object') {
      this.logger[level]({ context, ...(message as object) }, typeof params[0] === 'string' ? params[0] : undefined);
    } else {
      // Nest's own errors come as (message, stack, context).
      const stack = level === 'error' && typeof params[0] === 'string' ? params[0] : undefined;
      this.logger[level]({ context, ...(stack ? { stack } : {}) }, String(message));
    }
  }
}
