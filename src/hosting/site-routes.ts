import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { RequestError, RequestErrorCode } from '../common/errors/request-errors.js';
import type { PlatformRouteConfig } from '../common/http/route-config.js';
import { siteLabelOfHost, SitesDomain, sitesDomainOf } from './site-hosts.js';
import type { SiteServer } from './site-server.js';

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
    handler: (request: FastifyRequest, reply: FastifyReply) => {
      const label = (request.raw as RoutedRequest)[SITE_LABEL];
      if (label === undefined) throw new RequestError(RequestErrorCode.RouteNotFound, 'No route matches this method and path');
      return server.serve(request, reply, label);
    },
  });
}
