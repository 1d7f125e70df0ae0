import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { SiteDirectory } from '../hosting/site-directory.js';
import { customDomainLabel } from '../hosting/site-routes.js';
import { RateLimiter, WINDOW_MS } from '../rate-limit/rate-limiter.js';
import { CustomDomains } from './custom-domains.js';
import { DomainsRepository } from './domains.repository.js';
import { hostnameOfHeader } from './hostname.js';

/**
 * The `ask` of a TLS proxy's on-demand certificates (Caddy's `on_demand_tls`): may this name have a
 * certificate? Yes only for names that serve something now — the API's own host, a published app's
 * `<slug>.<SITES_DOMAIN>`, a verified custom domain of a published app, and a live deployment's own
 * label when the operator allows it (TLS_ASK_DEPLOYMENT_LABELS) — and no for everything else: pending
 * or lapsed domains, drafts, unpublished apps, old slugs. Each certificate counts against the
 * authority's limits, so a yes for a name that serves nothing is a way to spend them. The answer is a
 * yes or a no and says nothing about any account; asks are rate-limited per client (the proxy).
 */
@Injectable()
export class TlsAsk {
  constructor(
    private readonly config: AppConfig,
    private readonly directory: CustomDomains,
    private readonly domains: DomainsRepository,
    private readonly sites: SiteDirectory,
    private readonly limiter: RateLimiter,
  ) {}

  /** The name as stored (lowercase ASCII) when it may have a certificate; undefined otherwise; 429 past TLS_ASK_RATE_LIMIT_MAX. */
  async allows(asked: unknown, clientIp: string): Promise<string | undefined> {
    await this.limiter.consume([{ key: `tls-ask:ip:${clientIp}`, limit: this.config.TLS_ASK_RATE_LIMIT_MAX, ttlMs: WINDOW_MS }]);
    if (typeof asked !== 'string' || asked.length === 0 || asked.length > 254 || asked.includes(':')) return undefined;
    const name = hostnameOfHeader(asked);
    if (!name) return undefined;
    // Caddy copies a site block's settings to the names it holds, on-demand included: the API's own host asks too.
    if (name === new URL(this.config.publicUrl).hostname) return name;
    const sites = this.config.SITES_DOMAIN;
    if (sites && name.endsWith(`.${sites}`)) return (await this.servesSite(name.slice(0, -sites.length - 1))) ? name : undefined;
    // Memory first: a flood of made-up names costs no query. The database confirms (a deletion on another instance counts at once).
    const appId = this.directory.appOfHost(name);
    if (!appId || !(await this.domains.isVerified(name))) return undefined;
    return (await this.sites.lookup(customDomainLabel(appId))).kind === 'site' ? name : undefined;
  }

  /**
   * Whether `<label>.<SITES_DOMAIN>` serves a site, as the sites' router reads it (SiteDirectory, from
   * memory when it served the name lately): a published app's slug; a deployment's own label (`dep-…`)
   * or an environment's `<env>--<slug>` only with TLS_ASK_DEPLOYMENT_LABELS. A draft, an unpublished
   * app (410) and a slug given up (it redirects) get none.
   */
  private async servesSite(label: string): Promise<boolean> {
    if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) return false;
    const lookup = await this.sites.lookup(label);
    if (lookup.kind !== 'site') return false;
    return lookup.address === 'public' || this.config.TLS_ASK_DEPLOYMENT_LABELS;
  }
}
