/**
 * Which requests are for a site: those whose Host is a name under the sites' domain —
 * `<SITES_DOMAIN>` when set, else `localhost` when PUBLIC_URL is on localhost or 127.0.0.1 (the
 * embedded default: `http://<label>.localhost:3000/`). Everything else is the API's.
 */
export interface SitesDomain {
  /** `apps.example.com`, or `localhost`. */
  domain: string;
}

/** A DNS label: what one name under the sites' domain may be. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The site a Host header names: its one label under the domain (lowercased, port and a trailing dot
 * dropped), `''` for a name under the domain that cannot be a site (`a.b.<domain>`, a bad label:
 * answered 404 — a host under the sites' domain never reaches the API), or undefined for any other
 * host (the API's, the domain itself, an IP address…).
 */
export function siteLabelOfHost(host: string | undefined, sites: SitesDomain | undefined): string | undefined {
  if (!host || !sites) return undefined;
  let name = host.toLowerCase();
  if (name.charCodeAt(0) === 91 /* [ */) return undefined; // an IPv6 literal
  const colon = name.indexOf(':');
  if (colon >= 0) name = name.slice(0, colon);
  if (name.endsWith('.')) name = name.slice(0, -1);
  const { domain } = sites;
  if (name.length <= domain.length + 1 || !name.endsWith(domain) || name.charCodeAt(name.length - domain.length - 1) !== 46 /* . */) return undefined;
  const label = name.slice(0, name.length - domain.length - 1);
  return LABEL.test(label) ? label : '';
}

/**
 * The sites' domain of a configuration: SITES_DOMAIN, or `localhost` when it is unset and the API's
 * public URL is on localhost or 127.0.0.1; undefined otherwise (no site origins: deploys with files
 * are refused).
 */
export function sitesDomainOf(config: { SITES_DOMAIN?: string; publicUrl: string }): SitesDomain | undefined {
  if (config.SITES_DOMAIN) return { domain: config.SITES_DOMAIN };
  const { hostname } = new URL(config.publicUrl);
  return hostname === 'localhost' || hostname === '127.0.0.1' ? { domain: 'localhost' } : undefined;
}

/**
 * The ways a label names a site, most specific first: a deployment's own label (see
 * AppAddresses.siteLabel), `<env>--<slug>` (an environment's newest deployment; each `--` tried, for
 * environments and slugs that hold one), and a published app's slug.
 */
export function environmentReadings(label: string): Array<{ env: string; slug: string }> {
  const readings: Array<{ env: string; slug: string }> = [];
  for (let at = label.indexOf('--'); at > 0; at = label.indexOf('--', at + 1)) {
    const env = label.slice(0, at);
    const slug = label.slice(at + 2);
    if (/^[a-z][a-z0-9-]{0,31}$/.test(env) && slug.length >= 3 && LABEL.test(slug)) readings.push({ env, slug });
  }
  return readings;
}
