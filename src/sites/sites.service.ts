import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { AppAddresses } from '../apps/app-addresses.js';
import { AppsService } from '../apps/apps.service.js';
import type { Deployment } from '../deployments/deployment.entity.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { ENV_PATTERN } from '../deployments/dto/deploy.dto.js';
import { SplitAssignment } from '../publishing/split-assignment.js';
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

/** `underSplit`: a variant of a split test, chosen for this visitor (its answer must not be kept by shared caches). */
export type SiteResolution = { kind: 'target'; target: SiteTarget; underSplit?: boolean } | { kind: 'redirect'; location: string; status: 301 | 308 };

/** Who asks (for the public address under a split test: their visitor id). */
export interface SiteVisitor {
  ip: string;
  headers: IncomingHttpHeaders;
}

const ACTIONS: Record<string, SiteAction> = { '': 'page', signup: 'signup', thanks: 'thanks' };

/**
 * The public addresses of deployments on the API's origin, outside /v1 and without auth:
 *   /sites/<deploymentId>/    that deployment, forever (until its app is deleted)
 *   /sites/<appId>/<env>/     the newest deployment of the app in that environment
 *   /p/<slug>/                the deployment the app publishes (410 once unpublished, 404 while a draft)
 * each with `signup` (the form posts there) and `thanks` below it. A page address without its
 * trailing slash redirects to it, so the page's relative links resolve; a slug the app gave up in
 * the last 30 days redirects (301) to its new address. A deployment with files of its own is served
 * only on its own origin (src/hosting/): any path under these answers 308 there, so the developer's
 * scripts never run where the portal's session lives.
 */
@Injectable()
export class SitesService {
  constructor(
    private readonly deployments: DeploymentsService,
    private readonly apps: AppsService,
    private readonly addresses: AppAddresses,
    private readonly splits: SplitAssignment,
  ) {}

  async resolve(pathname: string, search: string, visitor?: SiteVisitor): Promise<SiteResolution> {
    if (pathname.startsWith('/p/')) return this.resolvePublic(pathname.slice('/p/'.length).split('/'), search, visitor);
    const segments = pathname.replace(/^\/sites\//, '').split('/');
    const isDeployment = segments[0].startsWith('dep_');
    const isAlias = segments.length >= 2 && segments[0].startsWith('app_') && ENV_PATTERN.test(segments[1]);
    // /sites/<dep> or /sites/<app>/<env>: the page without its slash.
    if ((isDeployment && segments.length === 1) || (isAlias && segments.length === 2)) {
      return { kind: 'redirect', location: `/sites/${segments.join('/')}/${search}`, status: 301 };
    }
    if (isDeployment) {
      const deployment = await this.deployments.findServable(segments[0]);
      if (deployment?.files) return toOwnOrigin(this.addresses.siteOrigin(this.addresses.siteLabel(deployment.id)), segments.slice(1), search);
      const action = segments.length === 2 ? ACTIONS[segments[1]] : undefined;
      if (deployment && action !== undefined) return target(deployment, `/sites/${deployment.id}/`, action, 'deployment');
    } else if (isAlias) {
      const deployment = await this.deployments.findNewestServable(segments[0], segments[1]);
      if (deployment?.files) {
        const app = await this.apps.requireOwned(deployment.accountId, deployment.appId);
        return toOwnOrigin(this.addresses.siteOrigin(`${segments[1]}--${app.slug}`), segments.slice(2), search);
      }
      const action = segments.length === 3 ? ACTIONS[segments[2]] : undefined;
      if (deployment && action !== undefined) return target(deployment, `/sites/${segments[0]}/${segments[1]}/`, action, 'alias');
    }
    throw SitesError.pageNotFound();
  }

  /** `[slug, …rest]` of /p/<slug>/<rest>. */
  private async resolvePublic([slug, ...rest]: string[], search: string, visitor?: SiteVisitor): Promise<SiteResolution> {
    if (rest.length === 0) return { kind: 'redirect', location: `/p/${slug}/${search}`, status: 301 };
    if (!slug) throw SitesError.pageNotFound();
    const found = await this.apps.resolveSlug(slug);
    if (!found) throw SitesError.pageNotFound();
    if ('movedTo' in found) return { kind: 'redirect', location: `/p/${found.movedTo}/${rest.join('/')}${search}`, status: 301 };
    const { app } = found;
    if (app.publishState === 'unpublished') throw SitesError.gone();
    if (app.publishState !== 'published' || !app.publishedDeploymentId) throw SitesError.pageNotFound();
    // Under a split test, this visitor's variant (the same one their site origin serves them).
    const variant = visitor && (await this.splits.deploymentFor(app.id, visitor.ip, visitor.headers));
    const deployment = await this.deployments.findServable(variant ?? app.publishedDeploymentId);
    if (!deployment) throw SitesError.pageNotFound();
    if (deployment.files) return toOwnOrigin(this.addresses.publicOrigin(app.slug), rest, search);
    const action = rest.length === 1 ? ACTIONS[rest[0]] : undefined;
    if (action === undefined) throw SitesError.pageNotFound();
    const resolution = target(deployment, `/p/${slug}/`, action, 'public');
    return variant && resolution.kind === 'target' ? { ...resolution, underSplit: true } : resolution;
  }
}

/** 308 (the method and body kept) to the same path on the site's own origin; a server without one has nowhere to serve it. */
function toOwnOrigin(origin: string | undefined, rest: string[], search: string): SiteResolution {
  if (!origin) throw SitesError.pageNotFound();
  return { kind: 'redirect', location: `${origin}/${rest.join('/')}${search}`, status: 308 };
}

function target(deployment: Deployment, basePath: string, action: SiteAction, address: SiteAddress): SiteResolution {
  return { kind: 'target', target: { deployment, basePath, action, address } };
}
