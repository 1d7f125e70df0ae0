import { Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendPortal, SignedIn } from '../portal-http.js';
import type { Signed } from '../portal-page.js';
import { SignedInPortalRoutes } from '../routes/portal-routes.js';
import { PortalAnalyticsPages } from './portal-analytics.pages.js';
import { PortalPermission } from '../portal-role.guard.js';

/** /portal/apps/<appId>/analytics: an app's dashboard (its query string is the view), and its realtime figure (htmx polls it). */
@SignedInPortalRoutes()
export class PortalAnalyticsController {
  constructor(private readonly pages: PortalAnalyticsPages) {}

  @Get('apps/:appId/analytics')
  @PortalPermission('analytics:read')
  async dashboard(@SignedIn() signed: Signed, @Param('appId') appId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.page(signed, appId, (request.query ?? {}) as Record<string, unknown>));
  }

  @Get('apps/:appId/analytics/realtime')
  @PortalPermission('analytics:read')
  async realtime(@SignedIn() signed: Signed, @Param('appId') appId: string, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.realtime(signed.accountId, appId));
  }
}
