import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { SiteDirectory } from '../hosting/site-directory.js';
import { CustomDomains } from './custom-domains.js';
import { DomainsRepository } from './domains.repository.js';
import { hostnameOfHeader } from './hostname.js';

/**
 * The `ask` of a TLS proxy's on-demand certificates (Caddy's `on_demand_tls`): may this name have a
 * certificate? Yes for the names the platform serves — a verified custom domain, a site under
 * SITES_DOMAIN, the API's own host — and no for everything else, pending domains included: the
 * answer is a yes or a no and says nothing about any account.
 */
@Injectable()
export class TlsAsk {
  constructor(
    private readonly config: AppConfig,
    private readonly directory: CustomDomains,
    private readonly domains: DomainsRepository,
    private readonly sites: SiteDirectory,
  ) {}

  /** The name as stored (lowercase ASCII) when it may have a certificate; undefined otherwise. */
  async allows(asked: unknown): Promise<string | undefined> {
    if (typeof asked !== 'string' || asked.length === 0 || asked.length > 254 || asked.includes(':')) return undefined;
    const name = hostnameOfHeader(asked);
    if (!name) return undefined;
    // Caddy copies a site block's settings to the names it holds, on-demand included: the API's own host asks too.
    if (name === new URL(this.config.publicUrl).hostname) return name;
    const sites = this.config.SITES_DOMAIN;
    if (sites && name.endsWith(`.${sites}`)) return (await this.servesSite(name.slice(0, -sites.length - 1))) ? name : undefined;
    // Memory first: a flood of made-up names costs no query. The database confirms (a deletion on another instance counts at once).
    if (!this.directory.appOfHost(name)) return undefined;
    return (await this.domains.isVerified(name)) ? name : undefined;
  }

  /**
   * Whether `<label>.<SITES_DOMAIN>` names a site, as the sites' router reads it (SiteDirectory, from
   * memory when it served the name lately): a deployment's own label (`dep-…`) of a deployment that is
   * served, an environment's `<env>--<slug>` with a deployment, an app's slug that is published, was
   * (410) or was given up in the last 30 days (it redirects) — a draft's name is nobody's business yet.
   */
  private async servesSite(label: string): Promise<boolean> {
    if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) return false;
    return (await this.sites.lookup(label)).kind !== 'none';
  }
}
