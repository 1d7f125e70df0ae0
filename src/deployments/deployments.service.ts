import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppsService } from '../apps/apps.service.js';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/pagination.js';
import { AppConfig } from '../config/app-config.js';
import { EventBus } from '../events/event-bus.service.js';
import { snapshotOf } from './deployment-snapshot.js';
import { Deployment } from './deployment.entity.js';
import { DeploymentsRepository } from './deployments.repository.js';
import { DeployResultDto } from './dto/deploy.dto.js';
import { DeploymentDto } from './dto/deployment.dto.js';

@Injectable()
export class DeploymentsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deployments: DeploymentsRepository,
    private readonly apps: AppsService,
    private readonly events: EventBus,
    private readonly config: AppConfig,
  ) {}

  /** Snapshots the app as it is now and serves it at `url`. Emits `deployment.succeeded`. */
  async deploy(accountId: string, input: { appId: string; env: string }): Promise<DeployResultDto> {
    const deployment = await this.dataSource.transaction(async (m) => {
      const app = await this.apps.requireOwnedForBody(m, accountId, input.appId);
      return this.deployments.insert(m, { id: newId('dep'), accountId, appId: app.id, env: input.env, snapshot: snapshotOf(app) });
    });
    const result = this.toResult(deployment);
    await this.events.publish('deployment.succeeded', accountId, {
      deploymentId: result.deploymentId,
      appId: result.appId,
      env: result.env,
      url: result.url,
      createdAt: result.createdAt,
    });
    return result;
  }

  async get(accountId: string, deploymentId: string): Promise<DeploymentDto> {
    const deployment = await this.deployments.findOwned(accountId, deploymentId);
    if (!deployment) throw new NotFoundException(`Deployment ${deploymentId} not found`);
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
    return { ...this.toResult(d), snapshot: { name: d.snapshot.app.name, description: d.snapshot.app.description } };
  }
}
