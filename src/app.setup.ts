import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { RequestMethod } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import type { Logger as Pino } from 'pino';
import { BearerAuthGuard } from './auth/bearer-auth.guard.js';
import { createValidationPipe } from './common/errors/validation.js';
import { AppConfig } from './config/app-config.js';
import { RequestError, RequestErrorCode } from './common/errors/request-errors.js';
import { clientErrorHandler } from './common/http/client-errors.js';
import { clientIpFunction } from './common/http/client-ip.js';
import { frameworkErrorHandler } from './common/http/framework-errors.js';
import { createJsonBodyParser } from './common/http/json-body.js';
import { BODY_LIMIT_BYTES, formatBytes, type GuardedBeforeBody, PlatformRouteConfig, routeConfigOf } from './common/http/route-config.js';
import { requestIdOf } from './common/http/request-id.js';
import { malformedStringError } from './common/http/well-formed-strings.js';
import { setupSwagger } from './docs/swagger.js';
import { leanBeacons, registerCollectRoute, COLLECT_PATH } from './analytics/collect-route.js';
import { CollectService } from './analytics/collect.service.js';
import { CustomDomains } from './domains/custom-domains.js';
import { CustomDomainRoute, registerLeanSitePath, registerSiteRoute, SITE_ROUTE, siteRouting } from './hosting/site-routes.js';
import { SiteServer } from './hosting/site-server.js';
import { FunctionDispatch } from './functions/function-dispatch.js';
import { PinoNestLogger, RequestLog, SITE_TRAFFIC_LOG_MS } from './logging.js';
import { PeriodicJobs } from './common/periodic/periodic-jobs.js';
import { MetricsService } from './metrics/metrics.service.js';

export { BODY_LIMIT_BYTES } from './common/http/route-config.js';
export type { PlatformRouteConfig } from './common/http/route-config.js';

export function createFastifyAdapter(
  logger: Pino,
  config: Pick<AppConfig, 'trustProxy' | 'SITES_DOMAIN' | 'PUBLIC_URL' | 'publicUrl'> = { trustProxy: false, publicUrl: 'http://localhost:3000' },
): FastifyAdapter {
  const requestLog = new RequestLog(logger);
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Echo the client's x-request-id when it is sane, otherwise make one.
    genReqId: requestIdOf,
    // Fastify logs through our pino instance, one line per request (RequestLog), without a child
    // logger per request: request.log is the process logger.
    loggerInstance: logger,
    logController: requestLog,
    childLoggerFactory: (parent: FastifyBaseLogger) => parent,
    frameworkErrors: frameworkErrorHandler,
    // Requests Node's HTTP parser refuses (headers too large, a malformed request line) get the envelope too.
    clientErrorHandler,
    // request.ip honours X-Forwarded-For only from the hops TRUST_PROXY names.
    trustProxy: config.trustProxy,
    // A Host under the sites' domain (<label>.<SITES_DOMAIN>, or <label>.localhost) or a verified custom domain is a site's:
    // its own route (src/hosting/).
    rewriteUrl: siteRouting(config),
  });
  adapter.getInstance().decorate(REQUEST_LOG, requestLog);
  return adapter;
}

/** Where the Fastify instance keeps its RequestLog (configureApp reads it: the site traffic log's job and the lean path). */
const REQUEST_LOG = 'platformRequestLog';

