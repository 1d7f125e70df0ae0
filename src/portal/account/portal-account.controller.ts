import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../../app.setup.js';
import { Public } from '../../common/http/public.decorator.js';
import { AppConfig } from '../../config/app-config.js';
import type { SecretPathRouteConfig } from '../../logging.js';
import { RateLimitError } from '../../rate-limit/rate-limit.errors.js';
import { portalCookie } from '../cookies.js';
import { MIN_PASSWORD_LENGTH, PortalAuthService } from '../portal-auth.service.js';
import { chrome, type Form, type Signed } from '../portal-page.js';
import type { PortalHtml } from '../portal-pages.js';
import { lockedText, SignInLockout } from '../sign-in-lockout.js';
import { preSessionCsrf, preSessionCsrfValid, sendPortalPage, SESSION_COOKIE, signedInOf } from '../portal-session.js';
import { ChangePasswordForm, ForgotPasswordForm, NewPasswordForm, validateForm } from './account-forms.js';
import { renderAccountPage } from './account-pages.js';
import { PasswordResetService } from './password-reset.service.js';
import { PortalAccountService } from './portal-account.service.js';

const FORM: PlatformRouteConfig = { acceptsForm: true };
/** A reset link's token is a credential: the request log writes these routes' pattern, never their path. */
const RESET_PAGE: SecretPathRouteConfig = { secretInPath: true };
const RESET_FORM: PlatformRouteConfig & SecretPathRouteConfig = { acceptsForm: true, secretInPath: true };

/**
 * The developer's own login in the portal: the account page (change password, sign out
 * everywhere), and "forgot password" (a reset link by e-mail, the page it opens). Static routes
 * under /portal/, so Fastify picks them over the portal's catch-all. Signed-in forms carry the
 * session's CSRF token, signed-out ones the pre-session cookie's; a form without it answers a 403
 * page and changes nothing. Every form works without JavaScript (a 303 after a change).
 */
@ApiExcludeController()
@Public()
@Controller('portal')
export class PortalPasswordController {
  constructor(
    private readonly auth: PortalAuthService,
    private readonly account: PortalAccountService,
    private readonly resets: PasswordResetService,
    private readonly lockout: SignInLockout,
    private readonly config: AppConfig,
  ) {}

