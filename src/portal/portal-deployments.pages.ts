import { Injectable } from '@nestjs/common';
import { AppsService } from '../apps/apps.service.js';
import { DeploymentsError } from '../deployments/deployments.errors.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { FunctionLogsService, type LogLineDto } from '../functions/function-logs.service.js';
import { ago, count, size } from './portal-format.js';
import { chrome, Signed } from './portal-page.js';
import { PortalHtml, renderPortal } from './portal-pages.js';

/** The lines a deployment page shows (and each poll of its Logs view reads): the newest, newest first. */
export const PAGE_LOG_LINES = 200;
/** How often the Logs view asks for the newest lines (htmx, no inline script under the portal's CSP). */
export const LOG_POLL_SECONDS = 2;

/** /portal/apps/:appId/deployments/:deploymentId: what a deployment serves, its server code, and that code's live logs. */
@Injectable()
export class PortalDeploymentsPages {
  constructor(
    private readonly apps: AppsService,
    private readonly deployments: DeploymentsService,
    private readonly logs: FunctionLogsService,
  ) {}

  async page(signed: Signed, appId: string, deploymentId: string): Promise<PortalHtml> {
    const [app, deployment] = await Promise.all([this.apps.get(signed.accountId, appId), this.deploymentOf(signed, appId, deploymentId)]);
    const functions = deployment.config?.functions;
    return renderPortal('deployment', {
      ...chrome(signed),
      app,
      deployment: {
        ...deployment,
        ago: ago(deployment.createdAt, Date.now()),
        at: `${deployment.createdAt.slice(0, 16).replace('T', ' ')} UTC`,
        files: deployment.files ? `${count(deployment.files.count)} (${size(deployment.files.bytes)})` : 'the landing page only',
        published: app.publishedDeploymentId === deployment.deploymentId,
      },
      functions: functions && { entry: functions.entry, routes: functions.routes, variables: [...(deployment.variables ?? [])].sort() },
      lines: functions ? await this.lines(deployment.deploymentId) : [],
      logsUrl: `/portal/apps/${app.appId}/deployments/${deployment.deploymentId}/logs`,
      pollSeconds: LOG_POLL_SECONDS,
      limit: PAGE_LOG_LINES,
    });
  }

  /** The Logs view's list alone (what its poll swaps in). */
  async logLines(signed: Signed, appId: string, deploymentId: string): Promise<PortalHtml> {
    const deployment = await this.deploymentOf(signed, appId, deploymentId);
    return renderPortal('deployment-logs', { lines: await this.lines(deployment.deploymentId) });
  }

  /** The account's deployment of this app; another app's (or account's) is not found, as on the API. */
  private async deploymentOf(signed: Signed, appId: string, deploymentId: string) {
    const deployment = await this.deployments.get(signed.accountId, deploymentId);
    if (deployment.appId !== appId) throw DeploymentsError.notFound(deploymentId);
    return deployment;
  }

  private async lines(deploymentId: string): Promise<Array<LogLineDto & { time: string }>> {
    const lines = await this.logs.list(deploymentId, { limit: PAGE_LOG_LINES });
    return lines.reverse().map((l) => ({ ...l, time: l.at.slice(11, 23) }));
  }
}
