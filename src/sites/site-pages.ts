import { Injectable } from '@nestjs/common';
import { landingPageOf } from '../deployments/deployment-snapshot.js';
import { sharedHeaders } from '../hosting/raw-headers.js';
import { renderLandingPage, renderNotice, SITE_CONTENT_SECURITY_POLICY } from './site-page.js';
import type { SiteAddress, SiteTarget } from './sites.service.js';
import { SignupTokens } from './signup-token.js';

/** An HTML answer of a served address. */
export interface SiteHtml {
  status: number;
  /** The page (bytes for a landing page made of its rendered halves and a token). */
  html: string | Buffer;
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

/** The headers of a landing page: caching by address, a validator per token period, noindex but on the public address. */
function pageHeaders(target: SiteTarget, now: number): Record<string, string> {
  const headers: Record<string, string> = {
    ...HTML_HEADERS,
    'cache-control': CACHE[target.address],
    'x-deployment-id': target.deployment.id,
    etag: pageEtag(target.deployment.id, now),
  };
  // Only the public address of a published app may be indexed; deployment urls and aliases are previews.
  if (target.address !== 'public') headers['x-robots-tag'] = 'noindex';
  return headers;
}

/** The validator of a page: the deployment it serves and the form token's period. */
export function pageEtag(deploymentId: string, now = Date.now()): string {
  return `"${deploymentId}.${Math.floor(now / TOKEN_PERIOD_MS).toString(36)}"`;
}

/** A page rendered once, split where the form token goes; its headers in the current token period; its bytes in the current tick. */
interface RenderedPage {
  before: Buffer;
  after: Buffer;
  period: number;
  headers: Record<string, string>;
  tick: number;
  body: Buffer;
}

/**
 * Answers within one tick share their bytes, and so their token, stamped with the tick's start: a token
 * is at most this much older than its page, which moves the form's 2 s minimum by as much at most.
 */
const TOKEN_TICK_MS = 100;

/** Renders what the served addresses answer: the landing page (with a fresh form token), the thanks page, notices. */
@Injectable()
export class SitePages {
  /** Rendered pages by deployment, address and base path (null: the page did not split in two around its token). */
  private readonly rendered = new Map<string, RenderedPage | null>();

  constructor(private readonly tokens: SignupTokens) {}

  /** The landing page; with `form`, shown again after a bad e-mail (what was typed, and why). */
  page(target: SiteTarget, form?: { email: string; error: string }): SiteHtml {
    if (!form) return this.renderedWithToken(target);
    const headers: Record<string, string> = { ...HTML_HEADERS, 'cache-control': 'no-store', 'x-deployment-id': target.deployment.id };
    if (target.address !== 'public') headers['x-robots-tag'] = 'noindex';
    return { status: 400, html: this.render(target, this.tokens.issue(target.deployment.id), form), headers };
  }

  /**
   * A deployment's page never changes but for its form token: rendered once per address, then the two
   * halves around a token issued once per tick, with headers made once per token period (a template
   * render, an HMAC, the copies and header objects per answer cost more than the rest of a request).
   * The headers object and the bytes are shared: callers do not change them.
   */
  private renderedWithToken(target: SiteTarget): SiteHtml {
    const key = `${target.deployment.id} ${target.address} ${target.basePath}`;
    let page = this.rendered.get(key);
    if (page === undefined) {
      const parts = this.render(target, TOKEN_SLOT).split(TOKEN_SLOT);
      page =
        parts.length === 2 ? { before: Buffer.from(parts[0]), after: Buffer.from(parts[1]), period: -1, headers: {}, tick: -1, body: Buffer.alloc(0) } : null;
      if (this.rendered.size >= MAX_RENDERED) this.rendered.delete(this.rendered.keys().next().value!);
      this.rendered.set(key, page);
    }
    const now = Date.now();
    if (!page) return { status: 200, html: this.render(target, this.tokens.issue(target.deployment.id, now)), headers: pageHeaders(target, now) };
    const period = Math.floor(now / TOKEN_PERIOD_MS);
    if (page.period !== period) {
      page.headers = sharedHeaders(pageHeaders(target, now));
      page.period = period;
    }
    const tick = Math.floor(now / TOKEN_TICK_MS);
    if (page.tick !== tick) {
      page.body = Buffer.concat([page.before, Buffer.from(this.tokens.issue(target.deployment.id, tick * TOKEN_TICK_MS), 'latin1'), page.after]);
      page.tick = tick;
    }
    return { status: 200, html: page.body, headers: page.headers };
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
