import { Get, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PortalDeploymentsPages } from '../portal-deployments.pages.js';
import { sendPortal, SignedIn } from '../portal-http.js';
import type { Signed } from '../portal-page.js';
import { PortalPermission } from '../portal-role.guard.js';
import { SignedInPortalRoutes } from './portal-routes.js';

/** /portal/apps/:appId/deployments/:deploymentId…: a deployment's page and its Logs view's poll. */
@SignedInPortalRoutes()
export class PortalDeploymentsController {
  constructor(private readonly pages: PortalDeploymentsPages) {}

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
}
