import { Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FORM, queryOf, sendPortal, SignedIn } from '../portal-http.js';
import { chrome, type Form, type Signed } from '../portal-page.js';
import { PortalBeforeMfa } from '../portal-role.guard.js';
import type { PortalHtml } from '../portal-pages.js';
import { safeReturnPath } from '../portal-sudo.guard.js';
import { SignedInPortalRoutes } from '../routes/portal-routes.js';
import { lockedText, SignInLockout } from '../sign-in-lockout.js';
import { SignInRateLimit } from '../sign-in-rate-limit.js';
import { ConfirmPasswordForm, validateForm } from './account-forms.js';
import { renderAccountPage } from './account-pages.js';
import { ReauthenticationService } from './reauthentication.service.js';

/**
 * /portal/account/confirm-password: sudo mode's "confirm your password" page, where PortalSudo sends
 * a member whose password is more than 5 minutes old; once it is typed, back to the page they were
 * on (`?return=`, a path of the portal only). Each try counts against the client IP's sign-in limit
 * and the sign-in lockout. Reached before MFA enrolment (enrolling needs it).
 */
@SignedInPortalRoutes()
@PortalBeforeMfa()
export class ConfirmPasswordController {
  constructor(
    private readonly reauth: ReauthenticationService,
    private readonly signInLimit: SignInRateLimit,
    private readonly lockout: SignInLockout,
  ) {}

  @Get('account/confirm-password')
  async page(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.view(signed, safeReturnPath(queryOf(request, 'return')), {}));
  }

  @Post('account/confirm-password')
  @RouteConfig(FORM)
  async confirm(@SignedIn() signed: Signed, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signInLimit.consume(request.ip);
    const body = (request.body ?? {}) as Form;
    const returnTo = safeReturnPath(body.return);
    const form = validateForm(ConfirmPasswordForm, body);
    if (!form.ok) return sendPortal(reply, await this.view(signed, returnTo, { errors: form.errors }, 400));
    const outcome = await this.reauth.confirm(signed, form.value.password);
    if (outcome.kind === 'confirmed') return void (await reply.redirect(returnTo, 303));
    if (outcome.kind === 'no-password') return sendPortal(reply, await this.view(signed, returnTo, {}, 400));
    const locked = outcome.kind === 'locked';
    const error = locked ? lockedText(outcome.by, 'passwords', this.lockout.mailsUnlockLinks) : 'That is not your password.';
    return sendPortal(reply, await this.view(signed, returnTo, { errors: { password: error } }, locked ? 429 : 400));
  }

  private async view(signed: Signed, returnTo: string, data: Record<string, unknown>, status = 200): Promise<PortalHtml> {
    const hasPassword = await this.reauth.hasPassword(signed.memberId);
    return renderAccountPage('confirm-password', { ...chrome(signed), email: signed.email, hasPassword, returnTo, ...data }, status);
  }
}
