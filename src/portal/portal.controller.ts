import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { PlatformRouteConfig } from '../app.setup.js';
import { ApiKeysService } from '../auth/api-keys.service.js';
import { SCOPES } from '../common/request-context/scopes.js';
import { Public } from '../common/http/public.decorator.js';
import { AppConfig } from '../config/app-config.js';
import type { SecretPathRouteConfig } from '../logging.js';
import { RateLimitError } from '../rate-limit/rate-limit.errors.js';
import { cookieOf, portalCookie } from './cookies.js';
import { PortalAccountPages } from './portal-account.pages.js';
import { PortalAppsPages } from './portal-apps.pages.js';
import { Form, ignoreNotFound, PortalAnswer, portalActor, portalPrincipal, scopesOf, Signed } from './portal-page.js';
import { PortalWebhooksPages } from './portal-webhooks.pages.js';
import { MIN_PASSWORD_LENGTH, PortalAuthService, SESSION_IDLE_MS } from './portal-auth.service.js';
import { SignInRateLimit } from './sign-in-rate-limit.js';
import { HTMX_JS, PORTAL_CONTENT_SECURITY_POLICY, PORTAL_CSS, PortalHtml, renderPortal } from './portal-pages.js';

const FORM: PlatformRouteConfig = { acceptsForm: true };
/** An invite's token is a credential: the request log writes these routes' pattern (`/portal/invite/:token`), never their path. */
const INVITE_PAGE: SecretPathRouteConfig = { secretInPath: true };
const INVITE_FORM: PlatformRouteConfig & SecretPathRouteConfig = { acceptsForm: true, secretInPath: true };
const SESSION_COOKIE = 'portal_session';
/** Before sign-in, the login and invite forms' CSRF tokens are bound to this random cookie (a signed double submit). */
const PRE_COOKIE = 'portal_pre';

/**
 * The developer portal: server-rendered pages (Eta, no script) over the same services as the API.
 * One GET and one POST route, dispatched on the path (Nest would strip the trailing slash of
 * `/portal/`), and the invite's own routes (a token in the path: see INVITE_PAGE). Signed out,
 * every page but sign-in and invites redirects (303) to /portal/login; a form without its CSRF
 * token answers a 403 page and changes nothing. Each try of a credential (a sign-in, an invite
 * opened or accepted) counts against the client IP's sign-in limit first (429 page past it).
 */
@ApiExcludeController()
@Public()
@Controller('portal')
export class PortalController {
  private readonly secure: boolean;

  constructor(
    private readonly auth: PortalAuthService,
    private readonly apiKeys: ApiKeysService,
    private readonly appsPages: PortalAppsPages,
    private readonly webhooksPages: PortalWebhooksPages,
    private readonly account: PortalAccountPages,
    private readonly signInLimit: SignInRateLimit,
    config: AppConfig,
  ) {
    this.secure = config.publicUrl.startsWith('https://');
  }

