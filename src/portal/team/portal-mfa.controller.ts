import { Body, Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config.js';
import { cookieOf, portalCookie } from '../cookies.js';
import { PortalAuthService, SESSION_IDLE_MS } from '../portal-auth.service.js';
import { FORM, PortalFormExpired, PortalRedirect, PRE_COOKIE, SESSION_COOKIE, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { renderPortal } from '../portal-pages.js';
import { MFA_ENROLMENT_PATH, PortalBeforeMfa, PortalPermission } from '../portal-role.guard.js';
import { PortalSudo } from '../portal-sudo.guard.js';
import { preSessionCsrf, preSessionCsrfValid } from '../portal-session.js';
import { PortalRoutes, SignedInPortalRoutes } from '../routes/portal-routes.js';
import { lockedText, SignInLockout } from '../sign-in-lockout.js';
import { SignInRateLimit } from '../sign-in-rate-limit.js';
import { PortalMfaPages } from './portal-mfa.pages.js';
import { PortalSecondFactor, SECOND_FACTOR_COOKIE } from './portal-second-factor.service.js';

/**
 * /portal/account/mfa: a member's own two-factor sign-in (turn on with a QR code and a first code,
 * recovery codes shown once; new recovery codes; turn off with a code), and the owner's "MFA
 * required" setting. Changing the member's own factors needs their password within the last 5
 * minutes (PortalSudo). A member whose account requires MFA reaches these pages before any other
 * (PortalBeforeMfa).
 */
@SignedInPortalRoutes()
@PortalBeforeMfa()
export class PortalMfaController {
  constructor(private readonly pages: PortalMfaPages) {}

  @Get('account/mfa')
  async page(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.settings(signed));
  }

  @Post('account/mfa/start')
  @PortalSudo(MFA_ENROLMENT_PATH)
  @RouteConfig(FORM)
  async start(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    // The page holds the secret: kept by no cache.
    void reply.header('cache-control', 'no-store');
    return sendPortal(reply, await this.pages.start(signed));
  }

  @Post('account/mfa/confirm')
  @PortalSudo(MFA_ENROLMENT_PATH)
  @RouteConfig(FORM)
  async confirm(@SignedIn() signed: Signed, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    // The recovery codes (or the secret again, after a wrong code) are in this answer only.
    void reply.header('cache-control', 'no-store');
    return sendPortal(reply, await this.pages.confirm(signed, form));
  }

  @Post('account/mfa/recovery-codes')
  @PortalSudo(MFA_ENROLMENT_PATH)
  @RouteConfig(FORM)
  async recoveryCodes(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    // The new recovery codes are in this answer only.
    void reply.header('cache-control', 'no-store');
    return sendPortal(reply, await this.pages.newRecoveryCodes(signed));
  }

  @Post('account/mfa/remove')
  @PortalSudo(MFA_ENROLMENT_PATH)
  @RouteConfig(FORM)
  async remove(@SignedIn() signed: Signed, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.remove(signed, form));
  }

  @Post('account/mfa/required')
  @PortalPermission('owners:manage')
  @RouteConfig(FORM)
  async required(@SignedIn() signed: Signed, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.setRequired(signed, form));
  }
}

/**
 * /portal/login/code: the sign-in's second step, after the right password of a member with MFA
 * (the ticket cookie PortalSecondFactor issued, good for one session). Each try counts against the
 * client IP's sign-in limit, and the lockout of the e-mail and network; the session starts only once a code passes.
 */
@PortalRoutes()
export class PortalSecondFactorController {
  constructor(
    private readonly secondFactor: PortalSecondFactor,
    private readonly auth: PortalAuthService,
    private readonly signInLimit: SignInRateLimit,
    private readonly lockout: SignInLockout,
    private readonly config: AppConfig,
  ) {}

  @Get('login/code')
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!(await this.secondFactor.isOpen(cookieOf(request.headers.cookie, SECOND_FACTOR_COOKIE)))) throw new PortalRedirect('/portal/login');
    return sendPortal(reply, renderPortal('login-code', { csrf: preSessionCsrf(this.auth, request, reply, this.config.secureCookies) }));
  }

  @Post('login/code')
  @RouteConfig(FORM)
  async code(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signInLimit.consume(request.ip);
    const form = (request.body ?? {}) as Form;
    if (!preSessionCsrfValid(this.auth, request, form._csrf)) throw new PortalFormExpired('/portal/login');
    const code = typeof form.code === 'string' ? form.code : '';
    const outcome = await this.secondFactor.exchange(cookieOf(request.headers.cookie, SECOND_FACTOR_COOKIE), code, request.ip);
    if (outcome.kind === 'expired') {
      const text = 'This sign-in step has ended: its 5 minutes ran out, it was used already, or the password changed meanwhile. Sign in again.';
      return sendPortal(reply, renderPortal('notice', { title: 'Sign in again', text, back: '/portal/login' }, 401));
    }
    if (outcome.kind === 'signed-in') {
      await reply
        .header('set-cookie', [
          portalCookie(SESSION_COOKIE, outcome.sessionId, this.config.secureCookies, SESSION_IDLE_MS / 1000),
          portalCookie(SECOND_FACTOR_COOKIE, '', this.config.secureCookies, 0),
          portalCookie(PRE_COOKIE, '', this.config.secureCookies, 0),
        ])
        .redirect('/portal/', 303);
      return;
    }
    const error =
      outcome.kind === 'locked'
        ? lockedText(outcome.by, 'codes', this.lockout.mailsUnlockLinks)
        : 'That code is not valid. A code works once, within 30 seconds of its time; a recovery code works once.';
    const status = outcome.kind === 'locked' ? 429 : 401;
    return sendPortal(reply, renderPortal('login-code', { csrf: preSessionCsrf(this.auth, request, reply, this.config.secureCookies), error }, status));
  }
}
