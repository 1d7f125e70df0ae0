import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';

/** Where an app is reached: its public address (once published) and the path every instance serves it at. */
@Injectable()
export class AppAddresses {
  constructor(private readonly config: AppConfig) {}

  /** `https://<slug>.<SITES_DOMAIN>/` when SITES_DOMAIN is set, else `{PUBLIC_URL}/p/<slug>/`. */
  publicUrl(slug: string): string {
    return this.config.SITES_DOMAIN ? `https://${slug}.${this.config.SITES_DOMAIN}/` : `${this.config.publicUrl}/p/${slug}/`;
  }

  /**
   * The DNS label of a deployment's own origin: its id, lowercase, `_` made `-`
   * (`dep_01JC3Z9A…` → `dep-01jc3z9a…`). Ids are Crockford base32, so the label maps back one to one.
   */
  siteLabel(deploymentId: string): string {
    return deploymentId.toLowerCase().replace('_', '-');
  }

  /** The deployment id a label names (`siteLabel`'s inverse), or undefined when it is not one. */
  deploymentIdOfLabel(label: string): string | undefined {
    return DEPLOYMENT_LABEL.test(label) ? `dep_${label.slice(4).toUpperCase()}` : undefined;
  }

  /**
   * The origin a site with files is served on, never the API's: `<scheme>://<label>.<SITES_DOMAIN>`
   * (scheme of PUBLIC_URL), or without SITES_DOMAIN on a PUBLIC_URL of localhost / 127.0.0.1 (the
   * embedded default) `http://<label>.localhost:<port>` (browsers and curl resolve `*.localhost` to
   * loopback). Undefined otherwise: such a server has nowhere to serve files (a deploy with files
   * answers 400 `sites_domain_required`).
   */
  siteOrigin(label: string): string | undefined {
    const publicUrl = new URL(this.config.publicUrl);
    if (this.config.SITES_DOMAIN) return `${publicUrl.protocol}//${label}.${this.config.SITES_DOMAIN}`;
    if (publicUrl.hostname !== 'localhost' && publicUrl.hostname !== '127.0.0.1') return undefined;
    return `${publicUrl.protocol}//${label}.localhost${publicUrl.port ? `:${publicUrl.port}` : ''}`;
  }

  /** The slug a request's Host names under SITES_DOMAIN, if any. */
  slugOfHost(host: string | undefined): string | undefined {
    return slugOfHost(host, this.config.SITES_DOMAIN);
  }
}

/** `dep-` and the 26 lowercase Crockford base32 characters of a deployment id. */
const DEPLOYMENT_LABEL = /^dep-[0-9a-hjkmnp-tv-z]{26}$/;

/** `recipe-box.apps.example.com` under `apps.example.com` → `recipe-box`; anything else → undefined. */
export function slugOfHost(host: string | undefined, domain: string | undefined): string | undefined {
  if (!domain || !host) return undefined;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  if (!name.endsWith(`.${domain}`)) return undefined;
  const label = name.slice(0, -domain.length - 1);
  return label && !label.includes('.') ? label : undefined;
}

/**
 * Host routing's question about a Host that is not under SITES_DOMAIN: the app its verified custom
 * domain serves (`CustomDomains.routeRequest`, decorated onto the Fastify instance as
 * `customDomainRoute` once the app's providers exist).
 */
export type CustomDomainRoute = (req: { headers: { host?: string } }) => string | undefined;

/**
 * Fastify's `rewriteUrl` (called with the Fastify instance as `this`): a request to
 * `<slug>.<SITES_DOMAIN>/…` is served as `/p/<slug>/…`, and one to a verified custom domain as
 * `/p/<appId>/…` (the same routes, before routing).
 */
export function hostRouting(domain: string | undefined) {
  return function (this: unknown, req: { headers: { host?: string }; url?: string }): string {
    const url = req.url ?? '/';
    const slug = slugOfHost(req.headers.host, domain);
    if (slug) return `/p/${slug}${url}`;
    const appId = (this as { customDomainRoute?: CustomDomainRoute } | undefined)?.customDomainRoute?.(req);
    return appId ? `/p/${appId}${url}` : url;
  };
}
