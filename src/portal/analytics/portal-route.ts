import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PlatformError } from '../../common/errors/platform-error.js';
import { cookieOf } from '../cookies.js';
import { PortalAuthService } from '../portal-auth.service.js';
import type { PortalAnswer, Signed } from '../portal-page.js';
import { PORTAL_CONTENT_SECURITY_POLICY, renderPortal } from '../portal-pages.js';

/** The portal's session cookie (set by PortalController at sign-in). */
const SESSION_COOKIE = 'portal_session';

/**
 * What the analytics routes of the portal share with its main controller (PortalController, whose
 * helpers are private): the signed-in developer of a request, and how a page is answered (its CSP
 * and headers; a 303 for a redirect; a 404 page for what is not the account's).
 */
@Injectable()
export class PortalRoutes {
  constructor(private readonly auth: PortalAuthService) {}

  async signedIn(request: FastifyRequest): Promise<Signed | null> {
    const sessionId = cookieOf(request.headers.cookie, SESSION_COOKIE);
    const accountId = await this.auth.sessionAccount(sessionId);
    return accountId && sessionId ? { accountId, sessionId, csrf: this.auth.csrfToken(sessionId) } : null;
  }

  /** Runs `page` (a GET: no form, so no CSRF token to check) for the signed-in developer; signed out, to the sign-in page. */
  async serve(request: FastifyRequest, reply: FastifyReply, page: (signed: Signed) => Promise<PortalAnswer>): Promise<void> {
    const signed = await this.signedIn(request);
    // Signed out: to the sign-in page; htmx's polling (a request, not a boosted navigation) just gets nothing to swap.
    if (!signed && request.headers['hx-request'] === 'true' && !request.headers['hx-boosted']) return void (await reply.status(204).send());
    if (!signed) return void (await reply.redirect('/portal/login', 303));
    let answer: PortalAnswer;
    try {
      answer = await page(signed);
    } catch (err) {
      if (!(err instanceof PlatformError) || err.status !== 404) throw err;
      answer = renderPortal('notice', { title: 'Not found', text: `${err.message}.`, back: '/portal/', nav: 'none', csrf: signed.csrf }, 404);
    }
    if ('redirect' in answer) return void (await reply.redirect(answer.redirect, 303));
    return send(reply, answer);
  }
}

async function send(reply: FastifyReply, page: { status: number; html: string; headers?: Record<string, string> }): Promise<void> {
  await reply
    .status(page.status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': PORTAL_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-cache',
      ...page.headers,
    })
    .send(page.html);
}
