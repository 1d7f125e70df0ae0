import { Injectable } from '@nestjs/common';
import { landingPageOf } from '../deployments/deployment-snapshot.js';
import { renderLandingPage, renderNotice, SITE_CONTENT_SECURITY_POLICY } from './site-page.js';
import type { SiteTarget } from './sites.service.js';
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
      indexable: false,
      form: { action: `${target.basePath}signup`, token: this.tokens.issue(deployment.id), ...form },
    });
    // A deployment's own page never changes (cache for minutes: it goes when its app is deleted); an alias moves with every deploy.
    const cacheControl = form ? 'no-store' : target.alias ? 'no-cache' : 'public, max-age=300';
    return { status: form ? 400 : 200, html, headers: { ...HTML_HEADERS, 'cache-control': cacheControl, 'x-deployment-id': deployment.id } };
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
