import { Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../../app.setup.js';
import { AppConfig } from '../../config/app-config.js';
import type { SecretPathRouteConfig } from '../../logging.js';
import { PortalFormExpired, sendPortal } from '../portal-http.js';
import type { Form } from '../portal-page.js';
import { renderPortal } from '../portal-pages.js';
import { preSessionCsrf, preSessionCsrfValid } from '../portal-session.js';
import { PortalAuthService } from '../portal-auth.service.js';
import { PortalRoutes } from '../routes/portal-routes.js';
import { SignInRateLimit } from '../sign-in-rate-limit.js';
import { renderAccountPage } from './account-pages.js';
import { SignInUnlock } from './sign-in-unlock.service.js';

/** An unlock link's token is a credential: the request log writes these routes' pattern, never their path. */
const UNLOCK_PAGE: SecretPathRouteConfig = { secretInPath: true };
const UNLOCK_FORM: PlatformRouteConfig & SecretPathRouteConfig = { acceptsForm: true, secretInPath: true };

/**
 * /portal/unlock/<token>: the e-mailed link that clears a sign-in lock. Opening it shows a button
 * (a mail scanner that fetches the link unlocks nothing); the button's form, with the pre-session
 * CSRF token, unlocks. Each open and post counts against the client IP's sign-in limit, as any
 * credential's try.
 */
@PortalRoutes()
export class SignInUnlockController {
  constructor(
    private readonly unlock: SignInUnlock,
    private readonly auth: PortalAuthService,
    private readonly signInLimit: SignInRateLimit,
    private readonly config: AppConfig,
  ) {}

  @Get('unlock/done')
  done(@Res() reply: FastifyReply): Promise<void> {
    const text = 'Sign-in with your e-mail is unlocked, and this network may sign in even while others keep guessing. Sign in now.';
    return sendPortal(reply, renderAccountPage('notice', { title: 'Sign-in unlocked', text, back: '/portal/login' }));
  }

  // `/portal/unlock/<token>/` (a trailing slash, or more) is the same link: routed here too, so its token is not logged either.
  @Get(['unlock/:token', 'unlock/*'])
  @RouteConfig(UNLOCK_PAGE)
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signInLimit.consume(request.ip);
    const token = unlockTokenOf(request);
    if (!(await this.unlock.isOpen(token))) return this.linkClosed(reply);
    // The page's address holds the token: kept by no cache.
    void reply.header('cache-control', 'no-store');
    const csrf = preSessionCsrf(this.auth, request, reply, this.config.secureCookies);
    return sendPortal(reply, renderAccountPage('unlock', { csrf, action: `/portal/unlock/${encodeURIComponent(token)}` }));
  }

  @Post(['unlock/:token', 'unlock/*'])
  @RouteConfig(UNLOCK_FORM)
  async use(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.signInLimit.consume(request.ip);
    if (!preSessionCsrfValid(this.auth, request, ((request.body ?? {}) as Form)._csrf)) throw new PortalFormExpired('/portal/login');
    if (!(await this.unlock.unlock(unlockTokenOf(request), request.ip))) return this.linkClosed(reply);
    await reply.redirect('/portal/unlock/done', 303);
  }

  private linkClosed(reply: FastifyReply): Promise<void> {
    const text = 'This unlock link was used already, was replaced by a newer one, or has expired (links work for 1 hour). A lock also ends by itself.';
    return sendPortal(reply, renderPortal('notice', { title: 'Link not valid', text, back: '/portal/login' }, 404));
  }
}

/** The token of `/portal/unlock/<token>` — also of `/portal/unlock/<token>/…`, the wildcard route's. */
function unlockTokenOf(request: FastifyRequest): string {
  const params = request.params as { token?: string; '*'?: string };
  return params.token ?? (params['*'] ?? '').split('/', 1)[0];
}
