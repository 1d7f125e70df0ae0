import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PlatformError } from '../../common/errors/platform-error.js';
import { cookieOf } from '../cookies.js';
import { PortalAuthService } from '../portal-auth.service.js';
import type { Form, PortalAnswer, Signed } from '../portal-page.js';
import { PORTAL_CONTENT_SECURITY_POLICY, renderPortal } from '../portal-pages.js';

/** The portal's session cookie (set by PortalController at sign-in). */
const SESSION_COOKIE = 'portal_session';

/**
 * What the analytics and webhook routes of the portal share with its main controller: the signed-in
 * developer of a request, the CSRF check of a form, and how a page is answered (its CSP and
 * headers; a 303 for a redirect; a 404 page for what is not the account's).
 */
@Injectable()
export class PortalRoutes {
  constructor(private readonly auth: PortalAuthService) {}

  async signedIn(request: FastifyRequest): Promise<Signed | null> {
    const sessionId = cookieOf(request.headers.cookie, SESSION_COOKIE);
    const accountId = await this.auth.sessionAccount(sessionId);
    return accountId && sessionId ? { accountId, sessionId, csrf: this.auth.csrfToken(sessionId) } : null;
  }

  /** Runs `page` for the signed-in developer (signed out: to the sign-in page); a POST's form must carry its CSRF token. */
  async serve(request: FastifyRequest, reply: FastifyReply, page: (signed: Signed, form: Form) => Promise<PortalAnswer>): Promise<void> {
    const signed = await this.signedIn(request);
    if (!signed) return void (await reply.redirect('/portal/login', 303));
    const form = (request.body ?? {}) as Form;
    if (request.method === 'POST' && !this.auth.csrfValid(signed.sessionId, form._csrf)) {
      const text = 'This form was not sent from this portal, or it expired. Nothing was changed; please try again.';
      return send(reply, renderPortal('notice', { title: 'Form expired', text, back: '/portal/', csrf: signed.csrf }, 403));
    }
    let answer: PortalAnswer;
    try {
      answer = await page(signed, form);
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
