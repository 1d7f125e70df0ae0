import { Injectable } from '@nestjs/common';
import { landingPageOf } from '../deployments/deployment-snapshot.js';
import { renderLandingPage, renderNotice, SITE_CONTENT_SECURITY_POLICY } from './site-page.js';
import type { SiteAddress, SiteTarget } from './sites.service.js';
import { SignupTokens } from './signup-token.js';

/** An HTML answer of a served address. */
export interface SiteHtml {
  status: number;
  html: string;
  headers: Record<string, string>;
}

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': SITE_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** A cached copy is revalidated at least this often, so the form token it carries is far from its 2 h limit when shown. */
const TOKEN_PERIOD_MS = 30 * 60 * 1000;

/**
 * Caching by address. A deployment's own url never changes (minutes; it goes with its app). An alias
 * moves with every deploy (revalidate each time). The public address moves with publishing: a CDN
 * may keep it a minute (`s-maxage=60`), browsers revalidate (`max-age=0`) against an ETag naming the
 * deployment — so a rollback is seen within a minute — and the token's period.
 */
const CACHE: Record<SiteAddress, string> = {
  deployment: 'public, max-age=300',
  alias: 'no-cache',
  public: 'public, max-age=0, s-maxage=60',
};

/** The validator of a page: the deployment it serves and the form token's period. */
export function pageEtag(deploymentId: string, now = Date.now()): string {
  return `"${deploymentId}.${Math.floor(now / TOKEN_PERIOD_MS).toString(36)}"`;
}

/** Renders what the served addresses answer: the landing page (with a fresh form token), the thanks page, notices. */
@Injectable()
export class SitePages {
  constructor(private readonly tokens: SignupTokens) {}

  /** The landing page; with `form`, shown again after a bad e-mail (what was typed, and why). */
  page(target: SiteTarget, form?: { email: string; error: string }): SiteHtml {
    const { deployment } = target;
    const html = renderLandingPage({
      page: landingPageOf(deployment.snapshot),
      appName: deployment.snapshot.app.name,
      env: deployment.env,
      deployedAt: deployment.createdAt,
      indexable: target.address === 'public',
      form: { action: `${target.basePath}signup`, token: this.tokens.issue(deployment.id), ...form },
    });
    const headers: Record<string, string> = { ...HTML_HEADERS, 'cache-control': form ? 'no-store' : CACHE[target.address], 'x-deployment-id': deployment.id };
    if (!form) headers.etag = pageEtag(deployment.id);
    // Only the public address of a published app may be indexed; deployment urls and aliases are previews.
    if (target.address !== 'public') headers['x-robots-tag'] = 'noindex';
    return { status: form ? 400 : 200, html, headers };
  }

  thanks(target: SiteTarget): SiteHtml {
    const page = landingPageOf(target.deployment.snapshot);
    return this.notice(200, {
      title: target.deployment.snapshot.app.name,
      heading: page.signup.successMessage,
      text: `You signed up to ${target.deployment.snapshot.app.name}.`,
      accent: page.theme.accent,
      back: { href: target.basePath, label: 'Back to the page' },
    });
  }

  notice(status: number, view: { title: string; heading: string; text: string; accent?: string; back?: { href: string; label: string } }): SiteHtml {
    return { status, html: renderNotice(view), headers: { ...HTML_HEADERS, 'cache-control': 'no-store' } };
  }
}
