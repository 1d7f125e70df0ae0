import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../common/http/public.decorator.js';
import { AppConfig } from '../config/app-config.js';
import { PortalAnalyticsPages } from '../portal/analytics/portal-analytics.pages.js';
import { cookieOf } from '../portal/cookies.js';
import { FORM } from '../portal/portal-http.js';
import { type PortalHtml, renderPortal } from '../portal/portal-pages.js';
import { sendPortalPage } from '../portal/portal-session.js';
import { LOCKOUT_WINDOW_MS } from '../portal/sign-in-lockout.js';
import type { ResolvedShare } from './analytics-shares.repository.js';
import { AnalyticsShares, SHARE_COOKIE_MS } from './analytics-shares.service.js';

/** The unlock cookie of a protected share (scoped to its own path, so each share has its own). */
const COOKIE = 'share_access';
const NOT_FOUND: PortalHtml = {
  status: 404,
  html: '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Not found</title></head><body><main><h1>Not found</h1><p>This link does not exist, or was revoked.</p></main></body></html>',
};

/**
 * /share/<token>: an app's analytics dashboard, read-only, for whoever has the link — the portal's own
 * view (PortalAnalyticsPages) with links that stay under the share, no portal navigation, session or
 * form of the portal. A password, if the share has one, comes first. Every request looks the share up
 * (a revoked link is a 404 at once) and nothing is cached; search engines and Referer headers are kept out.
 */
@ApiExcludeController()
@Public()
@Controller('share')
export class SharePagesController {
  constructor(
    private readonly shares: AnalyticsShares,
    private readonly pages: PortalAnalyticsPages,
    private readonly config: AppConfig,
  ) {}

  @Get(':token')
  async page(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const share = await this.admitted(token, request);
    if (share === 'missing') return send(reply, NOT_FOUND);
    if (share === 'locked') return send(reply, passwordForm(token));
    // The query string picks the period, filters and chart only (dashboardQuery): the app is the share's.
    const view = await this.pages.dashboard(share.accountId, share.appId, (request.query ?? {}) as Record<string, unknown>, basePath(token));
    return send(reply, renderPortal('share', { ...view.data, shared: true }, view.status));
  }

  @Get(':token/realtime')
  async realtime(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const share = await this.admitted(token, request);
    if (share === 'missing' || share === 'locked') return send(reply, NOT_FOUND);
    return send(reply, await this.pages.realtime(share.accountId, share.appId, basePath(token)));
  }

  @Post(':token')
  @RouteConfig(FORM)
  async unlock(
    @Param('token') token: string,
    @Body() form: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const share = await this.shares.resolve(token);
    if (!share) return send(reply, NOT_FOUND);
    if (share.passwordHash === null) return void (await reply.redirect(basePath(token), 303));
    const password = typeof form?.password === 'string' ? form.password.slice(0, 200) : '';
    const outcome = await this.shares.unlock(share, password, request.ip);
    if (outcome.ok) {
      const cookie = [
        `${COOKIE}=${outcome.cookie}`,
        `Path=${basePath(token)}`,
        'HttpOnly',
        'SameSite=Lax',
        ...(this.config.secureCookies ? ['Secure'] : []),
        `Max-Age=${SHARE_COOKIE_MS / 1000}`,
      ].join('; ');
      return void (await reply.headers({ ...SHARE_HEADERS, 'set-cookie': cookie }).redirect(basePath(token), 303));
    }
    if (outcome.locked) {
      void reply.header('retry-after', String(LOCKOUT_WINDOW_MS / 1000));
      return send(reply, passwordForm(token, 'Too many wrong passwords. Try again in 15 minutes.', 429));
    }
    return send(reply, passwordForm(token, 'That password is not right.', 403));
  }

  /** The share, if the link is live and the request may see it: else `missing` (404) or `locked` (its password first). */
  private async admitted(token: string, request: FastifyRequest): Promise<ResolvedShare | 'missing' | 'locked'> {
    const share = await this.shares.resolve(token);
    if (!share) return 'missing';
    return this.shares.admits(share, cookieOf(request.headers.cookie, COOKIE)) ? share : 'locked';
  }
}

const SHARE_HEADERS = {
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const basePath = (token: string) => `/share/${encodeURIComponent(token)}`;

function passwordForm(token: string, error?: string, status = 200): PortalHtml {
  return renderPortal('share-password', { action: basePath(token), error }, status);
}

/** A portal page with the portal's headers, and the share's over them (no referrer, never indexed or stored). */
function send(reply: FastifyReply, page: PortalHtml): Promise<void> {
  return sendPortalPage(reply, { ...page, headers: { ...SHARE_HEADERS, ...page.headers } });
}
