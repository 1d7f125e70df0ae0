import { Injectable } from '@nestjs/common';
import type { Deployment } from '../deployments/deployment.entity.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { ENV_PATTERN } from '../deployments/dto/deploy.dto.js';
import { SitesError } from './sites.errors.js';

/** What a request to a served address asks for: the page, its sign-up form, or the thanks page. */
export type SiteAction = 'page' | 'signup' | 'thanks';

export interface SiteTarget {
  deployment: Deployment;
  /** The address the page is served at, with its trailing slash (`/sites/dep_…/`): the form and thanks pages hang below it. */
  basePath: string;
  action: SiteAction;
  /** An alias follows new deploys (`/sites/<appId>/<env>/`); a deployment's own url never changes. */
  alias: boolean;
}

export type SiteResolution = { kind: 'target'; target: SiteTarget } | { kind: 'redirect'; location: string };

const ACTIONS: Record<string, SiteAction> = { '': 'page', signup: 'signup', thanks: 'thanks' };

/**
 * The public addresses of deployments, outside /v1 and without auth:
 *   /sites/<deploymentId>/    that deployment, forever (until its app is deleted)
 *   /sites/<appId>/<env>/     the newest deployment of the app in that environment
 * each with `signup` (the form posts there) and `thanks` below it. A page address without its
 * trailing slash redirects to it, so the page's relative links resolve.
 */
@Injectable()
export class SitesService {
  constructor(private readonly deployments: DeploymentsService) {}

  async resolve(pathname: string, search: string): Promise<SiteResolution> {
    const segments = pathname.replace(/^\/sites\//, '').split('/');
    // /sites/<dep> or /sites/<app>/<env>: the page without its slash.
    const bare =
      segments.length === 1 ? segments[0].startsWith('dep_') : segments.length === 2 && segments[0].startsWith('app_') && ENV_PATTERN.test(segments[1]);
    if (bare) return { kind: 'redirect', location: `/sites/${segments.join('/')}/${search}` };

    const last = segments.pop()!;
    const action = ACTIONS[last];
    if (action !== undefined) {
      if (segments.length === 1 && segments[0].startsWith('dep_')) {
        const deployment = await this.deployments.findServable(segments[0]);
        if (deployment) return target(deployment, `/sites/${deployment.id}/`, action, false);
      } else if (segments.length === 2 && segments[0].startsWith('app_') && ENV_PATTERN.test(segments[1])) {
        const deployment = await this.deployments.findNewestServable(segments[0], segments[1]);
        if (deployment) return target(deployment, `/sites/${segments[0]}/${segments[1]}/`, action, true);
      }
    }
    throw SitesError.pageNotFound();
  }
}

function target(deployment: Deployment, basePath: string, action: SiteAction, alias: boolean): SiteResolution {
  return { kind: 'target', target: { deployment, basePath, action, alias } };
}
