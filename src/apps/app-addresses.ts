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

  /** The slug a request's Host names under SITES_DOMAIN, if any. */
  slugOfHost(host: string | undefined): string | undefined {
    return slugOfHost(host, this.config.SITES_DOMAIN);
  }
}

/** `recipe-box.apps.example.com` under `apps.example.com` → `recipe-box`; anything else → undefined. */
export function slugOfHost(host: string | undefined, domain: string | undefined): string | undefined {
  if (!domain || !host) return undefined;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  if (!name.endsWith(`.${domain}`)) return undefined;
  const label = name.slice(0, -domain.length - 1);
  return label && !label.includes('.') ? label : undefined;
}

/** Fastify's `rewriteUrl`: a request to `<slug>.<SITES_DOMAIN>/…` is served as `/p/<slug>/…` (the same routes, before routing). */
export function hostRouting(domain: string | undefined): ((req: { headers: { host?: string }; url?: string }) => string) | undefined {
  if (!domain) return undefined;
  return (req) => {
    const slug = slugOfHost(req.headers.host, domain);
    return slug ? `/p/${slug}${req.url ?? '/'}` : (req.url ?? '/');
  };
}