  @Get('account')
  async accountPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const signed = await signedInOf(this.auth, request);
    if (!signed) return void (await reply.redirect('/portal/login', 303));
    const done = new URL(request.url, 'http://portal.invalid').searchParams.get('done');
    const message = done === 'password' ? 'Your password was changed, and your other sessions were signed out.' : undefined;
    return sendPortalPage(reply, await this.accountView(signed, { message }));
  }

  @Post('account/password')
  @RouteConfig(FORM)
  async changePassword(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const signed = await signedInOf(this.auth, request);
    if (!signed) return void (await reply.redirect('/portal/login', 303));
    const body = (request.body ?? {}) as Form;
    if (!this.auth.csrfValid(signed.sessionId, body._csrf)) return this.formExpired(reply, '/portal/account', signed.csrf);
    const form = validateForm(ChangePasswordForm, body);
    if (!form.ok) return sendPortalPage(reply, await this.accountView(signed, { errors: form.errors }, 400));
    const outcome = await this.account.changePassword(signed.accountId, signed.memberId, signed.sessionId, form.value.current, form.value.password, request.ip);
    if (outcome.kind === 'changed') return void (await reply.redirect('/portal/account?done=password', 303));
    const errors =
      outcome.kind === 'locked'
        ? { current: lockedText(outcome.by, 'passwords', this.lockout.mailsUnlockLinks) }
        : { current: 'That is not your current password.' };
    return sendPortalPage(reply, await this.accountView(signed, { errors }, outcome.kind === 'locked' ? 429 : 400));
  }

  @Post('account/sign-out-everywhere')
  @RouteConfig(FORM)
  async signOutEverywhere(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const signed = await signedInOf(this.auth, request);
    if (!signed) return void (await reply.redirect('/portal/login', 303));
    if (!this.auth.csrfValid(signed.sessionId, ((request.body ?? {}) as Form)._csrf)) return this.formExpired(reply, '/portal/account', signed.csrf);
    await this.account.signOutEverywhere(signed.memberId);
    await reply.header('set-cookie', portalCookie(SESSION_COOKIE, '', this.config.secureCookies, 0)).redirect('/portal/login', 303);
  }

  @Get('forgot-password')
  forgotPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortalPage(reply, this.forgotView(request, reply, {}));
  }

  @Post('forgot-password')
  @RouteConfig(FORM)
  async forgot(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = (request.body ?? {}) as Form;
    if (!preSessionCsrfValid(this.auth, request, body._csrf)) return this.formExpired(reply, '/portal/forgot-password');
    if (!this.resets.available) return sendPortalPage(reply, this.forgotView(request, reply, {}, 503));
    const form = validateForm(ForgotPasswordForm, body);
    if (!form.ok) {
      const email = typeof form.value.email === 'string' ? form.value.email.slice(0, 320) : '';
      return sendPortalPage(reply, this.forgotView(request, reply, { email, errors: form.errors }, 400));
    }
    try {
      await this.resets.request(form.value.email, request.ip);
    } catch (err) {
      if (!(err instanceof RateLimitError)) throw err;
      return this.tooMany(reply, err, 'Too many reset links were asked for, from your network or for this address.');
    }
    await reply.redirect('/portal/forgot-password/sent', 303);
  }

  @Get('forgot-password/sent')
  sentPage(@Res() reply: FastifyReply): Promise<void> {
    return sendPortalPage(
      reply,
      renderAccountPage('notice', {
        title: 'Check your e-mail',
        text: 'If an account signs in with that address, a link to set a new password is on its way to it. The link works once, within 1 hour.',
        back: '/portal/login',
      }),
    );
  }

  @Get('reset-password/done')
  donePage(@Res() reply: FastifyReply): Promise<void> {
    return sendPortalPage(
      reply,
      renderAccountPage('notice', {
        title: 'Password changed',
        text: 'Your new password is set, and every session of your login was signed out. Sign in with the new password.',
        back: '/portal/login',
      }),
    );
  }

  // `/portal/reset-password/<token>/` (a trailing slash, or more) is the same link: routed here too, so its token is not logged either.
  @Get(['reset-password/:token', 'reset-password/*'])
  @RouteConfig(RESET_PAGE)
  async resetPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.tooManyTries(request, reply)) return;
    const token = resetTokenOf(request);
    if (!(await this.resets.isOpen(token))) return this.linkClosed(reply);
    return sendPortalPage(reply, this.resetView(request, reply, token, {}));
  }

  @Post(['reset-password/:token', 'reset-password/*'])
  @RouteConfig(RESET_FORM)
  async reset(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.tooManyTries(request, reply)) return;
    const token = resetTokenOf(request);
    const body = (request.body ?? {}) as Form;
    if (!preSessionCsrfValid(this.auth, request, body._csrf)) return this.formExpired(reply, '/portal/forgot-password');
    const form = validateForm(NewPasswordForm, body);
    if (!form.ok) {
      if (!(await this.resets.isOpen(token))) return this.linkClosed(reply);
      return sendPortalPage(reply, this.resetView(request, reply, token, { errors: form.errors }, 400));
    }
    if (!(await this.resets.reset(token, form.value.password))) return this.linkClosed(reply);
    // Signed out everywhere: this browser's session cookie goes too.
    await reply.header('set-cookie', portalCookie(SESSION_COOKIE, '', this.config.secureCookies, 0)).redirect('/portal/reset-password/done', 303);
  }

  private async accountView(signed: Signed, data: Record<string, unknown>, status = 200): Promise<PortalHtml> {
    const summary = await this.account.summary(signed.memberId);
    return renderAccountPage('account', { ...chrome(signed), email: signed.email, minLength: MIN_PASSWORD_LENGTH, ...summary, ...data }, status);
  }

  private forgotView(request: FastifyRequest, reply: FastifyReply, data: Record<string, unknown>, status = 200): PortalHtml {
    const available = this.resets.available;
    const csrf = available ? preSessionCsrf(this.auth, request, reply, this.config.secureCookies) : undefined;
    return renderAccountPage('forgot-password', { available, csrf, ...data }, status);
  }

  private resetView(request: FastifyRequest, reply: FastifyReply, token: string, data: Record<string, unknown>, status = 200): PortalHtml {
    // The page's address holds the token: kept by no cache.
    void reply.header('cache-control', 'no-store');
    const action = `/portal/reset-password/${encodeURIComponent(token)}`;
    return renderAccountPage(
      'reset-password',
      { csrf: preSessionCsrf(this.auth, request, reply, this.config.secureCookies), action, minLength: MIN_PASSWORD_LENGTH, ...data },
      status,
    );
  }

  private linkClosed(reply: FastifyReply): Promise<void> {
    return sendPortalPage(
      reply,
      renderAccountPage(
        'notice',
        {
          title: 'Link not valid',
          text: 'This reset link was used already, was replaced by a newer password, or has expired (links work for 1 hour). Ask for a new one.',
          back: '/portal/forgot-password',
        },
        404,
      ),
    );
  }

  /** Counts a try of a reset link against the client's sign-in limit; past it, answers the 429 page (true: answered). */
  private async tooManyTries(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    try {
      await this.resets.countTry(request.ip);
      return false;
    } catch (err) {
      if (!(err instanceof RateLimitError)) throw err;
      await this.tooMany(reply, err, 'Too many sign-in attempts came from your network.');
      return true;
    }
  }

  /** The 429 page, with the limit's Retry-After (the seconds until its window ends). */
  private tooMany(reply: FastifyReply, err: RateLimitError, what: string): Promise<void> {
    const headers = err.extras.headers as Record<string, string>;
    const seconds = Number(headers['x-ratelimit-reset'] ?? headers['retry-after'] ?? 60);
    const wait = seconds > 90 ? `${Math.ceil(seconds / 60)} minutes` : 'a minute';
    const page = renderAccountPage('notice', { title: 'Too many attempts', text: `${what} Wait ${wait}, then try again.`, back: '/portal/login' }, 429);
    return sendPortalPage(reply, { ...page, headers: { ...headers, 'retry-after': String(seconds) } });
  }

  private formExpired(reply: FastifyReply, back: string, csrf?: string): Promise<void> {
    return sendPortalPage(
      reply,
      renderAccountPage(
        'notice',
        { title: 'Form expired', text: 'This form was not sent from this portal, or it expired. Nothing was changed; please try again.', back, csrf },
        403,
      ),
    );
  }
}

/** The token of `/portal/reset-password/<token>` — also of `/portal/reset-password/<token>/…`, the wildcard route's. */
function resetTokenOf(request: FastifyRequest): string {
  const params = request.params as { token?: string; '*'?: string };
  return params.token ?? (params['*'] ?? '').split('/', 1)[0];
}
