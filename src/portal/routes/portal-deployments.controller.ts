import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PortalDeploymentsPages } from '../portal-deployments.pages.js';
import { FORM, queryOf, sendPortal, SignedIn } from '../portal-http.js';
import type { Form, Signed } from '../portal-page.js';
import { PortalVariablesPages } from '../portal-variables.pages.js';
import { PortalPermission } from '../portal-role.guard.js';
import { SignedInPortalRoutes } from './portal-routes.js';

/** An app's server code: /portal/apps/:appId/deployments/:deploymentId… (a deployment's page, its Logs view's poll) and …/variables. */
@SignedInPortalRoutes()
export class PortalDeploymentsController {
  constructor(
    private readonly pages: PortalDeploymentsPages,
    private readonly variables: PortalVariablesPages,
  ) {}

  @Get('apps/:appId/deployments/:deploymentId')
  @PortalPermission('apps:read')
  async deployment(
    @SignedIn() signed: Signed,
    @Param('appId') appId: string,
    @Param('deploymentId') deploymentId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return sendPortal(reply, await this.pages.page(signed, appId, deploymentId));
  }

  @Get('apps/:appId/deployments/:deploymentId/logs')
  @PortalPermission('apps:read')
  async logs(
    @SignedIn() signed: Signed,
    @Param('appId') appId: string,
    @Param('deploymentId') deploymentId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    void reply.header('cache-control', 'no-store');
    return sendPortal(reply, await this.pages.logLines(signed, appId, deploymentId));
  }

  @Get('apps/:appId/variables')
  @PortalPermission('apps:read')
  async listVariables(@SignedIn() signed: Signed, @Param('appId') appId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.variables.page(signed, appId, { done: queryOf(request, 'done') }));
  }

  @Post('apps/:appId/variables')
  @PortalPermission('deployments:write')
  @RouteConfig(FORM)
  async setVariable(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.variables.set(signed, appId, form));
  }

  @Post('apps/:appId/variables/delete')
  @PortalPermission('deployments:write')
  @RouteConfig(FORM)
  async deleteVariable(@SignedIn() signed: Signed, @Param('appId') appId: string, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.variables.remove(signed, appId, form));
  }
}
