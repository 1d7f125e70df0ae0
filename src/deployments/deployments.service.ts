import { Injectable } from '@nestjs/common';
import { AppsService } from '../apps/apps.service.js';
import { Meters } from '../billing/meters.js';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import { AppConfig } from '../config/app-config.js';
import { Transactions } from '../database/transactions.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { defaultLandingPage } from '../landing-pages/landing-page.js';
import { LandingPagesService } from '../landing-pages/landing-pages.service.js';
import { landingPageOf, snapshotOf } from './deployment-snapshot.js';
import { Deployment } from './deployment.entity.js';
import { DeploymentsError } from './deployments.errors.js';
import { DeploymentsRepository } from './deployments.repository.js';
import { DeployResultDto } from './dto/deploy.dto.js';
import { DeploymentDto } from './dto/deployment.dto.js';

@Injectable()
export class DeploymentsService {
  constructor(
    private readonly db: Transactions,
    private readonly deployments: DeploymentsRepository,
    private readonly apps: AppsService,
    private readonly landingPages: LandingPagesService,
    private readonly events: DomainEvents,
    private readonly config: AppConfig,
    private readonly meters: Meters,
  ) {}

  /** Snapshots the app as it is now and serves it at `url`. Emits `deployment.succeeded`; metered (`deployments`, 402 past a hard quota). */
  async deploy(accountId: string, input: { appId: string; env: string }): Promise<DeployResultDto> {
    return this.db.run(async () => {
      // One round trip for both reads (see Transactions): the app, locked, then its saved page (unused if the app is not the caller's).
      const [app, savedPage] = await Promise.all([this.apps.requireOwnedForBody(accountId, input.appId), this.landingPages.savedPage(input.appId)]);
      await this.meters.assertRoom(accountId, 'deployments'); // 402 before anything is written
      const snapshot = snapshotOf(app, savedPage ?? defaultLandingPage(app));
      const result = this.toResult(this.deployments.insert({ id: newId('dep'), accountId, appId: app.id, env: input.env, snapshot }));
      const { deploymentId, appId, env, url, createdAt } = result;
      await this.events.raise('deployment.succeeded', accountId, { deploymentId, appId, env, url, createdAt });
      await this.meters.record(accountId, 'deployments', 1, deploymentId);
      return result;
    });
  }

  async get(accountId: string, deploymentId: string): Promise<DeploymentDto> {
    const deployment = await this.deployments.findOwned(accountId, deploymentId);
    if (!deployment) throw DeploymentsError.notFound(deploymentId);
    return this.toDto(deployment);
  }

  async listForApp(accountId: string, appId: string, page: PageRequest): Promise<Page<DeploymentDto>> {
    await this.apps.requireOwned(accountId, appId);
    return toPage(await this.deployments.listForApp(appId, page), page, (d) => this.toDto(d));
  }

  /** For the public pages: any account's deployment, by its (unguessable) id. */
  findServable(deploymentId: string): Promise<Deployment | null> {
    return this.deployments.findById(deploymentId);
  }

  /** A deployment of this app (of any account's: the caller checked the app), or null. */
  async findOfApp(appId: string, deploymentId: string): Promise<Deployment | null> {
    const deployment = await this.deployments.findById(deploymentId);
    return deployment?.appId === appId ? deployment : null;
  }

  /** For the public alias /sites/<appId>/<env>/: the newest deployment there. */
  findNewestServable(appId: string, env: string): Promise<Deployment | null> {
    return this.deployments.findNewest(appId, env);
  }

  urlOf(deploymentId: string): string {
    return `${this.config.publicUrl}/sites/${deploymentId}/`;
  }

  private toResult(d: Deployment): DeployResultDto {
    return { status: d.status, deploymentId: d.id, url: this.urlOf(d.id), appId: d.appId, env: d.env, createdAt: d.createdAt.toISOString() };
  }

  private toDto(d: Deployment): DeploymentDto {
    return { ...this.toResult(d), snapshot: { name: d.snapshot.app.name, description: d.snapshot.app.description, landingPage: landingPageOf(d.snapshot) } };
  }
}
