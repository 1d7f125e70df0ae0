import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/http/public.decorator.js';
import { PortalAnalyticsPages } from './portal-analytics.pages.js';
import { PortalRoutes } from './portal-route.js';

/** The analytics dashboard of an app in the portal, and its realtime figure (for htmx's polling). */
@ApiExcludeController()
@Public()
@Controller('portal/apps/:appId/analytics')
export class PortalAnalyticsController {
  constructor(
    private readonly routes: PortalRoutes,
    private readonly pages: PortalAnalyticsPages,
  ) {}

  @Get()
  dashboard(@Param('appId') appId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.routes.serve(request, reply, (signed) => this.pages.page(signed, appId, (request.query ?? {}) as Record<string, unknown>));
  }

  @Get('realtime')
  realtime(@Param('appId') appId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.routes.serve(request, reply, (signed) => this.pages.realtime(signed, appId));
  }
}
