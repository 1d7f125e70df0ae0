import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { apiSlugOf } from './slug.js';

/** Where an app is reached: its public address (once published) and the path every instance serves it at. */
@Injectable()
export class AppAddresses {
  constructor(private readonly config: AppConfig) {}

  /** A slug no app may take: the API's own label (see apiSlugOf). */
  isReservedSlug(slug: string): boolean {
    return slug === apiSlugOf(this.config.publicUrl);
  }

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

  /**
   * Where visitors of the site a label names are sent: the public address's origin under SITES_DOMAIN
   * (https, as `publicUrl`), else `siteOrigin`.
   */
  publicOrigin(label: string): string | undefined {
    return this.config.SITES_DOMAIN ? `https://${label}.${this.config.SITES_DOMAIN}` : this.siteOrigin(label);
  }
}

/** `dep-` and the 26 lowercase Crockford base32 characters of a deployment id. */
const DEPLOYMENT_LABEL = /^dep-[0-9a-hjkmnp-tv-z]{26}$/;
