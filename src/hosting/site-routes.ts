import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { clientIpFunction, type TrustProxy } from '../common/http/client-ip.js';
import { requestIdOf } from '../common/http/request-id.js';
import { RequestError, RequestErrorCode } from '../common/errors/request-errors.js';
import type { PlatformRouteConfig } from '../common/http/route-config.js';
import { splitHeadersOnSend } from '../publishing/split-assignment.js';
import { rawHeaders } from './raw-headers.js';
import { siteLabelOfHost, SitesDomain, sitesDomainOf } from './site-hosts.js';
import type { Answer, SiteServer } from './site-server.js';

/** The one route every site request is routed to (its path is read from the original URL). */
export const SITE_ROUTE = '/__site';
/** The label `siteRouting` found in the Host, on the raw request: a request reaching SITE_ROUTE without one came to the API. */
const SITE_LABEL = Symbol('siteLabel');

type RoutedRequest = IncomingMessage & { [SITE_LABEL]?: string };

/** Route config of SITE_ROUTE: the sign-up form posts a form, the tracker a text/plain beacon. */
export interface SiteRouteConfig extends PlatformRouteConfig {
  siteRoute: true;
}

/**
 * Host routing's question about a Host that is not under the sites' domain: the app its verified
 * custom domain serves (`CustomDomains.routeRequest`, decorated onto the Fastify instance as
 * `customDomainRoute` once the app's providers exist).
 */
export type CustomDomainRoute = (req: { headers: { host?: string } }) => string | undefined;

/** The label a verified custom domain's requests are served under: its app, by id (no DNS label has a `:`). */
export function customDomainLabel(appId: string): string {
  return `app:${appId}`;
}

/**
 * Fastify's `rewriteUrl` (called with the Fastify instance as `this`): a request whose Host is a name
 * under the sites' domain, or a verified custom domain, goes to SITE_ROUTE whatever its path — so a
 * site origin never reaches the API, the portal or the docs — and every other request keeps its URL.
 * Runs before routing, for every request: a few string operations and a Map lookup.
 */
export function siteRouting(config: { SITES_DOMAIN?: string; PUBLIC_URL?: string; publicUrl: string }): (this: unknown, req: RoutedRequest) => string {
  // PUBLIC_URL may be set once the port is known (PORT=0): the domain follows it (compared as set, not through the getter's regex).
  let seen: string | undefined | null = null;
  let sites: SitesDomain | undefined;
  return function (this: unknown, req) {
    if (config.PUBLIC_URL !== seen) {
      sites = sitesDomainOf(config);
      seen = config.PUBLIC_URL;
    }
    let label = siteLabelOfHost(req.headers.host, sites);
    if (label === undefined) {
      const appId = (this as { customDomainRoute?: CustomDomainRoute } | undefined)?.customDomainRoute?.(req);
      if (appId === undefined) return req.url ?? '/';
      label = customDomainLabel(appId);
    }
    req[SITE_LABEL] = label;
    return SITE_ROUTE;
  };
}

/** Registers SITE_ROUTE straight on Fastify: none of Nest's per-request pipeline (guards, pipes, interceptors) runs for a file. */
export function registerSiteRoute(fastify: FastifyInstance, server: SiteServer): void {
  const config: SiteRouteConfig = { siteRoute: true, acceptsForm: true, acceptsText: true };
  fastify.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
    url: SITE_ROUTE,
    exposeHeadRoute: false,
    config,
    onSend: splitHeadersOnSend,
    handler: (request: FastifyRequest, reply: FastifyReply) => {
      const label = (request.raw as RoutedRequest)[SITE_LABEL];
      if (label === undefined) throw new RequestError(RequestErrorCode.RouteNotFound, 'No route matches this method and path');
      return server.serve(request, reply, label);
    },
  });
}

/**
 * A lean handler for requests that are not a site's (the beacons of `/collect`): true when it took the
 * request — answering it, or handing it on to `next` (Fastify) itself — false to leave it to Fastify.
 */
export type LeanApiHandler = (req: IncomingMessage, res: ServerResponse, next: (req: IncomingMessage, res: ServerResponse) => void) => boolean;

/** The server code's hook (src/functions/function-dispatch.ts): true when it took the request. */
export type FunctionHook = (req: IncomingMessage, res: ServerResponse, label: string, ip: () => string, next: () => void) => boolean;

/** What the lean path reports of each answer it writes: for the metrics and the site traffic log. */
export type LeanAnswered = (method: string, host: string | undefined, status: number, seconds: number) => void;

/**
 * The lean path of site origins: a listener ahead of Fastify's on the HTTP server. A request whose
 * Host names a site (the same routing as `siteRouting`) and that `SiteServer.answerLean` can answer
 * from memory — a GET or HEAD of a landing page or a cached file — is written straight on Node's
 * response, with the headers Fastify's route would send (its request id, Content-Length); anything
 * else goes on to Fastify, unchanged. `request.ip` is worked out only when analytics reads it, as
 * Fastify does (the same `@fastify/proxy-addr`, the same TRUST_PROXY).
 */
export function registerLeanSitePath(
  server: Server,
  sites: SiteServer,
  routing: (this: unknown, req: RoutedRequest) => string,
  self: unknown,
  trustProxy: TrustProxy,
  answered: LeanAnswered,
  apiPlane?: LeanApiHandler,
  functions?: FunctionHook,
): void {
  const clientIp = clientIpFunction(trustProxy);
  const [fastify, ...others] = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (!fastify || others.length > 0) throw new Error('the lean site path expects Fastify as the only request listener');
  server.removeListener('request', fastify);
  server.on('request', (req: RoutedRequest, res: ServerResponse) => {
    const started = performance.now();
    const url = req.url ?? '/';
    if (routing.call(self, req) !== SITE_ROUTE) return apiPlane?.(req, res, fastify) || fastify(req, res);
    const label = req[SITE_LABEL]!;
    const ip = () => clientIp(req);
    if (functions?.(req, res, label, ip, () => fastify(req, res))) return;
    let answer: Answer | undefined;
    try {
      answer = sites.answerLean(req.method ?? 'GET', url, req.headers, label, ip);
    } catch {
      answer = undefined; // Fastify's route answers it, errors and all
    }
    if (!answer) return fastify(req, res);
    write(req, res, answer);
    answered(req.method!, req.headers.host, answer.status, (performance.now() - started) / 1000);
  });
}

/**
 * Writes an answer as Fastify's reply would: Content-Length of the body (also for HEAD, which sends none), 0 for an empty one but 204/304.
 * All headers go to `writeHead` at once, as a flat array (see raw-headers.ts): a `setHeader` before it would make Node take every header
 * through `setHeader` too (an array and a lower-cased name each).
 */
function write(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const { body, status } = answer;
  const headers = rawHeaders(answer.headers);
  headers.push('x-request-id', requestIdOf(req));
  if (body !== null) headers.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  else if (status >= 200 && status !== 204 && status !== 304 && req.method !== 'HEAD') headers.push('content-length', '0');
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' || body === null ? undefined : body);
}