/** Everything about the HTTP surface that is not a controller: prefix, hooks, pipes, docs. */
export function configureApp(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(MetricsService);
  const config = app.get(AppConfig);
  app.useLogger(new PinoNestLogger(fastify.log as Pino));
  app.flushLogs();
  // Custom domains: host routing asks the in-memory directory of verified ones (see siteRouting).
  const customDomains = app.get(CustomDomains, { strict: false });
  fastify.decorate('customDomainRoute', ((req) => customDomains.routeRequest(req)) satisfies CustomDomainRoute);

  // Bodies are JSON (or form-encoded where a route says so), parsed within the route's limits; text/plain
  // is JSON too where a route takes it (beacons), through the same parser, and refused (415) elsewhere.
  const parseJson = createJsonBodyParser(fastify.getDefaultJsonParser('error', 'error'));
  app.useBodyParser('application/json', { bodyLimit: BODY_LIMIT_BYTES }, parseJson);
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (request, body, done) =>
    routeConfigOf(request).acceptsText ? parseJson(request, body as Buffer, done) : done(null, (body as Buffer).toString('utf8')),
  );
  // Raw bytes (file uploads) only where a route takes them; the onRequest hook below refuses them elsewhere before reading.
  // The body is handed on as a stream (an upload is never held whole: see FilesService.upload), within the route's limit.
  fastify.addContentTypeParser('application/octet-stream', (request, payload, done) =>
    routeConfigOf(request).acceptsBytes ? limitedBody(request, payload, done) : done(unsupportedType('application/octet-stream')),
  );
  // A route may raise its body limit (`@RouteConfig({ bodyLimit })`, a number or one read from a setting); Fastify enforces it while reading.
  // A route may also run the guards before its body is read (`guardsBeforeBody`: file uploads).
  fastify.addHook('onRoute', (route) => {
    const routeConfig = route.config as PlatformRouteConfig | undefined;
    const bodyLimit = routeConfig?.bodyLimit;
    if (bodyLimit) route.bodyLimit = typeof bodyLimit === 'function' ? bodyLimit(config) : bodyLimit;
    const guarded = routeConfig?.guardsBeforeBody;
    if (guarded) route.preParsing = [route.preParsing ?? []].flat().concat(guardBeforeBody(app.get(BearerAuthGuard, { strict: false }), guarded));
  });
  if (!config.runsHttpApi) {
    // A worker answers health checks and metrics only.
    fastify.addHook('onRequest', async (request: FastifyRequest) => {
      if (!/^\/(health\/|metrics)/.test(request.url))
        throw new RequestError(RequestErrorCode.WorkerOnly, 'This is a worker process (APP_ROLE=worker): only /health and /metrics are served');
    });
  }
  // Callback-style hooks: they run on every request, and an async hook costs a promise each.
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => done(rejectUnsupportedBody(request)));
  fastify.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => done(malformedStringError(request)));
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    void reply.header('x-request-id', request.id);
    done(null, payload);
  });
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  const collector = app.get(CollectService);
  registerCollectRoute(fastify, collector);
  if (config.runsHttpApi) {
    const sites = app.get(SiteServer);
    const functions = app.get(FunctionDispatch);
    registerSiteRoute(fastify, sites);
    const requestLog = (fastify as unknown as Record<typeof REQUEST_LOG, RequestLog>)[REQUEST_LOG];
    app.get(PeriodicJobs).add({
      name: 'site-traffic-log',
      schedule: { everyMs: SITE_TRAFFIC_LOG_MS },
      runsOn: 'every-instance',
      atShutdown: true,
      run: async () => {
        requestLog.siteTraffic.flush();
        requestLog.beaconTraffic.flush();
      },
    });
    // Beacons too (src/analytics/collect-route.ts): a plain one is answered before Fastify, anything else by the route.
    const beacons = leanBeacons(collector, fastify.getDefaultJsonParser('error', 'error'), clientIpFunction(config.trustProxy), (host, status, seconds) => {
      metrics.observeRequest('POST', COLLECT_PATH, status, seconds);
      requestLog.beaconTraffic.count(host, status);
    });
    // Site origins' GETs answered from memory skip Fastify (src/hosting/site-routes.ts): their metrics and traffic log are kept here.
    registerLeanSitePath(
      fastify.server,
      sites,
      siteRouting(config),
      fastify,
      config.trustProxy,
      (method, host, status, seconds) => {
        metrics.observeRequest(method, SITE_ROUTE, status, seconds);
        requestLog.siteTraffic.count(host, status);
      },
      beacons,
      // Server code (src/functions/function-dispatch.ts): a function route's request goes to its instance.
      (req, res, label, ip, next) => functions.take(req, res, label, ip, next),
    );
  }

  app.setGlobalPrefix('v1', {
    exclude: [
      { path: 'health/live', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      { path: 'metrics', method: RequestMethod.GET },
      { path: 'sites/{*path}', method: RequestMethod.ALL },
      { path: 'p/{*path}', method: RequestMethod.ALL },
      { path: 'catalog', method: RequestMethod.GET },
      { path: 'catalog/{*path}', method: RequestMethod.GET },
      { path: 'collect', method: RequestMethod.ALL },
      { path: 'portal', method: RequestMethod.ALL },
      { path: 'portal/{*path}', method: RequestMethod.ALL },
      { path: 'js/analytics.js', method: RequestMethod.GET },
      { path: 'reports/unsubscribe/{*path}', method: RequestMethod.ALL },
      { path: 'internal/tls/ask', method: RequestMethod.GET },
    ],
  });
  app.useGlobalPipes(createValidationPipe());
  setupSwagger(app);
}

/**
 * A preParsing hook: the guards (authentication, rate limit, scopes) before the body is read. A refusal answers in
 * the envelope with `Connection: close`, so the server never reads the body it did not want.
 */
function guardBeforeBody(guard: BearerAuthGuard, route: GuardedBeforeBody): preParsingAsyncHookHandler {
  return async (request, reply, payload) => {
    try {
      await guard.guardBeforeBody(request, reply, route);
    } catch (err) {
      void reply.header('connection', 'close');
      throw err;
    }
    return payload;
  };
}

/**
 * A raw body as a stream, within the route's body limit, as Fastify's own parsers keep it: a declared
 * Content-Length over it is refused before a byte is read; a body that runs past it (chunked) fails
 * the stream with the same 413.
 */
function limitedBody(request: FastifyRequest, payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void): void {
  const limit = request.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES;
  const tooLarge = () => new RequestError(RequestErrorCode.BodyTooLarge, `Request body is larger than ${formatBytes(limit)}`);
  if (Number(request.headers['content-length'] ?? 0) > limit) return done(tooLarge());
  let read = 0;
  const limited = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      read += chunk.length;
      callback(read > limit ? tooLarge() : null, chunk);
    },
  });
  payload.on('error', (err) => limited.destroy(err));
  done(null, payload.pipe(limited));
}

/** 415 before the body is read, for a body whose type the route does not take (the error, or undefined). */
function rejectUnsupportedBody(request: FastifyRequest): RequestError | undefined {
  const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  if (!hasBody || request.is404) return undefined;
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return undefined;
  const config = routeConfigOf(request);
  if (type === 'application/x-www-form-urlencoded' && config.acceptsForm) return undefined;
  if (type === 'text/plain' && config.acceptsText) return undefined;
  if (type === 'application/octet-stream' && config.acceptsBytes) return undefined;
  return unsupportedType(type);
}

function unsupportedType(type: string): RequestError {
  return new RequestError(RequestErrorCode.UnsupportedMediaType, `Content-Type must be application/json (got ${type || 'none'})`);
}
