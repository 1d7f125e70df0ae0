import { Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config.js';
import type { SecretPathRouteConfig } from '../../logging.js';
import { SsoSignInService, SSO_FLOW_TTL_MS } from '../../sso/sso-sign-in.service.js';
import { SsoError } from '../../sso/sso.errors.js';
import { cookieOf, portalCookie } from '../cookies.js';
import { PortalAuthService, SESSION_IDLE_MS } from '../portal-auth.service.js';
import { FORM, PortalFormExpired, sendPortal } from '../portal-http.js';
import type { Form } from '../portal-page.js';
import { renderPortal } from '../portal-pages.js';
import { PRE_COOKIE, preSessionCsrf, preSessionCsrfValid, SESSION_COOKIE } from '../portal-session.js';
import { PortalRoutes } from '../routes/portal-routes.js';
import { SignInRateLimit } from '../sign-in-rate-limit.js';
import { PortalSecondFactor, sendToSecondFactor } from '../team/portal-second-factor.service.js';

/** The browser's sealed flow (state, nonce, PKCE verifier) between "Sign in with SSO" and the provider's answer. */
export const SSO_FLOW_COOKIE = 'portal_sso';
/** The callback's query holds the authorization code: the request log writes the route's pattern only. */
const CALLBACK: SecretPathRouteConfig = { secretInPath: true };
const MAX_EMAIL_LENGTH = 320;

/**
 * "Sign in with SSO": the e-mail's domain names the account, the browser goes to its OpenID
 * provider and comes back to /portal/sso/callback, which starts a session. Each step counts
 * against the client IP's sign-in limit, as a password try does. A refusal (wrong audience,
 * issuer or nonce, an e-mail outside the allowed domains, another browser's answer…) is a page
 * that says what was wrong, and no session.
 */
@PortalRoutes()
export class PortalSsoController {
  constructor(
    private readonly sso: SsoSignInService,
    private readonly auth: PortalAuthService,
    private readonly signInLimit: SignInRateLimit,
    private readonly secondFactor: PortalSecondFactor,
    private readonly config: AppConfig,
  ) {}

  @Get('sso')
  page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, renderPortal('sso', { csrf: preSessionCsrf(this.auth, request, reply, this.config.secureCookies) }));
  }

  /** A form post carrying the pre-session CSRF token (as the login form): a link from another site starts no sign-in. */
  @Post('sso/start')
  @RouteConfig(FORM)
  async start(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signInLimit.consume(request.ip);
    const form = (request.body ?? {}) as Form;
    if (!preSessionCsrfValid(this.auth, request, form._csrf)) throw new PortalFormExpired('/portal/sso');
    const email = (typeof form.email === 'string' ? form.email : '').trim();
    const again = (error: string, status: number) =>
      sendPortal(reply, renderPortal('sso', { csrf: preSessionCsrf(this.auth, request, reply, this.config.secureCookies), email, error }, status));
    if (!email || email.length > MAX_EMAIL_LENGTH) return again('Enter your work e-mail address.', 400);
    try {
      const { url, flow } = await this.sso.start(email);
      void reply.header('set-cookie', portalCookie(SSO_FLOW_COOKIE, flow, this.config.secureCookies, SSO_FLOW_TTL_MS / 1000));
      return sendPortal(reply, renderPortal('sso', { redirectTo: url }));
    } catch (err) {
      if (!(err instanceof SsoError)) throw err;
      return again(err.message, err.status);
    }
  }

  @Get('sso/callback')
  @RouteConfig(CALLBACK)
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signInLimit.consume(request.ip);
    const params = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1 || request.url.length));
    // Used once, whatever the outcome.
    void reply.header('set-cookie', portalCookie(SSO_FLOW_COOKIE, '', this.config.secureCookies, 0));
    try {
      const { accountId, memberId, email, secondFactor } = await this.sso.finish(params, cookieOf(request.headers.cookie, SSO_FLOW_COOKIE), request.ip);
      // A member with MFA types a code next, as after a password: the provider alone never skips their second factor.
      if (secondFactor) return sendToSecondFactor(reply, await this.secondFactor.ticket({ accountId, memberId, email }), this.config.secureCookies);
      const sessionId = await this.auth.startSession(accountId, memberId);
      await reply
        .header('set-cookie', [
          portalCookie(SESSION_COOKIE, sessionId, this.config.secureCookies, SESSION_IDLE_MS / 1000),
          portalCookie(PRE_COOKIE, '', this.config.secureCookies, 0),
        ])
        .redirect('/portal/', 303);
    } catch (err) {
      if (!(err instanceof SsoError)) throw err;
      const page = renderPortal('notice', { title: 'Single sign-on refused', text: err.message, back: '/portal/sso' }, err.status);
      return sendPortal(reply, page);
    }
  }
}
