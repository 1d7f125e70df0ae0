import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PortalAppsPages } from '../portal-apps.pages.js';
import { watchClient } from '../../common/http/client-signal.js';
import { FORM, queryOf, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { SignedInPortalRoutes } from './portal-routes.js';
import { PortalPermission } from '../portal-role.guard.js';

/** /portal/apps…: the apps, an app's page (settings, deployments, publishing, domains); its analytics: PortalAnalyticsController. */
@SignedInPortalRoutes()
export class PortalAppsController {
  constructor(private readonly pages: PortalAppsPages) {}

  @Get('apps')
  @PortalPermission('apps:read')
  async list(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.list(signed));
  }

  @Post('apps')
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async create(@SignedIn() signed: Signed, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.create(signed, form));
  }

  @Get('apps/:appId')
  @PortalPermission('apps:read')
  async app(@SignedIn() signed: Signed, @Param('appId') appId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.appPage(signed, appId, { done: queryOf(request, 'done') }));
  }

  @Post('apps/:appId')
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async settings(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.saveSettings(signed, appId, form)));
  }

  /** The whole page written by AI at once (the editor has a button per section). */
  @Post('apps/:appId/generate')
  @PortalPermission('ai:generate')
  @RouteConfig(FORM)
  async generate(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.generate(signed, appId, form, watchClient(reply).signal)));
  }

  @Post('apps/:appId/deploy')
  @PortalPermission('deployments:write')
  @RouteConfig(FORM)
  async deploy(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.deploy(signed, appId, form)));
  }

  @Post('apps/:appId/publish')
  @PortalPermission('deployments:write')
  @RouteConfig(FORM)
  async publish(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.publish(signed, appId, form)));
  }

  @Post('apps/:appId/split')
  @PortalPermission('deployments:write')
  @RouteConfig(FORM)
  async startSplit(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.startSplit(signed, appId, form)));
  }

  @Post('apps/:appId/split/end')
  @PortalPermission('deployments:write')
  @RouteConfig(FORM)
  async endSplit(@SignedIn() signed: Signed, @Param('appId') appId: string, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.endSplit(signed, appId)));
  }

  @Post('apps/:appId/unpublish')
  @PortalPermission('deployments:write')
  @RouteConfig(FORM)
  async unpublish(@SignedIn() signed: Signed, @Param('appId') appId: string, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.unpublish(signed, appId)));
  }

  @Post('apps/:appId/domains')
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async addDomain(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.addDomain(signed, appId, form)));
  }

  @Post('apps/:appId/domains/:domainId/verify')
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async verifyDomain(
    @SignedIn() signed: Signed,
    @Param('appId') appId: string,
    @Param('domainId') domainId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.verifyDomain(signed, domainId)));
  }

  @Post('apps/:appId/domains/:domainId/delete')
  @PortalPermission('apps:write')
  @RouteConfig(FORM)
  async deleteDomain(
    @SignedIn() signed: Signed,
    @Param('appId') appId: string,
    @Param('domainId') domainId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return sendPortal(reply, await this.pages.perform(signed, appId, () => this.pages.deleteDomain(signed, domainId)));
  }
}