  // `/portal/invite/<token>/` (a trailing slash, or more) is the same invite: routed here too (`invite/*`), so its token is not logged either.
  @Get(['invite/:token', 'invite/*'])
  @RouteConfig(INVITE_PAGE)
  async getInvite(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.tooManyTries(request, reply)) return;
    return this.invitePage(request, reply, inviteTokenOf(request));
  }

  @Post(['invite/:token', 'invite/*'])
  @RouteConfig(INVITE_FORM)
  async postInvite(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.tooManyTries(request, reply)) return;
    const form = (request.body ?? {}) as Form;
    if (!this.auth.csrfValid(cookieOf(request.headers.cookie, PRE_COOKIE), form._csrf)) return this.forbidden(reply, '/portal/login');
    return this.acceptInvite(request, reply, inviteTokenOf(request), form);
  }

  @Get('*')
  async get(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const path = pathOf(request);
    if (path === 'assets/htmx.min.js') {
      await reply.status(200).headers({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' }).send(HTMX_JS);
      return;
    }
    if (path === 'assets/portal.css') {
      await reply.status(200).headers({ 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' }).send(PORTAL_CSS);
      return;
    }
    if (path === 'login') return this.send(reply, renderPortal('login', { csrf: this.preCsrf(request, reply) }));
    const signed = await this.signedIn(request);
    if (!signed) return void (await reply.redirect('/portal/login', 303));
    const query = new URL(request.url, 'http://portal.invalid').searchParams;
    if (path === '') return this.answer(reply, await this.account.overview(signed));
    if (path === 'billing') return this.answer(reply, await this.account.billingPage(signed));
    if (path === 'events') return this.answer(reply, await this.account.eventsPage(signed));
    if (path === 'users') return this.answer(reply, await this.account.usersPage(signed, query.get('appId') ?? undefined));
    if (path === 'users.csv') {
      const csv = await this.account.usersCsv(signed, query.get('appId') ?? '');
      await reply
        .status(200)
        .headers({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="users.csv"', 'cache-control': 'no-store' })
        .send(csv);
      return;
    }
    if (path === 'service-accounts') return this.answer(reply, await this.account.serviceAccountsPage(signed));
    if (path === 'api-keys') return this.send(reply, await this.keysPage(signed));
    const done = query.get('done') ?? undefined;
    if (path === 'apps' || path.startsWith('apps/')) return this.answer(reply, await this.appsPages.get(signed, path.slice('apps'.length), { done }));
    if (path === 'webhooks' || path.startsWith('webhooks/'))
      return this.answer(reply, await this.webhooksPages.get(signed, path.slice('webhooks'.length), done));
    return this.send(
      reply,
      renderPortal('notice', { title: 'Not found', text: 'There is no page here.', back: '/portal/', nav: 'none', csrf: signed.csrf }, 404),
    );
  }

  @Post('*')
  @RouteConfig(FORM)
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const path = pathOf(request);
    const form = (request.body ?? {}) as Form;
    if (path === 'login') {
      if (await this.tooManyTries(request, reply)) return;
      if (!this.auth.csrfValid(cookieOf(request.headers.cookie, PRE_COOKIE), form._csrf)) return this.forbidden(reply, '/portal/login');
      return this.login(request, reply, form);
    }
    const signed = await this.signedIn(request);
    if (!signed) return void (await reply.redirect('/portal/login', 303));
    if (!this.auth.csrfValid(signed.sessionId, form._csrf)) return this.forbidden(reply, '/portal/', signed.csrf);
    if (path === 'logout') {
      await this.auth.logout(signed.sessionId);
      await reply.header('set-cookie', portalCookie(SESSION_COOKIE, '', this.secure, 0)).redirect('/portal/login', 303);
      return;
    }
    if (path === 'api-keys') return this.createKey(reply, signed, form);
    if (path === 'apps' || path.startsWith('apps/')) {
      const aborted = new AbortController();
      request.raw.once('close', () => aborted.abort());
      return this.answer(reply, await this.appsPages.post(signed, path.slice('apps'.length), form, aborted.signal));
    }
    if (path === 'webhooks' || path.startsWith('webhooks/'))
      return this.answer(reply, await this.webhooksPages.post(signed, path.slice('webhooks'.length), form));
    if (path === 'service-accounts') return this.answer(reply, await this.account.createServiceAccount(signed, form));
    const revokeAccount = /^service-accounts\/([^/]+)\/revoke$/.exec(path);
    if (revokeAccount) return this.answer(reply, await this.account.revokeServiceAccount(signed, revokeAccount[1]));
    const erase = /^users\/([^/]+)\/erase$/.exec(path);
    if (erase) return this.answer(reply, await this.account.eraseUser(signed, erase[1], form));
    const revoke = /^api-keys\/([^/]+)\/revoke$/.exec(path);
    if (revoke) {
      await this.apiKeys.revoke(signed.accountId, portalActor(signed), revoke[1]).catch(ignoreNotFound);
      return void (await reply.redirect('/portal/api-keys', 303));
    }
    return this.send(
      reply,
      renderPortal('notice', { title: 'Not found', text: 'There is no such action.', back: '/portal/', nav: 'none', csrf: signed.csrf }, 404),
    );
  }

  private async login(request: FastifyRequest, reply: FastifyReply, form: Form): Promise<void> {
    const email = typeof form.email === 'string' ? form.email.slice(0, 320) : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const outcome = await this.auth.login(email, password, request.ip);
    if (outcome.kind === 'signed-in') return this.startSession(reply, outcome.sessionId);
    const error =
      outcome.kind === 'locked' ? 'Too many wrong passwords: this e-mail is locked for 15 minutes.' : 'That e-mail and password do not match an account.';
    return this.send(reply, renderPortal('login', { csrf: this.preCsrf(request, reply), email, error }, outcome.kind === 'locked' ? 429 : 401));
  }

  private async invitePage(request: FastifyRequest, reply: FastifyReply, token: string, error?: string, status = 200): Promise<void> {
    if (!(await this.auth.inviteIsOpen(token))) {
      return this.send(
        reply,
        renderPortal(
          'notice',
          { title: 'Invite not valid', text: 'This invite was used already or has expired. Ask your operator for a new one.', back: '/portal/login' },
          404,
        ),
      );
    }
    return this.send(
      reply,
      renderPortal('invite', { csrf: this.preCsrf(request, reply), action: `/portal/invite/${encodeURIComponent(token)}`, error }, status),
    );
  }

  private async acceptInvite(request: FastifyRequest, reply: FastifyReply, token: string, form: Form): Promise<void> {
    const password = typeof form.password === 'string' ? form.password : '';
    if (password.length < MIN_PASSWORD_LENGTH)
      return this.invitePage(request, reply, token, `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`, 400);
    if (password !== form.confirm) return this.invitePage(request, reply, token, 'The two passwords differ.', 400);
    const sessionId = await this.auth.acceptInvite(token, password);
    if (!sessionId) return this.invitePage(request, reply, token);
    return this.startSession(reply, sessionId);
  }

  private async keysPage(signed: Signed, created?: { name: string; key: string }): Promise<PortalHtml> {
    return renderPortal('api-keys', { csrf: signed.csrf, keys: await this.apiKeys.list(signed.accountId), scopes: SCOPES, created });
  }

  private async createKey(reply: FastifyReply, signed: Signed, form: Form): Promise<void> {
    const name = typeof form.name === 'string' && form.name.trim() ? form.name.trim().slice(0, 100) : 'portal key';
    const created = await this.apiKeys.createFor(portalPrincipal(signed), portalActor(signed), name, scopesOf(form, ['apps:read']));
    // The key is in this answer only: not a redirect, and not cached anywhere.
    void reply.header('cache-control', 'no-store');
    return this.send(reply, await this.keysPage(signed, { name: created.name, key: created.key }));
  }

  private async startSession(reply: FastifyReply, sessionId: string): Promise<void> {
    await reply
      .header('set-cookie', [portalCookie(SESSION_COOKIE, sessionId, this.secure, SESSION_IDLE_MS / 1000), portalCookie(PRE_COOKIE, '', this.secure, 0)])
      .redirect('/portal/', 303);
  }

  private async signedIn(request: FastifyRequest): Promise<Signed | null> {
    const sessionId = cookieOf(request.headers.cookie, SESSION_COOKIE);
    const member = await this.auth.sessionMember(sessionId);
    return member && sessionId ? { ...member, sessionId, csrf: this.auth.csrfToken(sessionId), ip: request.ip } : null;
  }

  /** The pre-session cookie (made if missing) and the CSRF token bound to it. */
  private preCsrf(request: FastifyRequest, reply: FastifyReply): string {
    let pre = cookieOf(request.headers.cookie, PRE_COOKIE);
    if (!pre) {
      pre = randomBytes(18).toString('base64url');
      void reply.header('set-cookie', portalCookie(PRE_COOKIE, pre, this.secure));
    }
    return this.auth.csrfToken(pre);
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
      await this.send(reply, { ...page, headers: err.extras.headers });
      return true;
    }
  }

  private forbidden(reply: FastifyReply, back: string, csrf?: string): Promise<void> {
    return this.send(
      reply,
      renderPortal(
        'notice',
        { title: 'Form expired', text: 'This form was not sent from this portal, or it expired. Nothing was changed; please try again.', back, csrf },
        403,
      ),
    );
  }

  private async answer(reply: FastifyReply, answer: PortalAnswer): Promise<void> {
    if ('redirect' in answer) return void (await reply.redirect(answer.redirect, 303));
    return this.send(reply, answer);
  }

  private async send(reply: FastifyReply, page: PortalHtml): Promise<void> {
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
}

/** The invite token of `/portal/invite/<token>` — also of `/portal/invite/<token>/…`, the wildcard route's. */
function inviteTokenOf(request: FastifyRequest): string {
  const params = request.params as { token?: string; '*'?: string };
  return params.token ?? (params['*'] ?? '').split('/', 1)[0];
}

function pathOf(request: FastifyRequest): string {
  return new URL(request.url, 'http://portal.invalid').pathname.replace(/^\/portal\/?/, '').replace(/\/$/, '');
}
