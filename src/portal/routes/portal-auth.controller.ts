import { Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../../app.setup.js';
import { AppConfig } from '../../config/app-config.js';
import type { SecretPathRouteConfig } from '../../logging.js';
import { RateLimitError } from '../../rate-limit/rate-limit.errors.js';
import { portalCookie } from '../cookies.js';
import { MIN_PASSWORD_LENGTH, PortalAuthService, SESSION_IDLE_MS } from '../portal-auth.service.js';
import { FORM, PortalFormExpired, PRE_COOKIE, SESSION_COOKIE, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { HTMX_JS, PORTAL_CSS, renderPortal } from '../portal-pages.js';
import { preSessionCsrf, preSessionCsrfValid } from '../portal-session.js';
import { PortalSessionGuard } from '../portal-session.guard.js';
import { lockedText, SignInLockout } from '../sign-in-lockout.js';
import { SignInRateLimit } from '../sign-in-rate-limit.js';
import { PortalSecondFactor, sendToSecondFactor } from '../team/portal-second-factor.service.js';
import { PortalRoutes } from './portal-routes.js';

/** An invite's token is a credential: the request log writes these routes' pattern (`/portal/invite/:token`), never their path. */
const INVITE_PAGE: SecretPathRouteConfig = { secretInPath: true };
const INVITE_FORM: PlatformRouteConfig & SecretPathRouteConfig = { acceptsForm: true, secretInPath: true };
const SSO_REQUIRED_MESSAGE = 'Your account requires single sign-on: passwords are turned off. Use "Sign in with SSO" with your company\'s identity provider.';
/** Longer than any e-mail address (RFC 5321): such a sign-in matches no account, without a lookup. */
const MAX_EMAIL_LENGTH = 320;

/**
 * Signing in and out: the login form, invites (a password set once), sign-out, and the portal's own
 * assets. Each try of a credential (a sign-in, an invite opened or accepted) counts against the client
 * IP's sign-in limit first (429 page past it). Before sign-in, the forms' CSRF tokens are bound to a
 * random cookie (PRE_COOKIE); a form without its token answers the 403 page.
 */
@PortalRoutes()
export class PortalAuthController {
  constructor(
    private readonly auth: PortalAuthService,
    private readonly signInLimit: SignInRateLimit,
    private readonly secondFactor: PortalSecondFactor,
    private readonly lockout: SignInLockout,
    private readonly config: AppConfig,
  ) {}

  @Get('assets/htmx.min.js')
  async htmx(@Res() reply: FastifyReply): Promise<void> {
    await reply.status(200).headers({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' }).send(HTMX_JS);
  }

  @Get('assets/portal.css')
  async css(@Res() reply: FastifyReply): Promise<void> {
    await reply.status(200).headers({ 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' }).send(PORTAL_CSS);
  }

  @Get('login')
  loginPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, renderPortal('login', { csrf: this.preCsrf(request, reply) }));
  }

  @Post('login')
  @RouteConfig(FORM)
  async login(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.tooManyTries(request, reply)) return;
    const form = this.preForm(request);
    const email = typeof form.email === 'string' ? form.email : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const outcome = email.length <= MAX_EMAIL_LENGTH ? await this.auth.login(email, password, request.ip) : { kind: 'invalid' as const };
    if (outcome.kind === 'signed-in') return this.startSession(reply, outcome.sessionId);
    if (outcome.kind === 'second-factor') return sendToSecondFactor(reply, await this.secondFactor.ticket(outcome), this.config.secureCookies);
    const error =
      outcome.kind === 'locked'
        ? lockedText(outcome.by, 'passwords', this.lockout.mailsUnlockLinks)
        : outcome.kind === 'invalid'
          ? 'That e-mail and password do not match an account.'
          : SSO_REQUIRED_MESSAGE;
    const status = { locked: 429, invalid: 401, 'sso-required': 403 }[outcome.kind];
    return sendPortal(reply, renderPortal('login', { csrf: this.preCsrf(request, reply), email, error }, status));
  }

  @Post('logout')
  @RouteConfig(FORM)
  @UseGuards(PortalSessionGuard)
  async logout(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    await this.auth.logout(signed.sessionId);
    await reply.header('set-cookie', portalCookie(SESSION_COOKIE, '', this.config.secureCookies, 0)).redirect('/portal/login', 303);
  }

  // `/portal/invite/<token>/` (a trailing slash, or more) is the same invite: routed here too (`invite/*`), so its token is not logged either.
  @Get(['invite/:token', 'invite/*'])
  @RouteConfig(INVITE_PAGE)
  async invite(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.tooManyTries(request, reply)) return;
    return this.invitePage(request, reply, inviteTokenOf(request));
  }

  @Post(['invite/:token', 'invite/*'])
  @RouteConfig(INVITE_FORM)
  async acceptInvite(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.tooManyTries(request, reply)) return;
    const form = this.preForm(request);
    const token = inviteTokenOf(request);
    const password = typeof form.password === 'string' ? form.password : '';
    if (password.length < MIN_PASSWORD_LENGTH)
      return this.invitePage(request, reply, token, `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`, 400);
    if (password !== form.confirm) return this.invitePage(request, reply, token, 'The two passwords differ.', 400);
    const outcome = await this.auth.acceptInvite(token, password, request.ip);
    if (!outcome) return this.invitePage(request, reply, token);
    if (outcome.kind === 'signed-in') return this.startSession(reply, outcome.sessionId);
    if (outcome.kind === 'second-factor') return sendToSecondFactor(reply, await this.secondFactor.ticket(outcome), this.config.secureCookies);
    // The password is set, but the account requires single sign-on: the same answer as the login form's.
    return sendPortal(reply, renderPortal('login', { csrf: this.preCsrf(request, reply), error: SSO_REQUIRED_MESSAGE }, 403));
  }

  private async invitePage(request: FastifyRequest, reply: FastifyReply, token: string, error?: string, status = 200): Promise<void> {
    if (!(await this.auth.inviteIsOpen(token))) {
      return sendPortal(
        reply,
        renderPortal(
          'notice',
          { title: 'Invite not valid', text: 'This invite was used already or has expired. Ask your operator for a new one.', back: '/portal/login' },
          404,
        ),
      );
    }
    return sendPortal(
      reply,
      renderPortal('invite', { csrf: this.preCsrf(request, reply), action: `/portal/invite/${encodeURIComponent(token)}`, error }, status),
    );
  }

  /** The form of a signed-out page, once its CSRF token matched the pre-session cookie (else the 403 page). */
  private preForm(request: FastifyRequest): Form {
    const form = (request.body ?? {}) as Form;
    if (!preSessionCsrfValid(this.auth, request, form._csrf)) throw new PortalFormExpired('/portal/login');
    return form;
  }

  private async startSession(reply: FastifyReply, sessionId: string): Promise<void> {
    await reply
      .header('set-cookie', [
        portalCookie(SESSION_COOKIE, sessionId, this.config.secureCookies, SESSION_IDLE_MS / 1000),
        portalCookie(PRE_COOKIE, '', this.config.secureCookies, 0),
      ])
      .redirect('/portal/', 303);
  }

  /** The pre-session cookie (made if missing) and the CSRF token bound to it. */
  private preCsrf(request: FastifyRequest, reply: FastifyReply): string {
    return preSessionCsrf(this.auth, request, reply, this.config.secureCookies);
  }

  /** Counts a try of a credential against the client IP's sign-in limit; past it, answers the 429 page (true: answered). */
  private async tooManyTries(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    try {
      await this.signInLimit.consume(request.ip);
      return false;
    } catch (err) {
      if (!(err instanceof RateLimitError)) throw err;
      const page = renderPortal(
        'notice',
        { title: 'Too many attempts', text: 'Too many sign-in attempts came from your network. Wait a minute, then try again.', back: '/portal/login' },
        429,
      );
      await sendPortal(reply, { ...page, headers: err.extras.headers });
      return true;
    }
  }
}

/** The invite token of `/portal/invite/<token>` — also of `/portal/invite/<token>/…`, the wildcard route's. */
function inviteTokenOf(request: FastifyRequest): string {
  const params = request.params as { token?: string; '*'?: string };
  return params.token ?? (params['*'] ?? '').split('/', 1)[0];
}
