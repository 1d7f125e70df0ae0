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

/** Stands for the form token in a page rendered once; nothing a page holds can look like it (letters and digits only, escaped or not). */
const TOKEN_SLOT = 'tokenslot7c1e04b9f3a2d8e6';
const MAX_RENDERED = 1000;

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
  /** Rendered pages by deployment, address and base path, split where the token goes (null: the page did not split in two). */
  private readonly rendered = new Map<string, [string, string] | null>();

  constructor(private readonly tokens: SignupTokens) {}

  /** The landing page; with `form`, shown again after a bad e-mail (what was typed, and why). */
  page(target: SiteTarget, form?: { email: string; error: string }): SiteHtml {
    const { deployment } = target;
    const html = form ? this.render(target, this.tokens.issue(deployment.id), form) : this.renderedWithToken(target);
    const headers: Record<string, string> = { ...HTML_HEADERS, 'cache-control': form ? 'no-store' : CACHE[target.address], 'x-deployment-id': deployment.id };
    if (!form) headers.etag = pageEtag(deployment.id);
    // Only the public address of a published app may be indexed; deployment urls and aliases are previews.
    if (target.address !== 'public') headers['x-robots-tag'] = 'noindex';
    return { status: form ? 400 : 200, html, headers };
  }

  /**
   * A deployment's page never changes but for its form token: rendered once per address, then each
   * answer is the two halves around a fresh token (a template render costs as much as the rest of
   * the request).
   */
  private renderedWithToken(target: SiteTarget): string {
    const key = `${target.deployment.id} ${target.address} ${target.basePath}`;
    let halves = this.rendered.get(key);
    if (!halves) {
      const parts = this.render(target, TOKEN_SLOT).split(TOKEN_SLOT);
      halves = parts.length === 2 ? (parts as [string, string]) : null;
      if (this.rendered.size >= MAX_RENDERED) this.rendered.delete(this.rendered.keys().next().value!);
      this.rendered.set(key, halves);
    }
    const token = this.tokens.issue(target.deployment.id);
    return halves ? halves[0] + token + halves[1] : this.render(target, token);
  }

  private render(target: SiteTarget, token: string, form?: { email: string; error: string }): string {
    const { deployment } = target;
    return renderLandingPage({
      page: landingPageOf(deployment.snapshot),
      appName: deployment.snapshot.app.name,
      env: deployment.env,
      deployedAt: deployment.createdAt,
      indexable: target.address === 'public',
      form: { action: `${target.basePath}signup`, token, ...form },
    });
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
