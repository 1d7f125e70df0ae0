import { isIP } from 'node:net';
import { getDomain } from 'tldts';

/** A label no site has, to ask where a name under SITES_DOMAIN stands (every label there stands alike). */
const ANY_SITE_LABEL = 'site';

/**
 * Why the sites' domain cannot live beside the API's address, or undefined when it can. Sites run
 * developers' scripts, so none may be served on the API's origin (the portal's session lives there)
 * nor set a cookie the API's host receives:
 * - the API's host under SITES_DOMAIN is a site's name: an app with that slug would answer there;
 * - a site may set cookies for any parent of its name down to its registrable domain (by the Public
 *   Suffix List, which browsers apply to cookies), and the API's host receives those of every name it
 *   is equal to or under. So the API's host must not be that registrable domain or under it — which
 *   also keeps sites cross-site to the portal for SameSite cookies.
 * Safe: a separate registrable domain (`example-apps.com` beside `api.example.com`), a SITES_DOMAIN on
 * the list's private section (each site its own registrable domain, as `github.io`), `localhost`
 * (a public suffix by the list's default rule), an API reached by IP address.
 */
export function sitesDomainProblem(publicUrl: string, sitesDomain: string | undefined): string | undefined {
  if (!sitesDomain) return undefined;
  const apiHost = new URL(publicUrl).hostname.replace(/\.$/, '').toLowerCase();
  if (isIP(apiHost.replace(/^\[|\]$/g, ''))) return undefined;
  const both = `SITES_DOMAIN (${sitesDomain}) and PUBLIC_URL's host (${apiHost})`;
  if (apiHost.endsWith(`.${sitesDomain}`))
    return `${both}: the API's host is a name under SITES_DOMAIN, so an app could be served on the API's origin; put the sites under a domain of their own (like example-apps.com)`;
  const shared = getDomain(`${ANY_SITE_LABEL}.${sitesDomain}`, { allowPrivateDomains: true });
  if (shared && (apiHost === shared || apiHost.endsWith(`.${shared}`)))
    return `${both} share the registrable domain ${shared}: any site could set cookies the API's host receives; put the sites under a separate registrable domain (like example-apps.com) or one on the Public Suffix List`;
  return undefined;
}
