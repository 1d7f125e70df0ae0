import { Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../../app.setup.js';
import { AppConfig } from '../../config/app-config.js';
import type { SecretPathRouteConfig } from '../../logging.js';
import { MAX_PASSWORD_LENGTH } from '../account/account-forms.js';
import { portalCookie } from '../cookies.js';
import { MIN_PASSWORD_LENGTH, PortalAuthService, SESSION_IDLE_MS } from '../portal-auth.service.js';
import { PortalFormExpired, PRE_COOKIE, SESSION_COOKIE, sendPortal } from '../portal-http.js';
import type { Form } from '../portal-page.js';
import { renderPortal } from '../portal-pages.js';
import { preSessionCsrf, preSessionCsrfValid } from '../portal-session.js';
import { PortalRoutes } from '../routes/portal-routes.js';
import { SignInRateLimit } from '../sign-in-rate-limit.js';
import { PortalJoinService } from './portal-join.service.js';

/** An invitation's token is a credential: the request log writes these routes' pattern, never their path. */
const JOIN_PAGE: SecretPathRouteConfig = { secretInPath: true };
const JOIN_FORM: PlatformRouteConfig & SecretPathRouteConfig = { acceptsForm: true, secretInPath: true };

const MESSAGES = {
  'wrong-email': 'This invitation is for another e-mail address: type the address it was sent to.',
  'already-member': 'This e-mail address is a member of an account already.',
};

/**
 * /portal/join/<token>: the page an invitation's link opens. It shows the account and the role;
 * the invitee types the invited e-mail and a password of their own, and is signed in. Each try
 * counts against the client IP's sign-in limit (429 page past it), like the invite and login forms.
 */
@PortalRoutes()
export class PortalJoinController {
  constructor(
    private readonly join: PortalJoinService,
    private readonly auth: PortalAuthService,
    private readonly signInLimit: SignInRateLimit,
    private readonly config: AppConfig,
  ) {}

  @Get(['join/:token', 'join/*'])
  @RouteConfig(JOIN_PAGE)
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signInLimit.consume(request.ip);
    return this.joinPage(request, reply, tokenOf(request), {});
  }

  @Post(['join/:token', 'join/*'])
  @RouteConfig(JOIN_FORM)
  async accept(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signInLimit.consume(request.ip);
    const form = (request.body ?? {}) as Form;
    if (!preSessionCsrfValid(this.auth, request, form._csrf)) throw new PortalFormExpired('/portal/login');
    const token = tokenOf(request);
    const email = typeof form.email === 'string' ? form.email.trim().slice(0, 320) : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const retry = (error: string, status: number) => this.joinPage(request, reply, token, { email, error }, status);
    if (!email) return retry('Enter the e-mail address this invitation was sent to.', 400);
    if (password.length < MIN_PASSWORD_LENGTH) return retry(`The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`, 400);
    if (password.length > MAX_PASSWORD_LENGTH) return retry(`The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`, 400);
    if (password !== form.confirm) return retry('The two passwords differ.', 400);
    const outcome = await this.join.join(token, email, password, request.ip);
    if (outcome.kind === 'not-open' || outcome.kind === 'sso-required') return this.joinPage(request, reply, token, {});
    if (outcome.kind !== 'joined') return retry(MESSAGES[outcome.kind], outcome.kind === 'wrong-email' ? 403 : 409);
    await reply
      .header('set-cookie', [
        portalCookie(SESSION_COOKIE, outcome.sessionId, this.config.secureCookies, SESSION_IDLE_MS / 1000),
        portalCookie(PRE_COOKIE, '', this.config.secureCookies, 0),
      ])
      .redirect('/portal/', 303);
  }

  private async joinPage(request: FastifyRequest, reply: FastifyReply, token: string, data: Record<string, unknown>, status = 200): Promise<void> {
    const invitation = await this.join.invitation(token);
    if (!invitation) {
      const text =
        'This invitation was used already, has expired (links work for 7 days) or was revoked, or the member who sent it may no longer give its role. Ask the account for a new one.';
      return sendPortal(reply, renderPortal('notice', { title: 'Invitation not valid', text, back: '/portal/login' }, 404));
    }
    // The page's address holds the token: kept by no cache.
    void reply.header('cache-control', 'no-store');
    if (invitation.ssoRequired) {
      const text =
        'This account requires single sign-on: no password is set here. Use "Sign in with SSO" with the invited address: your account is created at your first sign-in through your company\'s identity provider.';
      return sendPortal(reply, renderPortal('notice', { title: 'Join with single sign-on', text, back: '/portal/sso' }, 403));
    }
    const csrf = preSessionCsrf(this.auth, request, reply, this.config.secureCookies);
    const action = `/portal/join/${encodeURIComponent(token)}`;
    return sendPortal(reply, renderPortal('join', { csrf, action, minLength: MIN_PASSWORD_LENGTH, ...invitation, ...data }, status));
  }
}

/** The token of `/portal/join/<token>` — also of `/portal/join/<token>/…`, the wildcard route's. */
function tokenOf(request: FastifyRequest): string {
  const params = request.params as { token?: string; '*'?: string };
  return params.token ?? (params['*'] ?? '').split('/', 1)[0];
}
