import { Injectable } from '@nestjs/common';
import { AppsService } from '../apps/apps.service.js';
import type { Deployment } from '../deployments/deployment.entity.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { ENV_PATTERN } from '../deployments/dto/deploy.dto.js';
import { SitesError } from './sites.errors.js';

/** What a request to a served address asks for: the page, its sign-up form, or the thanks page. */
export type SiteAction = 'page' | 'signup' | 'thanks';

/**
 * How the deployment was reached: its own url (never changes), an environment alias (follows new
 * deploys), or the app's public address (follows publishing; the only one search engines may index).
 */
export type SiteAddress = 'deployment' | 'alias' | 'public';

export interface SiteTarget {
  deployment: Deployment;
  /** The address the page is served at, with its trailing slash (`/sites/dep_…/`, `/p/<slug>/`, `/`): the form and thanks pages hang below it. */
  basePath: string;
  action: SiteAction;
  address: SiteAddress;
}

export type SiteResolution = { kind: 'target'; target: SiteTarget } | { kind: 'redirect'; location: string; permanent: boolean };

const ACTIONS: Record<string, SiteAction> = { '': 'page', signup: 'signup', thanks: 'thanks' };

/**
 * The public addresses of deployments, outside /v1 and without auth:
 *   /sites/<deploymentId>/    that deployment, forever (until its app is deleted)
 *   /sites/<appId>/<env>/     the newest deployment of the app in that environment
 *   /p/<slug>/                the deployment the app publishes (410 once unpublished, 404 while a draft)
 *   <slug>.<SITES_DOMAIN>/    the same, when SITES_DOMAIN is set (the request arrives as /p/<slug>/…)
 *   <custom domain>/          the same, once verified (the request arrives as /p/<appId>/…)
 * each with `signup` (the form posts there) and `thanks` below it. A page address without its
 * trailing slash redirects to it, so the page's relative links resolve; a slug the app gave up in
 * the last 30 days redirects (301) to its new address.
 */
@Injectable()
export class SitesService {
  constructor(
    private readonly deployments: DeploymentsService,
    private readonly apps: AppsService,
  ) {}

  /** `domainAppId`: the app of the verified custom domain the request came through (its path is /p/<appId>/…). */
  async resolve(pathname: string, search: string, hostRouted = false, domainAppId?: string): Promise<SiteResolution> {
    if (pathname.startsWith('/p/')) return this.resolvePublic(pathname.slice('/p/'.length).split('/'), search, hostRouted, domainAppId);
    const segments = pathname.replace(/^\/sites\//, '').split('/');
    // /sites/<dep> or /sites/<app>/<env>: the page without its slash.
    const bare =
      segments.length === 1 ? segments[0].startsWith('dep_') : segments.length === 2 && segments[0].startsWith('app_') && ENV_PATTERN.test(segments[1]);
    if (bare) return { kind: 'redirect', location: `/sites/${segments.join('/')}/${search}`, permanent: true };

    const action = ACTIONS[segments.pop()!];
    if (action !== undefined) {
      if (segments.length === 1 && segments[0].startsWith('dep_')) {
        const deployment = await this.deployments.findServable(segments[0]);
        if (deployment) return target(deployment, `/sites/${deployment.id}/`, action, 'deployment');
      } else if (segments.length === 2 && segments[0].startsWith('app_') && ENV_PATTERN.test(segments[1])) {
        const deployment = await this.deployments.findNewestServable(segments[0], segments[1]);
        if (deployment) return target(deployment, `/sites/${segments[0]}/${segments[1]}/`, action, 'alias');
      }
    }
    throw SitesError.pageNotFound();
  }

  /** `[slug, …rest]` of /p/<slug>/<rest>. Host-routed requests keep `/` as their base. */
  private async resolvePublic([slug, ...rest]: string[], search: string, hostRouted: boolean, domainAppId?: string): Promise<SiteResolution> {
    const base = hostRouted ? '/' : `/p/${slug}/`;
    if (rest.length === 0) {
      if (hostRouted) throw SitesError.pageNotFound();
      return { kind: 'redirect', location: `${base}${search}`, permanent: true };
    }
    const action = rest.length === 1 ? ACTIONS[rest[0]] : undefined;
    if (!slug || action === undefined) throw SitesError.pageNotFound();
    // Only a request through the app's own custom domain names it by id: nowhere else is /p/<appId>/ an address.
    const byDomain = domainAppId !== undefined && slug === domainAppId ? await this.apps.byId(domainAppId) : undefined;
    const found = byDomain !== undefined ? byDomain && { app: byDomain } : await this.apps.resolveSlug(slug);
    if (!found) throw SitesError.pageNotFound();
    if ('movedTo' in found) {
      // Relative to the address it was asked at: /p/<new>/… here, or /… on the new host (the proxy keeps the scheme).
      const location = hostRouted ? `${this.apps.publicUrlOf(found.movedTo)}${rest.join('/')}${search}` : `/p/${found.movedTo}/${rest.join('/')}${search}`;
      return { kind: 'redirect', location, permanent: true };
    }
    const { app } = found;
    if (app.publishState === 'unpublished') throw SitesError.gone();
    if (app.publishState !== 'published' || !app.publishedDeploymentId) throw SitesError.pageNotFound();
    const deployment = await this.deployments.findServable(app.publishedDeploymentId);
    if (!deployment) throw SitesError.pageNotFound();
    return target(deployment, base, action, 'public');
  }
}

function target(deployment: Deployment, basePath: string, action: SiteAction, address: SiteAddress): SiteResolution {
  return { kind: 'target', target: { deployment, basePath, action, address } };
}
