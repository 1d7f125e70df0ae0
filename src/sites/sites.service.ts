import { Injectable } from '@nestjs/common';
import { Deployment } from '../deployments/deployment.entity.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { ENV_PATTERN } from '../deployments/dto/deploy.dto.js';
import { renderSitePage, SITE_CONTENT_SECURITY_POLICY } from './site-page.js';
import { SitesError } from './sites.errors.js';

export type SiteResponse =
  | { kind: 'page'; html: string; headers: Record<string, string> }
  | { kind: 'redirect'; location: string };

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': SITE_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The public pages of deployments, outside /v1 and without auth:
 *   /sites/<deploymentId>/    that deployment, forever (until its app is deleted)
 *   /sites/<appId>/<env>/     the newest deployment of the app in that environment
 * Paths without the trailing slash redirect to it, so relative links on the pages resolve.
 */
@Injectable()
export class SitesService {
  constructor(private readonly deployments: DeploymentsService) {}

  async resolve(pathname: string, search: string): Promise<SiteResponse> {
    const rest = pathname.replace(/^\/sites\//, '');
    const segments = rest.split('/');
    const trailingSlash = segments[segments.length - 1] === '';
    if (trailingSlash) segments.pop();

    if (segments.length === 1 && segments[0].startsWith('dep_')) {
      if (!trailingSlash) return { kind: 'redirect', location: `/sites/${segments[0]}/${search}` };
      const deployment = await this.deployments.findServable(segments[0]);
      // Immutable, but the page goes when its app is deleted: cache for minutes, not forever.
      if (deployment) return this.page(deployment, 'public, max-age=300');
    } else if (segments.length === 2 && segments[0].startsWith('app_') && ENV_PATTERN.test(segments[1])) {
      if (!trailingSlash) return { kind: 'redirect', location: `/sites/${segments[0]}/${segments[1]}/${search}` };
      const deployment = await this.deployments.findNewestServable(segments[0], segments[1]);
      // Moves with every deploy.
      if (deployment) return this.page(deployment, 'no-cache');
    }
    throw SitesError.pageNotFound();
  }

  private page(deployment: Deployment, cacheControl: string): SiteResponse {
    return {
      kind: 'page',
      html: renderSitePage({ snapshot: deployment.snapshot, env: deployment.env, deployedAt: deployment.createdAt }),
      headers: { ...PAGE_HEADERS, 'cache-control': cacheControl, 'x-deployment-id': deployment.id },
    };
  }
}
