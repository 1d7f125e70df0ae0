import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { cookieOf, portalCookie } from './cookies.js';
import type { PortalAuthService } from './portal-auth.service.js';
import type { Signed } from './portal-page.js';
import { PORTAL_CONTENT_SECURITY_POLICY, type PortalHtml } from './portal-pages.js';

/** The portal's session cookie: a random id whose hash is the session's row. */
export const SESSION_COOKIE = 'portal_session';
/** Before sign-in, forms' CSRF tokens are bound to this random cookie (a signed double submit). */
export const PRE_COOKIE = 'portal_pre';

/** The signed-in member of a request, or null (no session cookie, its session ended or idled out, or the member was removed). */
export async function signedInOf(auth: PortalAuthService, request: FastifyRequest): Promise<Signed | null> {
  const sessionId = cookieOf(request.headers.cookie, SESSION_COOKIE);
  const member = await auth.sessionMember(sessionId);
  return member && sessionId ? { ...member, sessionId, csrf: auth.csrfToken(sessionId), ip: request.ip } : null;
}

/** The pre-session cookie (set on the reply if the request had none) and the CSRF token bound to it. */
export function preSessionCsrf(auth: PortalAuthService, request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  let pre = cookieOf(request.headers.cookie, PRE_COOKIE);
  if (!pre) {
    pre = randomBytes(18).toString('base64url');
    void reply.header('set-cookie', portalCookie(PRE_COOKIE, pre, secure));
  }
  return auth.csrfToken(pre);
}

/** Whether a signed-out form's `_csrf` matches the request's pre-session cookie. */
export function preSessionCsrfValid(auth: PortalAuthService, request: FastifyRequest, token: unknown): boolean {
  return auth.csrfValid(cookieOf(request.headers.cookie, PRE_COOKIE), token);
}

/** A portal page with the portal's headers (CSP, nosniff, same-origin referrers, no caching unless set). */
export async function sendPortalPage(reply: FastifyReply, page: PortalHtml): Promise<void> {
  await reply
    .status(page.status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': PORTAL_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': reply.getHeader('cache-control') ?? 'no-cache',
      ...page.headers,
    })
    .send(page.html);
}
