import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { zipHeaders } from '../../analytics/analytics.controller.js';
import { FORM, queryOf, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { SignedInPortalRoutes } from '../routes/portal-routes.js';
import { PortalAnalyticsPages } from './portal-analytics.pages.js';
import { PortalPermission } from '../portal-role.guard.js';
import { PortalReportSwitches } from './report-switches.js';

/**
 * /portal/apps/<appId>/analytics: an app's dashboard (its query string is the view), its realtime figure (htmx polls it),
 * its Export button's ZIP, the forms that add and delete goals and shared links, and the member's e-mail report switches.
 */
type ManageAction = Parameters<PortalAnalyticsPages['manage']>[2];

@SignedInPortalRoutes()
export class PortalAnalyticsController {
  constructor(
    private readonly pages: PortalAnalyticsPages,
    private readonly reportSwitches: PortalReportSwitches,
  ) {}

  @Get('apps/:appId/analytics')
  @PortalPermission('analytics:read')
  async dashboard(@SignedIn() signed: Signed, @Param('appId') appId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const switches = await this.reportSwitches.fragment(signed, appId, queryOf(request, 'reports') === 'saved');
    return sendPortal(reply, await this.pages.page(signed, appId, (request.query ?? {}) as Record<string, unknown>, undefined, switches));
  }

  @Get('apps/:appId/analytics/realtime')
  @PortalPermission('analytics:read')
  async realtime(@SignedIn() signed: Signed, @Param('appId') appId: string, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.realtime(signed.accountId, appId));
  }

  @Get('apps/:appId/analytics/export')
  @PortalPermission('analytics:read')
  async export(@SignedIn() signed: Signed, @Param('appId') appId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { fileName, body } = await this.pages.exportZip(signed, appId, (request.query ?? {}) as Record<string, unknown>);
    await reply.status(200).headers(zipHeaders(fileName)).send(body);
  }

  @Post('apps/:appId/analytics/goals')
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async addGoal(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return this.manage(reply, signed, appId, 'goal', form);
  }

  @Post('apps/:appId/analytics/goals/:id/delete')
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async deleteGoal(
    @SignedIn() signed: Signed,
    @Param('appId') appId: string,
    @Param('id') id: string,
    @Body() form: Form,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.manage(reply, signed, appId, 'goal-delete', form, id);
  }

  @Post('apps/:appId/analytics/shares')
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async addShare(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return this.manage(reply, signed, appId, 'share', form);
  }

  @Post('apps/:appId/analytics/shares/:id/delete')
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async deleteShare(
    @SignedIn() signed: Signed,
    @Param('appId') appId: string,
    @Param('id') id: string,
    @Body() form: Form,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.manage(reply, signed, appId, 'share-delete', form, id);
  }

  /** A goal or shared-link form's answer: the page again, with what happened and the member's report switches. */
  private async manage(reply: FastifyReply, signed: Signed, appId: string, action: ManageAction, form: Form, id = ''): Promise<void> {
    return sendPortal(reply, await this.pages.manage(signed, appId, action, form, id, await this.reportSwitches.fragment(signed, appId)));
  }

  /** Like PUT /v1/apps/:appId/analytics/reports: a viewer may switch their own reports too. */
  @Post('apps/:appId/analytics/reports')
  @PortalPermission('analytics:read')
  @RouteConfig(FORM)
  async saveReports(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.reportSwitches.save(signed, appId, form));
  }
}
